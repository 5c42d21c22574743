// One eSpeak NG instance (the build as espeak-build.ts loads it), shared setup of the embedded synth and the Piper and
// Kokoro phonemizers: the loaded voice cached, and the speech settings applied before every synthesis, as the npm
// build's worker did, so a voice load never leaves a stale rate or range. eSpeak keeps global state: one instance per
// worker thread, never shared across threads.

import { createEspeakModule } from './espeak-build.js';
import {
  ESPEAK_CHARS_UTF8,
  ESPEAK_PHONEMES,
  ESPEAK_SSML,
  EspeakParameter,
  phonemeMode,
  type EspeakFileSystem,
  type EspeakGlue,
  type EspeakSpeech,
} from './espeak-glue.js';

/** eSpeak's defaults (espeakRATE_NORMAL words per minute, volume 100, pitch and range 50 of 0..100). */
const DEFAULT_SETTINGS = { rate: 175, volume: 100, pitch: 50, range: 50 };
/** Clause text is UTF-8 with SSML markup and `[[phoneme]]` input switched on (espeak-text.ts escapes for it). */
const SYNTHESIS_FLAGS = ESPEAK_CHARS_UTF8 | ESPEAK_SSML | ESPEAK_PHONEMES;

export class EspeakInstance {
  #voice = '';
  readonly #settings = { ...DEFAULT_SETTINGS };

  private constructor(readonly glue: EspeakGlue) {}

  static async create(): Promise<EspeakInstance> {
    return new EspeakInstance(await createEspeakModule());
  }

  get sampleRateHz(): number {
    return this.glue.sampleRateHz;
  }

  /** The instance's in-memory file system (variant files). */
  get fs(): EspeakFileSystem {
    return this.glue.fs;
  }

  /** The loaded voice (`lang` or `lang+variant`); '' when none or after a failed load. */
  get voice(): string {
    return this.#voice;
  }

  /**
   * Loads `voice` unless it is already loaded: set_voice reloads the language dictionary, the costly part of a job.
   * Returns true when it loaded. `name` is what an error shows.
   */
  useVoice(voice: string, name = voice): boolean {
    if (voice === this.#voice) return false;
    const code = this.glue.setVoice(voice);
    if (code !== 0) {
      this.#voice = '';
      throw new Error(`eSpeak has no voice '${name}' (code ${code})`);
    }
    this.#voice = voice;
    return true;
  }

  /** Makes the next useVoice load again (the loaded voice's variant file is gone). */
  forgetVoice(): void {
    this.#voice = '';
  }

  /** Words per minute for the next syntheses. */
  setRate(wordsPerMinute: number): void {
    this.#settings.rate = wordsPerMinute;
  }

  /** Intonation range 0..100 for the next syntheses. */
  setRange(range: number): void {
    this.#settings.range = range;
  }

  /** One clause (SSML-escaped text, espeak-text.ts) in the loaded voice with the current settings. */
  synthesize(text: string): EspeakSpeech {
    const { rate, volume, pitch, range } = this.#settings;
    this.glue.setParameter(EspeakParameter.rate, rate);
    this.glue.setParameter(EspeakParameter.volume, volume);
    this.glue.setParameter(EspeakParameter.pitch, pitch);
    this.glue.setParameter(EspeakParameter.range, range);
    return this.glue.synthesize(text, SYNTHESIS_FLAGS);
  }

  /**
   * Phonemes of every clause of plain `text` (no SSML, no `[[phoneme]]` input) for the loaded voice: clauses joined
   * by ` | `, phonemes within a word by `_`. Synthesizes no audio.
   */
  textToPhonemes(text: string, ipa: boolean): string {
    return this.glue.textToPhonemes(text, phonemeMode(ipa));
  }

  /**
   * IPA trace of a synthesis of plain `text` (audio discarded): one line per clause, phonemes joined by `_`. Unlike
   * textToPhonemes it runs the intonation pass, so stress promoted there shows.
   */
  synthesisPhonemes(text: string): { readonly code: number; readonly ipa: string } {
    const { status, trace } = this.glue.synthesizePhonemes(text, phonemeMode(true), 0);
    return { code: status, ipa: trace };
  }
}
