// One eSpeak NG WASM instance and the state cached on it (current voice+variant, rate, range, written variants).
// Lives inside a worker thread; eSpeak keeps global state, so an instance must never be shared across threads.

import init, { type ESpeakNGModule, type ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import type { EmbeddedVoiceParams } from '../tts-engine.js';
import { toEspeakPlainText } from './espeak-text.js';
import { variantFileText, variantKey } from './espeak-variant.js';

const VARIANT_DIR = '/usr/share/espeak-ng-data/voices/!v/';
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

export class EspeakSynth {
  readonly sampleRateHz: number;
  private readonly variants = new Map<string, string>();
  private nextVariantNumber = 0;
  private currentVoice = '';
  private currentRate = -1;
  private currentRange = -1;

  private constructor(
    private readonly module: ESpeakNGModule,
    private readonly worker: ESpeakNGWorker,
  ) {
    this.sampleRateHz = worker.samplerate;
  }

  static async create(): Promise<EspeakSynth> {
    const module = await init();
    return new EspeakSynth(module, new module.eSpeakNGWorker());
  }

  /** Writes the variant file for a voice ahead of its first job. */
  prepareVoice(params: EmbeddedVoiceParams, pitchShiftSemitones = 0): void {
    this.variantName(params, pitchShiftSemitones);
  }

  synthesize(request: EspeakRequest): Float32Array {
    const variant = this.variantName(request.voice, request.pitchShiftSemitones);
    const voice = `${request.espeakLanguage}+${variant}`;
    if (voice !== this.currentVoice) {
      // set_voice reloads the language dictionary, the costly part of a job; skip it when unchanged.
      const code = this.worker.set_voice(voice);
      if (code !== 0) {
        this.currentVoice = '';
        throw new Error(`eSpeak has no voice '${request.espeakLanguage}' (code ${code})`);
      }
      this.currentVoice = voice;
      // Loading a voice resets rate and range to the voice's defaults.
      this.currentRate = -1;
      this.currentRange = -1;
    }
    const rate = Math.round(Math.min(MAX_RATE_WPM, Math.max(MIN_RATE_WPM, request.voice.wordsPerMinute * request.speed)));
    if (rate !== this.currentRate) {
      this.worker.set_rate(rate);
      this.currentRate = rate;
    }
    const range = Math.round(Math.min(100, Math.max(0, request.voice.intonationRange)));
    if (range !== this.currentRange) {
      this.worker.set_range(range);
      this.currentRange = range;
    }

    const chunks: Int16Array[] = [];
    let length = 0;
    this.worker.synthesize(toEspeakPlainText(request.text), (samples) => {
      chunks.push(samples);
      length += samples.length;
    });
    const out = new Float32Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      for (let i = 0; i < chunk.length; i++) out[offset + i] = (chunk[i] ?? 0) / 32768;
      offset += chunk.length;
    }
    return out;
  }

  private variantName(params: EmbeddedVoiceParams, pitchShiftSemitones: number): string {
    const key = variantKey(params, pitchShiftSemitones);
    const cached = this.variants.get(key);
    if (cached !== undefined) return cached;
    const name = `raaga_${this.nextVariantNumber++}`;
    this.module.FS.writeFile(VARIANT_DIR + name, variantFileText(name, params, pitchShiftSemitones));
    this.variants.set(key, name);
    if (this.variants.size > MAX_CACHED_VARIANTS) this.evictOldestVariant();
    return name;
  }

  private evictOldestVariant(): void {
    const oldest = this.variants.entries().next().value;
    if (oldest === undefined) return;
    const [key, name] = oldest;
    this.variants.delete(key);
    this.module.FS.unlink(VARIANT_DIR + name);
    if (this.currentVoice.endsWith(`+${name}`)) this.currentVoice = '';
  }
}
