// The embedded synth on one eSpeak NG instance (espeak-instance.ts, which caches the voice+variant) and the state
// it keeps on top: the variant files written. Lives inside a worker thread, never shared across.

import { pcm16Sample } from '../../audio/pcm.js';
import type { WordBoundary } from '../tts-engine.js';
import type { EmbeddedVoiceParams } from './espeak-voice-params.js';
import type { EspeakEvent } from './espeak-glue.js';
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

export class EspeakSynth {
  readonly sampleRateHz: number;
  private readonly variants = new Map<string, string>();
  private nextVariantNumber = 0;

  private constructor(private readonly espeak: EspeakInstance) {
    this.sampleRateHz = espeak.sampleRateHz;
  }

  /** On a new instance, or on `espeak` (a test that restarts its random numbers holds the instance). */
  static async create(espeak?: EspeakInstance): Promise<EspeakSynth> {
    return new EspeakSynth(espeak ?? (await EspeakInstance.create()));
  }

  /** Writes the variant file for a voice ahead of its first job. */
  prepareVoice(params: EmbeddedVoiceParams, pitchShiftSemitones = 0): void {
    this.variantName(params, pitchShiftSemitones);
  }

  synthesize(request: EspeakRequest): EspeakClip {
    const variant = this.variantName(request.voice, request.pitchShiftSemitones);
    this.espeak.useVoice(`${request.espeakLanguage}+${variant}`, request.espeakLanguage);
    this.espeak.setRate(Math.round(Math.min(MAX_RATE_WPM, Math.max(MIN_RATE_WPM, request.voice.wordsPerMinute * request.speed))));
    this.espeak.setRange(Math.round(Math.min(100, Math.max(0, request.voice.intonationRange))));

    const input = toEspeakInput(request.text);
    const speech = this.espeak.synthesize(input.text);
    if (speech.status !== 0) throw new Error(`eSpeak could not speak the clause (code ${speech.status})`);
    const words = new WordBoundaries(input.sourceIndex);
    for (const event of speech.events) if (event.type === 'word') words.add(event);
    const out = new Float32Array(speech.samples.length);
    for (let i = 0; i < out.length; i++) out[i] = pcm16Sample(speech.samples[i]!);
    return { samples: out, words: words.list };
  }

  private variantName(params: EmbeddedVoiceParams, pitchShiftSemitones: number): string {
    const key = variantKey(params, pitchShiftSemitones);
    const cached = this.variants.get(key);
    if (cached !== undefined) return cached;
    const name = `raaga_${this.nextVariantNumber++}`;
    this.espeak.fs.writeFile(ESPEAK_VARIANT_DIR + name, variantFileText(name, params, pitchShiftSemitones));
    this.variants.set(key, name);
    if (this.variants.size > MAX_CACHED_VARIANTS) this.evictOldestVariant();
    return name;
  }

  private evictOldestVariant(): void {
    const oldest = this.variants.entries().next().value;
    if (oldest === undefined) return;
    const [key, name] = oldest;
    this.variants.delete(key);
    this.espeak.fs.unlink(ESPEAK_VARIANT_DIR + name);
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
    const first = event.textPosition - 1;
    if (first <= this.#lastStart || first < 0 || first >= this.sourceIndex.length) return;
    const last = Math.min(this.sourceIndex.length - 1, first + Math.max(1, event.length) - 1);
    if (this.#lastStart >= 0) this.list.push({ textEnd: this.#lastEnd, atMs: event.audioMs });
    this.#lastStart = first;
    this.#lastEnd = (this.sourceIndex[last] as number) + 1;
  }
}
