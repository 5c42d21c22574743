// What every pack engine kind shares (Piper, Kokoro, Flite): a pool of workers that loaded the kind's files, and the
// voice + language pairs (routes) those files serve. A kind says only which files a route needs, what identifies a
// route's audio, and how a clause becomes its job; the engine reports a file that failed as the packs (routes) that
// need it, and the phonemes a model could not say. A pair serves only while every file it needs loaded and a worker
// is alive.

import type { LanguageCode } from '../languages.js';
import type { PackEvent } from './engine-module.js';
import type { PackFileFailure, PackWorkerData, PackWorkerFile, PackWorkerReport, SpokenClause, DeliveredClause } from './pack-messages.js';
import type { PairEngine } from './pair-engine.js';
import { PackWorkerPool } from './pack-worker-pool.js';
import { EngineUnavailableError, type PcmClip, type SynthesisJob } from './tts-engine.js';

export interface PackRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
  /** The pack's main file (the manifest's `path`): what a report about the pack names. */
  readonly path: string;
}

/** What an operator tunes for every pack engine kind alike (EngineContext; the kind's own options extend it). */
export interface PackEngineSettings {
  readonly workers: number;
  readonly maxQueue: number;
  /** Bound on a worker's loading and warm-up; each kind has a default sized to its largest files. */
  readonly startTimeoutMs?: number | undefined;
  /** The workers' nice value (TTS_WORKER_NICE); 0 or absent: the process's priority. */
  readonly niceness?: number | undefined;
  /** A worker entry instead of the kind's own (EngineContext.entry: tests' fixture workers). */
  readonly entry?: URL | undefined;
  /** Packs that failed, phonemes a model lacked, and the pool's worker events (naming the kind). */
  readonly onEvent?: ((event: PackEvent) => void) | undefined;
}

/** What the kind itself brings to its pool: its worker entry, what every worker starts with, its start bound. */
export interface PackWorkerSpec {
  readonly entry: URL;
  readonly workerData: PackWorkerData<PackWorkerFile, unknown>;
  readonly defaultStartTimeoutMs: number;
}

const routeKey = (voiceName: string, language: string): string => `${voiceName}\u0000${language}`;

export abstract class PackEngine<TRoute extends PackRoute, TJob, TClip extends SpokenClause = SpokenClause> implements PairEngine {
  abstract readonly name: string;
  abstract readonly kind: string;
  protected readonly workers: PackWorkerPool<TJob, TClip>;
  readonly #routes = new Map<string, TRoute>();
  readonly #onEvent: (event: PackEvent) => void;

  protected constructor(routes: readonly TRoute[], worker: PackWorkerSpec, settings: PackEngineSettings) {
    for (const route of routes) this.#routes.set(routeKey(route.voiceName, route.language), route);
    this.#onEvent = settings.onEvent ?? (() => undefined);
    this.workers = new PackWorkerPool<TJob, TClip>({
      entry: settings.entry ?? worker.entry,
      workerData: worker.workerData,
      workers: settings.workers,
      maxQueue: settings.maxQueue,
      startTimeoutMs: settings.startTimeoutMs ?? worker.defaultStartTimeoutMs,
      niceness: settings.niceness,
      onFailed: (failure) => this.#fileFailed(failure),
      onEvent: (event) => this.#onEvent({ ...event, engine: this.kind }),
    });
  }

  /** The pool keys of the files `route` needs (its model, style, voice file…). */
  protected abstract filesOf(route: TRoute): readonly string[];
  /** What identifies `route`'s audio for the prompt cache: the kind, its files and their identities. */
  protected abstract audioSourceOf(route: TRoute): string;
  /** The kind's job for one clause on `route`. */
  protected abstract jobFor(route: TRoute, job: SynthesisJob): TJob;
  /** How the kind names its packs in "no … serves" errors (`Piper voice pack`, `Flite voice`). */
  protected abstract readonly packNoun: string;

  /** Resolves once every worker has loaded its files (or failed); rejects if no worker started. */
  start(): Promise<void> {
    return this.workers.start();
  }

  isReady(): boolean {
    return this.workers.ready() && [...this.#routes.values()].some((route) => this.#loaded(route));
  }

  /** True when the pair has a pack whose files loaded and a worker can run it now. */
  serves(voiceName: string, language: string): boolean {
    const route = this.#routes.get(routeKey(voiceName, language));
    return route !== undefined && this.filesOf(route).every((key) => this.workers.available(key));
  }

  audioSource(voiceName: string, language: LanguageCode): string {
    const route = this.#routes.get(routeKey(voiceName, language));
    return route ? this.audioSourceOf(route) : this.name;
  }

  kindFor(): string {
    return this.kind;
  }

  /** Speaks one clause on the pair's route, shaped and resampled in the worker when the job gives a rate. */
  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const route = this.routeFor(job);
    const clip = await this.speak(route, this.jobFor(route, job), job, signal);
    return { samples: clip.samples, sampleRateHz: clip.sampleRateHz, shaped: clip.shaped, ...(clip.words === undefined ? {} : { words: clip.words }), engine: this.kind };
  }

  /** Each worker's ready report (RSS, files), for benches. */
  workerReports(): readonly PackWorkerReport[] {
    return this.workers.reports();
  }

  /** Resolves once no clause is queued or running (WorkerPool.idle). */
  idle(): Promise<void> {
    return this.workers.idle();
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    return this.workers.load();
  }

  /** Kills worker `index` as a crash would (the pool replaces it); for failure tests. */
  terminateWorkerForTest(index: number): Promise<void> {
    return this.workers.terminateWorker(index);
  }

  close(): Promise<void> {
    return this.workers.close();
  }

  /** Runs the kind's job for `route` in a worker; the phonemes its model lacked are reported. */
  protected async speak(route: TRoute, clause: TJob, job: Pick<SynthesisJob, 'deliverAtRateHz' | 'lane'>, signal: AbortSignal): Promise<DeliveredClause<TClip>> {
    const clip = await this.workers.run({ clause, deliverAtRateHz: job.deliverAtRateHz }, signal, job.lane);
    const unknown = clip.unknownPhonemes ?? [];
    if (unknown.length > 0) {
      this.#onEvent({ type: 'unknown-phonemes', path: route.path, count: unknown.reduce((sum, [, count]) => sum + count, 0), symbols: unknown.map(([symbol]) => symbol) });
    }
    return clip;
  }

  /** The job's route when every file it needs loaded; EngineUnavailableError otherwise. */
  protected routeFor(job: Pick<SynthesisJob, 'voiceName' | 'language'>): TRoute {
    const route = this.#routes.get(routeKey(job.voiceName, job.language));
    if (route === undefined || !this.#loaded(route)) throw new EngineUnavailableError(`no ${this.packNoun} serves ${job.voiceName} in ${job.language}`);
    return route;
  }

  #loaded(route: TRoute): boolean {
    return this.filesOf(route).every((key) => this.workers.loaded(key));
  }

  /** A file a worker could not load is every pack that needs it failing: their pairs fall back to the embedded engine. */
  #fileFailed(failure: PackFileFailure): void {
    for (const route of this.#routes.values()) {
      if (!this.filesOf(route).includes(failure.key)) continue;
      this.#onEvent({ type: 'pack-failed', voiceName: route.voiceName, language: route.language, path: route.path, reason: failure.error });
    }
  }
}
