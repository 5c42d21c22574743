// The engines that speak, in the order they are asked: each engine kind's installed packs first, the embedded
// engine last (it speaks every pair). A pack engine that cannot start is reported and dropped, never stopping the
// server: its pairs fall back to the embedded engine. Every clip says which kind spoke it. An utterance speaks through
// `bind`: the engine of each of its pairs is chosen once, at its start (bound-engine.ts).

import type { LanguageCode } from '../languages.js';
import { BoundEngine } from './bound-engine.js';
import type { PairEngine } from './pair-engine.js';
import type { PcmClip, SynthesisJob, TtsEngine } from './tts-engine.js';

export class EngineRegistry implements TtsEngine {
  readonly name: string;
  #packs: readonly PairEngine[];
  #started = false;

  constructor(
    packs: readonly PairEngine[],
    private readonly embedded: PairEngine,
    private readonly onStartFailed: (engine: PairEngine, error: unknown) => void = () => undefined,
  ) {
    this.#packs = packs;
    this.name = [...packs, embedded].map((engine) => engine.kind).join('+');
  }

  /** Every engine warmed; a pack engine that fails is reported, closed and left out (the embedded one must start). */
  async start(): Promise<void> {
    const failed = new Set<PairEngine>();
    const packs = this.#packs.map((engine) =>
      engine.start().catch(async (error: unknown) => {
        failed.add(engine);
        this.onStartFailed(engine, error);
        await engine.close(); // stop its pool retrying workers that cannot start
      }),
    );
    await Promise.all([this.embedded.start(), ...packs]);
    this.#packs = this.#packs.filter((engine) => !failed.has(engine));
    this.#started = true;
  }

  isReady(): boolean {
    return this.#started && this.embedded.isReady();
  }

  /** The engine that speaks this pair now: the first pack engine that serves it, else the embedded one. */
  engineFor(voiceName: string, language: string): PairEngine {
    return this.#packs.find((engine) => engine.serves(voiceName, language)) ?? this.embedded;
  }

  /**
   * The engines of one utterance, the pair (voice, language) bound now: its clauses all go to the engine that serves it
   * at this moment, or fail if that engine stops serving; other pairs (a `<lang>` span) bind when first asked.
   */
  bind(voiceName: string, language: LanguageCode): BoundEngine {
    const bound = new BoundEngine(this, (voice, lang) => this.engineFor(voice, lang));
    bound.engineFor(voiceName, language);
    return bound;
  }

  kindFor(voiceName: string, language: LanguageCode): string {
    return this.engineFor(voiceName, language).kind;
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const engine = this.engineFor(job.voiceName, job.language);
    const clip = await engine.synthesize(job, signal);
    return { ...clip, engine: engine.kind };
  }

  audioSource(voiceName: string, language: LanguageCode): string {
    return this.engineFor(voiceName, language).audioSource(voiceName, language);
  }

  /** Every engine, packs first (for benches and tests that inspect one). */
  engines(): readonly PairEngine[] {
    return [...this.#packs, this.embedded];
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    let queued = 0;
    let running = 0;
    let workers = 0;
    for (const engine of this.engines()) {
      const load = engine.load();
      queued += load.queued;
      running += load.running;
      workers += load.workers;
    }
    return { queued, running, workers };
  }

  async close(): Promise<void> {
    await Promise.all(this.engines().map((engine) => engine.close()));
  }
}
