// The Flite engine: CMU clustergen voices (.flitevox) spoken by Raaga's own flite build (wasm/, emscripten), in a
// pool of worker threads. Each worker has one flite instance and keeps every voice it loaded (within its voice
// budget, flite-voice-bank.ts), so a clause is one call into the instance. Serves the voice + language pairs whose
// voice checked and loaded in the workers.

import type { LanguageCode } from '../../languages.js';
import { PackEngine, type PackEngineSettings, type PackFileFailure } from '../pack-engine.js';
import type { PcmClip, SynthesisJob } from '../tts-engine.js';
import { workerEntry } from '../worker-entry.js';
import type { WorkerPoolEvent } from '../worker-pool.js';
import { FLITE_BUILD_ID } from './flite-build.js';
import { fliteVoiceKey, type FliteJob, type FliteResult, type FliteWorkerData, type FliteWorkerStats } from './flite-messages.js';

/** One catalog voice + language pair served by a .flitevox. */
export interface FliteRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
  readonly voicePath: string;
  /** The file's identity for cached audio: sha256 when the manifest recorded one, else size and mtime. */
  readonly voiceIdentity: string;
}

export type FliteEngineEvent = WorkerPoolEvent | { readonly type: 'voice-failed'; readonly path: string; readonly language: string; readonly error: string };

export interface FliteEngineOptions extends PackEngineSettings<FliteEngineEvent> {
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

export class FliteEngine extends PackEngine<FliteRoute, FliteJob, FliteResult> {
  readonly name = 'flite-wasm';
  readonly kind = FLITE_ENGINE_KIND;
  protected readonly packNoun = 'Flite voice';
  readonly #stats = new Map<number, FliteWorkerStats>();

  constructor(options: FliteEngineOptions) {
    const voices = new Map(options.routes.map((route) => [fliteVoiceKey(route.voicePath, route.language), { path: route.voicePath, language: route.language }]));
    const workerData: FliteWorkerData = { voices: [...voices.values()], modelsDir: options.modelsDir, voiceBudgetBytes: options.voiceBudgetBytes };
    const onFailed = (failure: PackFileFailure): void => {
      const language = options.routes.find((route) => fliteVoiceKey(route.voicePath, route.language) === failure.key)?.language ?? '';
      options.onEvent?.({ type: 'voice-failed', path: failure.path, language, error: failure.error });
    };
    super(options.routes, { entry: ENTRY, workerData, defaultStartTimeoutMs: DEFAULT_START_TIMEOUT_MS, onFailed }, options);
  }

  protected filesOf(route: FliteRoute): readonly string[] {
    return [fliteVoiceKey(route.voicePath, route.language)];
  }

  protected audioSourceOf(route: FliteRoute): string {
    return `${FLITE_ENGINE_KIND}@${FLITE_BUILD_ID}:${route.voicePath}@${route.voiceIdentity}`;
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const route = this.routeFor(job);
    const result = await this.#run(
      { voicePath: route.voicePath, language: route.language, text: job.text, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones, deliverAtRateHz: job.deliverAtRateHz },
      signal,
      job,
    );
    return { samples: result.samples, sampleRateHz: result.sampleRateHz, shaped: result.shaped, words: result.words, engine: this.kind };
  }

  /** Each worker's voice bank figures after its latest clause (voice loads, evictions, instances, memory), by thread. */
  workerStats(): readonly FliteWorkerStats[] {
    return [...this.#stats.values()];
  }

  /** Makes a worker's flite instance trap for real (the job fails; the worker replaces its instance); for tests. */
  trapInstanceForTest(job: SynthesisJob): Promise<unknown> {
    const route = this.routeFor(job);
    return this.#run({ voicePath: route.voicePath, language: route.language, text: job.text, speed: 1, pitchShiftSemitones: 0, trapForTest: true }, new AbortController().signal, job);
  }

  async #run(payload: FliteJob, signal: AbortSignal, job: SynthesisJob): Promise<FliteResult> {
    const result = await this.workers.run(payload, signal, job.lane);
    this.#stats.set(result.stats.threadId, result.stats);
    return result;
  }
}
