// The Flite engine: CMU clustergen voices (.flitevox) spoken by Raaga's own flite build (wasm/, emscripten), in a
// pool of worker threads. Each worker has one flite instance and keeps every voice it loaded (within its voice
// budget, flite-voice-bank.ts), so a clause is one call into the instance. Serves the voice + language pairs whose
// voice checked and loaded in the workers.

import type { LanguageCode } from '../../languages.js';
import type { DeliveredClause } from '../pack-messages.js';
import { PackEngine, type PackEngineSettings } from '../pack-engine.js';
import type { SynthesisJob } from '../tts-engine.js';
import { workerEntry } from '../worker-entry.js';
import { FLITE_BUILD_ID } from './flite-build.js';
import { fliteVoiceKey, type FliteSpokenClause, type FliteJob, type FliteVoiceFile, type FliteWorkerData, type FliteWorkerStats } from './flite-messages.js';

/** One catalog voice + language pair served by a .flitevox. */
export interface FliteRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
  /** The .flitevox, absolute. */
  readonly path: string;
  /** The file's identity for cached audio: sha256 when the manifest recorded one, else size and mtime. */
  readonly voiceIdentity: string;
}

export interface FliteEngineOptions extends PackEngineSettings {
  readonly routes: readonly FliteRoute[];
  /** RAAGA_MODELS_DIR: voice files whose real path lies elsewhere are refused. */
  readonly modelsDir: string;
  /** Heap each worker may give to loaded voices; FLITE_VOICE_BUDGET_BYTES by default. */
  readonly voiceBudgetBytes?: number | undefined;
}

export const FLITE_ENGINE_KIND = 'flite';

const ENTRY = workerEntry('./flite-worker', import.meta.url);
// A worker checks each voice file whole (a 31 MB voice: ~100 ms) and loads it once; generous for slow disks.
const DEFAULT_START_TIMEOUT_MS = 60_000;

export class FliteEngine extends PackEngine<FliteRoute, FliteJob, FliteSpokenClause> {
  readonly name = 'flite-wasm';
  readonly kind = FLITE_ENGINE_KIND;
  protected readonly packNoun = 'Flite voice';
  readonly #stats = new Map<number, FliteWorkerStats>();

  constructor(options: FliteEngineOptions) {
    const voices = new Map<string, FliteVoiceFile>(
      options.routes.map((route) => {
        const key = fliteVoiceKey(route.path, route.language);
        return [key, { key, path: route.path, language: route.language }];
      }),
    );
    const workerData: FliteWorkerData = { files: [...voices.values()], settings: { modelsDir: options.modelsDir, voiceBudgetBytes: options.voiceBudgetBytes } };
    super(options.routes, { entry: ENTRY, workerData, defaultStartTimeoutMs: DEFAULT_START_TIMEOUT_MS }, options);
  }

  protected filesOf(route: FliteRoute): readonly string[] {
    return [fliteVoiceKey(route.path, route.language)];
  }

  protected audioSourceOf(route: FliteRoute): string {
    return `${FLITE_ENGINE_KIND}@${FLITE_BUILD_ID}:${route.path}@${route.voiceIdentity}`;
  }

  protected jobFor(route: FliteRoute, job: SynthesisJob): FliteJob {
    return { voicePath: route.path, language: route.language, text: job.text, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones };
  }

  /** Each worker's voice bank figures after its latest clause (voice loads, evictions, instances, memory), by thread. */
  workerStats(): readonly FliteWorkerStats[] {
    return [...this.#stats.values()];
  }

  /** Makes a worker's flite instance trap for real (the job fails; the worker replaces its instance); for tests. */
  trapInstanceForTest(job: SynthesisJob): Promise<unknown> {
    const route = this.routeFor(job);
    return this.speak(route, { ...this.jobFor(route, { ...job, speed: 1, pitchShiftSemitones: 0 }), trapForTest: true }, job, new AbortController().signal);
  }

  protected override async speak(route: FliteRoute, clause: FliteJob, job: Pick<SynthesisJob, 'deliverAtRateHz' | 'lane'>, signal: AbortSignal): Promise<DeliveredClause<FliteSpokenClause>> {
    const clip = await super.speak(route, clause, job, signal);
    this.#stats.set(clip.stats.threadId, clip.stats);
    return clip;
  }
}
