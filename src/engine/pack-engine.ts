// What every pack engine kind shares (Piper, Kokoro, Flite): a pool of workers that loaded the kind's files, and the
// voice + language pairs (routes) those files serve. A kind says only which files a route needs, what identifies a
// route's audio, and how a job is made; a pair serves only while every file it needs loaded and a worker is alive.

import type { LanguageCode } from '../languages.js';
import type { PairEngine } from './pair-engine.js';
import { PackWorkerPool, type PackWorkerReport } from './pack-worker-pool.js';
import type { WorkerPoolEvent } from './worker-pool.js';
import { EngineUnavailableError, type PcmClip, type SynthesisJob } from './tts-engine.js';

export interface PackRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
}

/** Phonemes the model has no id for, as a worker counts them: `[symbol, count]`. */
export type UnknownPhonemeCounts = readonly (readonly [string, number])[];

/** What a kind reports when a clause had phonemes its model cannot say (they were skipped). */
export interface UnknownPhonemesEvent {
  readonly type: 'unknown-phonemes';
  readonly modelPath: string;
  readonly count: number;
  readonly symbols: readonly string[];
}

export function unknownPhonemesEvent(modelPath: string, counts: UnknownPhonemeCounts): UnknownPhonemesEvent {
  return {
    type: 'unknown-phonemes',
    modelPath,
    count: counts.reduce((sum, [, count]) => sum + count, 0),
    symbols: counts.map(([symbol]) => symbol),
  };
}

/** What an operator tunes for every pack engine kind alike (the kind's own options extend it). */
export interface PackEngineSettings<TEvent> {
  readonly workers: number;
  readonly maxQueue: number;
  /** Bound on a worker's loading and warm-up; each kind has a default sized to its largest files. */
  readonly startTimeoutMs?: number | undefined;
  /** The workers' nice value (TTS_WORKER_NICE); 0 or absent: the process's priority. */
  readonly niceness?: number | undefined;
  readonly onEvent?: ((event: TEvent | WorkerPoolEvent) => void) | undefined;
  /** A worker entry instead of the kind's own (EngineContext.entry: tests' fixture workers). */
  readonly entry?: URL | undefined;
}

/** A file a worker could not load: its pool key, path and why. */
export type PackFileFailure = PackWorkerReport['failed'][number];

/** What the kind itself brings to its pool: its worker, what every worker starts with, and how a failed file is told. */
export interface PackWorkerSpec {
  readonly entry: URL;
  readonly workerData: object;
  readonly defaultStartTimeoutMs: number;
  readonly onFailed: (failure: PackFileFailure) => void;
}

const routeKey = (voiceName: string, language: string): string => `${voiceName}\u0000${language}`;

export abstract class PackEngine<TRoute extends PackRoute, TJob, TResult> implements PairEngine {
  abstract readonly name: string;
  abstract readonly kind: string;
  protected readonly workers: PackWorkerPool<TJob, TResult>;
  readonly #routes = new Map<string, TRoute>();

  protected constructor(routes: readonly TRoute[], worker: PackWorkerSpec, settings: PackEngineSettings<never>) {
    for (const route of routes) this.#routes.set(routeKey(route.voiceName, route.language), route);
    this.workers = new PackWorkerPool<TJob, TResult>({
      entry: settings.entry ?? worker.entry,
      workerData: worker.workerData,
      workers: settings.workers,
      maxQueue: settings.maxQueue,
      startTimeoutMs: settings.startTimeoutMs ?? worker.defaultStartTimeoutMs,
      niceness: settings.niceness,
      onFailed: worker.onFailed,
      onEvent: settings.onEvent,
    });
  }

  /** The pool keys of the files `route` needs (its model, style, voice file…). */
  protected abstract filesOf(route: TRoute): readonly string[];
  /** What identifies `route`'s audio for the prompt cache: the kind, its files and their identities. */
  protected abstract audioSourceOf(route: TRoute): string;
  /** How the kind names its packs in "no … serves" errors (`neural voice pack`, `Flite voice`). */
  protected abstract readonly packNoun: string;
  /** Speaks one clause on the route `routeFor(job)` finds. */
  abstract synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip>;

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

  /** The job's route when every file it needs loaded; EngineUnavailableError otherwise. */
  protected routeFor(job: SynthesisJob): TRoute {
    const route = this.#routes.get(routeKey(job.voiceName, job.language));
    if (route === undefined || !this.#loaded(route)) throw new EngineUnavailableError(`no ${this.packNoun} serves ${job.voiceName} in ${job.language}`);
    return route;
  }

  #loaded(route: TRoute): boolean {
    return this.filesOf(route).every((key) => this.workers.loaded(key));
  }
}
