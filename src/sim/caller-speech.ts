// The stand-in caller: speech made by the embedded engine (eSpeak NG) as 8 kHz mu-law, for `raaga call-sim
// --caller-say` and for tests that need a real voice talking over the bot. Runs its own one-worker engine.

import { loadVoiceCatalog, type VoiceCatalog } from '../core/voice-catalog.js';
import { EspeakEngine } from '../engine/espeak-engine.js';
import type { LanguageCode } from '../languages.js';
import { samplesToMulaw } from './caller-audio.js';

export interface CallerSpeechRequest {
  readonly text: string;
  readonly language: LanguageCode;
  /** Catalog voice; defaults to the first voice of the catalog. */
  readonly voice?: string;
  readonly speed?: number;
}

export class CallerVoice {
  private constructor(
    private readonly engine: EspeakEngine,
    private readonly catalog: VoiceCatalog,
  ) {}

  /** Starts a one-worker engine with the catalog at `manifestPath` (models/raaga-v1/manifest.json). */
  static async start(manifestPath: string): Promise<CallerVoice> {
    const catalog = loadVoiceCatalog(manifestPath);
    const engine = new EspeakEngine({ workers: 1, maxQueue: 16, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
    await engine.start();
    return new CallerVoice(engine, catalog);
  }

  /** The text spoken as 8 kHz mu-law. */
  async say(request: CallerSpeechRequest): Promise<Uint8Array> {
    return samplesToMulaw(...(await this.sayFloat(request)));
  }

  /** The text spoken as float samples at the engine's rate. */
  async sayFloat(request: CallerSpeechRequest): Promise<[Float32Array, number]> {
    const voiceName = request.voice ?? this.catalog.voices()[0]?.name;
    if (voiceName === undefined || !this.catalog.voices().some((voice) => voice.name === voiceName)) throw new Error(`unknown caller voice '${request.voice ?? ''}'`);
    const clip = await this.engine.synthesize(
      { text: request.text, language: request.language, voiceName, speed: request.speed ?? 1, pitchShiftSemitones: 0 },
      new AbortController().signal,
    );
    return [clip.samples, clip.sampleRateHz];
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}
