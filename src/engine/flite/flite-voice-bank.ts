// One worker's Flite: one instance (flite-wasm.ts) and the voices loaded into it, each loaded once and kept while its
// file stays the same, the least recently used unloaded when loading another would pass the worker's voice budget.
// A fault in the instance (a trap, or flite failing inside) fails the call that met it and throws the instance away
// with its voices; the next call makes a fresh instance and loads again. Synchronous: it runs in a worker thread.

import { resolve } from 'node:path';
import type { LanguageCode } from '../../languages.js';
import { FliteInstance, FliteInstanceFault, FliteVoiceRefused, type FliteSpoken } from './flite-wasm.js';
import { assertSpeaks, expectedVoiceHeapBytes, fliteVoiceIdentity, readFliteVoice } from './flite-voice.js';
import { FliteVoiceError } from './flite-voice-error.js';
import type { FlitevoxHeader } from './flitevox-header.js';

const MiB = 2 ** 20;

/**
 * How much of its heap one worker's instance may give to loaded voices (measured per voice as flite's heap use
 * across its load): 384 MiB holds the seven CMU Indic languages' largest voices (9-31 MB files, 1.2x that loaded)
 * twice over. A voice that alone would need more is refused when checked. The instance's memory never shrinks, so a
 * worker's Flite memory is about this plus a few MiB at most.
 */
export const FLITE_VOICE_BUDGET_BYTES = 384 * MiB;

export interface FliteVoiceBankOptions {
  /** Voice files must lie inside it (RAAGA_MODELS_DIR). */
  readonly modelsDir: string;
  readonly budgetBytes?: number | undefined;
}

/** A voice loaded in the current instance. */
export interface LoadedFliteVoice {
  readonly path: string;
  readonly header: FlitevoxHeader;
  readonly sampleRateHz: number;
}

interface Entry extends LoadedFliteVoice {
  readonly identity: string;
  readonly handle: number;
  readonly heapBytes: number;
}

/** What the bank has done since it was made, and holds now. */
export interface FliteBankStats {
  /** Voice files loaded into an instance (a voice kept loaded is not loaded again). */
  readonly voiceLoads: number;
  /** Voices unloaded to stay under the budget. */
  readonly evictions: number;
  /** Instances made (the first, and one after each fault). */
  readonly instances: number;
  /** Calls that broke the instance. */
  readonly faults: number;
  readonly loadedVoices: number;
  /** Heap the loaded voices take, as measured across their loads. */
  readonly loadedHeapBytes: number;
  /** The current instance's linear memory (0 before the first). */
  readonly memoryBytes: number;
  readonly budgetBytes: number;
}

export class FliteVoiceBank {
  readonly #modelsDir: string;
  readonly #budgetBytes: number;
  // In use order: the first is the least recently used.
  readonly #voices = new Map<string, Entry>();
  #instance: FliteInstance | undefined;
  #voiceLoads = 0;
  #evictions = 0;
  #instances = 0;
  #faults = 0;

  constructor(options: FliteVoiceBankOptions) {
    this.#modelsDir = options.modelsDir;
    this.#budgetBytes = options.budgetBytes ?? FLITE_VOICE_BUDGET_BYTES;
  }

  /**
   * The voice at `path`, loaded (once; again only when its file changed, or after an eviction or a fault); with
   * `language`, it must speak it. Throws FliteVoiceError for a file Raaga or flite refuses, naming it.
   */
  voice(path: string, language?: LanguageCode): LoadedFliteVoice {
    const identity = fliteVoiceIdentity(path);
    // The key readFliteVoice gives as the file's `path`.
    const absolute = resolve(path);
    let entry = this.#voices.get(absolute);
    if (entry !== undefined && entry.identity !== identity) {
      this.#unload(entry);
      entry = undefined;
    }
    if (entry === undefined) entry = this.#load(path, language);
    else {
      this.#voices.delete(absolute);
      this.#voices.set(absolute, entry);
    }
    if (language !== undefined) assertSpeaks(entry.path, entry.header, language);
    return entry;
  }

  /** Speaks one clause with a loaded voice after setting (and resetting) its features. */
  speak(voice: LoadedFliteVoice, features: { readonly set: Readonly<Record<string, number>>; readonly reset: readonly string[] }, text: string): FliteSpoken {
    const entry = this.#voices.get(voice.path);
    if (entry === undefined || entry !== voice) throw new Error(`flite voice ${voice.path} is not loaded in this instance`);
    return this.#faultable((instance) => {
      instance.setFeatures(entry.handle, features.set, features.reset);
      return instance.synthesize(entry.handle, text);
    });
  }

  stats(): FliteBankStats {
    let loadedHeapBytes = 0;
    for (const entry of this.#voices.values()) loadedHeapBytes += entry.heapBytes;
    return {
      voiceLoads: this.#voiceLoads,
      evictions: this.#evictions,
      instances: this.#instances,
      faults: this.#faults,
      loadedVoices: this.#voices.size,
      loadedHeapBytes,
      memoryBytes: this.#instance?.memoryBytes ?? 0,
      budgetBytes: this.#budgetBytes,
    };
  }

  /** Makes the instance trap for real, for tests of the recovery. */
  trapForTest(): never {
    return this.#faultable((instance) => instance.trapForTest());
  }

  #load(path: string, language: LanguageCode | undefined): Entry {
    const file = readFliteVoice(path, language, { modelsDir: this.#modelsDir, budgetBytes: this.#budgetBytes });
    const expected = expectedVoiceHeapBytes(file.bytes.length);
    for (const oldest of this.#voices.values()) {
      if (this.stats().loadedHeapBytes + expected <= this.#budgetBytes) break;
      this.#unload(oldest);
      this.#evictions++;
    }
    const entry = this.#faultable((instance) => {
      const before = instance.heapUsed();
      let handle: number;
      try {
        handle = instance.loadVoice(file.bytes, file.path);
      } catch (error) {
        if (error instanceof FliteVoiceRefused) throw new FliteVoiceError(file.path, `was refused by flite: ${error.reason}`);
        throw error;
      }
      const sampleRateHz = instance.voiceSampleRate(handle);
      const heapBytes = instance.heapUsed() - before;
      return { path: file.path, header: file.header, identity: file.identity, handle, sampleRateHz, heapBytes: heapBytes > 0 ? heapBytes : expected };
    });
    this.#voices.set(entry.path, entry);
    this.#voiceLoads++;
    if (entry.sampleRateHz !== file.header.sampleRateHz) {
      this.#unload(entry);
      throw new FliteVoiceError(file.path, `was not loaded as declared: flite speaks it at ${entry.sampleRateHz} Hz, the file declares ${file.header.sampleRateHz} Hz`);
    }
    return entry;
  }

  #unload(entry: Entry): void {
    this.#voices.delete(entry.path);
    // Freed in the instance that loaded it; after a fault that instance is gone with everything in it.
    this.#faultable((instance) => instance.freeVoice(entry.handle));
  }

  /** Runs `use` on the instance (made if there is none); a fault discards the instance and its voices, then rethrows. */
  #faultable<T>(use: (instance: FliteInstance) => T): T {
    if (this.#instance === undefined) {
      this.#instance = new FliteInstance();
      this.#instances++;
    }
    try {
      return use(this.#instance);
    } catch (error) {
      if (!(error instanceof FliteInstanceFault)) throw error;
      this.#instance = undefined;
      this.#voices.clear();
      this.#faults++;
      throw new FliteInstanceFault(`${error.message}; the instance was replaced`);
    }
  }
}
