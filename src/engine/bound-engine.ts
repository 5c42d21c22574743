// The engines of one utterance: each voice + language pair it speaks is bound to the engine that serves the pair when
// the utterance first asks (at its start, where the prompt cache key takes that engine's audioSource), and every later
// clause of the pair goes to that engine. A pack that stops serving mid-utterance (no worker alive) fails the clause
// with EngineUnavailableError rather than handing it to another engine: the caller hears one voice or the spec's
// error, never a mix, and no mixed recording is cached under the pack's key.

import type { LanguageCode } from '../languages.js';
import type { PairEngine } from './pair-engine.js';
import { EngineUnavailableError, type PcmClip, type SynthesisJob, type TtsEngine } from './tts-engine.js';

const pairKey = (voiceName: string, language: string): string => `${voiceName}\u0000${language}`;

export class BoundEngine implements TtsEngine {
  readonly #pairs = new Map<string, PairEngine>();

  constructor(
    /** The registry this utterance speaks through: its load, readiness and closing are the registry's. */
    private readonly registry: TtsEngine,
    /** The engine that serves a pair now (the registry's choice), asked once per pair. */
    private readonly choose: (voiceName: string, language: string) => PairEngine,
  ) {}

  get name(): string {
    return this.registry.name;
  }

  /** The engine bound to the pair: the one chosen the first time this utterance asked for it. */
  engineFor(voiceName: string, language: string): PairEngine {
    const key = pairKey(voiceName, language);
    let engine = this.#pairs.get(key);
    if (engine === undefined) {
      engine = this.choose(voiceName, language);
      this.#pairs.set(key, engine);
    }
    return engine;
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const engine = this.engineFor(job.voiceName, job.language);
    if (!engine.serves(job.voiceName, job.language)) {
      throw new EngineUnavailableError(`the ${engine.kind} engine that began this utterance (${job.voiceName} in ${job.language}) has no worker alive`);
    }
    const clip = await engine.synthesize(job, signal);
    return { ...clip, engine: engine.kind };
  }

  audioSource(voiceName: string, language: LanguageCode): string {
    return this.engineFor(voiceName, language).audioSource(voiceName, language);
  }

  kindFor(voiceName: string, language: LanguageCode): string {
    return this.engineFor(voiceName, language).kind;
  }

  /** Already bound: an utterance's background fill (utterance.ts) speaks with the engines the utterance began with. */
  bind(): TtsEngine {
    return this;
  }

  start(): Promise<void> {
    return this.registry.start();
  }

  isReady(): boolean {
    return this.registry.isReady();
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    return this.registry.load();
  }

  /** A view of the registry: its owner closes it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
