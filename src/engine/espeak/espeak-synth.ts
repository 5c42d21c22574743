// The embedded synth on one eSpeak NG instance (espeak-instance.ts, which caches the voice+variant) and the state
// it caches on top: rate, range and the variant files written. Lives inside a worker thread, never shared across.

import { pcm16Sample } from '../../audio/pcm.js';
import type { WordBoundary } from '../tts-engine.js';
import type { EmbeddedVoiceParams } from './espeak-voice-params.js';
import { EspeakInstance } from './espeak-instance.js';
import { toEspeakInput } from './espeak-text.js';
import { ESPEAK_VARIANT_DIR, variantFileText, variantKey } from './espeak-variant.js';

// eSpeak's accepted rate range in words per minute (espeakRATE_MINIMUM..espeakRATE_MAXIMUM without sonic).
const MIN_RATE_WPM = 80;
const MAX_RATE_WPM = 450;
// Custom voices can each bring a new (params, shift) pair; bound the variant files a long-lived worker keeps.
const MAX_CACHED_VARIANTS = 256;

export interface EspeakRequest {
  readonly text: string;
  /** eSpeak language voice id, e.g. `hi`. */
  readonly espeakLanguage: string;
  readonly voice: EmbeddedVoiceParams;
  readonly speed: number;
  readonly pitchShiftSemitones: number;
}

/** One clause from eSpeak: its samples at the synth's rate and where its words start (tts-engine.ts). */
export interface EspeakClip {
  readonly samples: Float32Array;
  readonly words: WordBoundary[];
}

/** The part of eSpeak's callback events this reads (espeak-ng.js builds them; `text_position` is 1-based). */
interface EspeakEvent {
  readonly type: string;
  readonly text_position: number;
  readonly word_length: number;
  readonly audio_position: number;
}

export class EspeakSynth {
  readonly sampleRateHz: number;
  private readonly variants = new Map<string, string>();
  private nextVariantNumber = 0;
  private currentRate = -1;
  private currentRange = -1;

  private constructor(private readonly espeak: EspeakInstance) {
    this.sampleRateHz = espeak.worker.samplerate;
  }

  static async create(): Promise<EspeakSynth> {
    return new EspeakSynth(await EspeakInstance.create());
  }

  /** Writes the variant file for a voice ahead of its first job. */
  prepareVoice(params: EmbeddedVoiceParams, pitchShiftSemitones = 0): void {
    this.variantName(params, pitchShiftSemitones);
  }

  synthesize(request: EspeakRequest): EspeakClip {
    const variant = this.variantName(request.voice, request.pitchShiftSemitones);
    const { worker } = this.espeak;
    if (this.espeak.useVoice(`${request.espeakLanguage}+${variant}`, request.espeakLanguage)) {
      // Loading a voice resets rate and range to the voice's defaults.
      this.currentRate = -1;
      this.currentRange = -1;
    }
    const rate = Math.round(Math.min(MAX_RATE_WPM, Math.max(MIN_RATE_WPM, request.voice.wordsPerMinute * request.speed)));
    if (rate !== this.currentRate) {
      worker.set_rate(rate);
      this.currentRate = rate;
    }
    const range = Math.round(Math.min(100, Math.max(0, request.voice.intonationRange)));
    if (range !== this.currentRange) {
      worker.set_range(range);
      this.currentRange = range;
    }

    const chunks: Int16Array[] = [];
    let length = 0;
    const input = toEspeakInput(request.text);
    const words = new WordBoundaries(input.sourceIndex);
    worker.synthesize(input.text, (samples, events) => {
      chunks.push(samples);
      length += samples.length;
      for (const event of events as EspeakEvent[]) if (event.type === 'word') words.add(event);
    });
    const out = new Float32Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      for (let i = 0; i < chunk.length; i++) out[offset + i] = pcm16Sample(chunk[i] ?? 0);
      offset += chunk.length;
    }
    return { samples: out, words: words.list };
  }

  private variantName(params: EmbeddedVoiceParams, pitchShiftSemitones: number): string {
    const key = variantKey(params, pitchShiftSemitones);
    const cached = this.variants.get(key);
    if (cached !== undefined) return cached;
    const name = `raaga_${this.nextVariantNumber++}`;
    this.espeak.module.FS.writeFile(ESPEAK_VARIANT_DIR + name, variantFileText(name, params, pitchShiftSemitones));
    this.variants.set(key, name);
    if (this.variants.size > MAX_CACHED_VARIANTS) this.evictOldestVariant();
    return name;
  }

  private evictOldestVariant(): void {
    const oldest = this.variants.entries().next().value;
    if (oldest === undefined) return;
    const [key, name] = oldest;
    this.variants.delete(key);
    this.espeak.module.FS.unlink(ESPEAK_VARIANT_DIR + name);
    if (this.espeak.voice.endsWith(`+${name}`)) this.espeak.forgetVoice();
  }
}

/**
 * eSpeak's word events as boundaries in the original text: one per word after the first, when it starts. A word
 * eSpeak spells (OTP) raises one event per letter at the same text position; only the first counts.
 */
class WordBoundaries {
  readonly list: WordBoundary[] = [];
  #lastStart = -1;
  #lastEnd = 0;

  constructor(private readonly sourceIndex: readonly number[]) {}

  add(event: EspeakEvent): void {
    const first = event.text_position - 1;
    if (first <= this.#lastStart || first < 0 || first >= this.sourceIndex.length) return;
    const last = Math.min(this.sourceIndex.length - 1, first + Math.max(1, event.word_length) - 1);
    if (this.#lastStart >= 0) this.list.push({ textEnd: this.#lastEnd, atMs: event.audio_position });
    this.#lastStart = first;
    this.#lastEnd = (this.sourceIndex[last] as number) + 1;
  }
}
