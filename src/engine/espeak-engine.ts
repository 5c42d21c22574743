// The embedded engine: eSpeak NG built from source to WebAssembly (GPL-3.0-or-later, espeak/wasm/), one instance per
// worker thread. It speaks every voice x language pair (the registry asks it last), mapping a job to an eSpeak
// request: language id, the catalog voice's variant (its parameters are this engine's, by voice name), rate.

import type { LanguageCode } from '../languages.js';
import { ESPEAK_BUILD_FILES, ESPEAK_BUILD_IDENTITY } from './espeak/espeak-build.js';
import { DEFAULT_ESPEAK_LANGUAGE_IDS } from './espeak/espeak-languages.js';
import type { EspeakJob, EspeakResult, EspeakWorkerData } from './espeak/espeak-worker.js';
import { createHash } from 'node:crypto';
import type { EmbeddedVoice, EmbeddedVoiceParams } from './espeak/espeak-voice-params.js';
import type { PairEngine } from './pair-engine.js';
import { EngineUnavailableError, type PcmClip, type SynthesisJob } from './tts-engine.js';
import { WorkerPool, type WorkerPoolEvent } from './worker-pool.js';
import { workerEntry } from './worker-entry.js';

export interface EspeakEngineOptions {
  /** Worker threads; the server passes min(os.availableParallelism(), configured). */
  readonly workers: number;
  /** Jobs allowed to wait for a worker before `synthesize` refuses with EngineBusyError. */
  readonly maxQueue: number;
  /** Catalog voices by name: written as variant files when each worker starts; a job names its voice. */
  readonly voices?: readonly EmbeddedVoice[];
  /** eSpeak language id per service language, from the voice bank manifest; defaults to the built-in map. */
  readonly languageIds?: Partial<Record<LanguageCode, string>>;
  readonly startTimeoutMs?: number;
  /** The workers' nice value (TTS_WORKER_NICE); 0 or absent: the process's priority. */
  readonly niceness?: number;
  /** Worker lifecycle events (ready, exit, failed start) for the caller's logger. */
  readonly onEvent?: (event: WorkerPoolEvent) => void;
}

const ENTRY = workerEntry('./espeak/espeak-worker', import.meta.url);
// Used only for the warm-up when no catalog voice is given: a neutral male voice.
const FALLBACK_VOICE: EmbeddedVoiceParams = {
  pitchBaseHz: 100,
  pitchMaxHz: 140,
  formants: [],
  breath: 0,
  roughness: 2,
  intonationRange: 50,
  wordsPerMinute: 175,
};

export const ESPEAK_ENGINE_KIND = 'espeak';
/** Its build's files and BUILD.json, for the check before the server starts (build-voice-engine.ts). */
export { ESPEAK_BUILD_FILES };

export class EspeakEngine implements PairEngine {
  readonly name = 'espeak-ng-wasm';
  readonly kind = ESPEAK_ENGINE_KIND;
  private readonly pool: WorkerPool<EspeakJob, EspeakResult>;
  /** Each catalog voice's parameters and their digest (cache identity). */
  private readonly voices = new Map<string, { readonly params: EmbeddedVoiceParams; readonly digest: string }>();
  private readonly languageIds: Readonly<Record<LanguageCode, string>>;
  private starting: Promise<void> | undefined;
  private started = false;

  constructor(options: EspeakEngineOptions) {
    this.languageIds = { ...DEFAULT_ESPEAK_LANGUAGE_IDS, ...options.languageIds };
    for (const voice of options.voices ?? []) {
      this.voices.set(voice.name, { params: voice.params, digest: createHash('sha256').update(JSON.stringify(voice.params)).digest('hex').slice(0, 16) });
    }
    const workerData: EspeakWorkerData = {
      voices: options.voices !== undefined && options.voices.length > 0 ? options.voices.map((voice) => voice.params) : [FALLBACK_VOICE],
      // Hindi exercises the Devanagari path, the heaviest dictionary among the eight.
      warmUpLanguage: this.languageIds['hi-IN'],
    };
    this.pool = new WorkerPool<EspeakJob, EspeakResult>({
      entry: ENTRY,
      workerData,
      size: options.workers,
      maxQueue: options.maxQueue,
      ...(options.niceness === undefined ? {} : { niceness: options.niceness }),
      ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
  }

  start(): Promise<void> {
    this.starting ??= this.pool.start().then(() => {
      this.started = true;
    });
    return this.starting;
  }

  isReady(): boolean {
    return this.started && this.pool.hasLiveWorker();
  }

  /** Every pair: eSpeak reads every script the catalog has. */
  serves(): boolean {
    return true;
  }

  kindFor(): string {
    return this.kind;
  }

  audioSource(voiceName: string, language: LanguageCode): string {
    // The build (its source and wasm hash), the language's dictionary and the voice's own numbers: a rebuild or a
    // manifest edit changes the audio.
    return `espeak-ng-wasm@${ESPEAK_BUILD_IDENTITY}/${this.languageIds[language]}/${this.voices.get(voiceName)?.digest ?? 'fallback'}`;
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    if (!this.started) throw new EngineUnavailableError('engine not started');
    const request: EspeakJob = {
      text: job.text,
      espeakLanguage: this.languageIds[job.language],
      voice: this.voices.get(job.voiceName)?.params ?? FALLBACK_VOICE,
      speed: job.speed,
      pitchShiftSemitones: job.pitchShiftSemitones,
      deliverAtRateHz: job.deliverAtRateHz,
    };
    const result = await this.pool.run(request, signal, job.lane);
    return { samples: result.samples, sampleRateHz: result.sampleRateHz, shaped: result.shaped, words: result.words, engine: this.kind };
  }

  /** Resolves once no clause is queued or running (WorkerPool.idle). */
  idle(): Promise<void> {
    return this.pool.idle();
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    return this.pool.load();
  }

  /** Kills worker `index` as a crash would (the pool replaces it); for failure tests. */
  terminateWorkerForTest(index: number): Promise<void> {
    return this.pool.terminateWorker(index);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
