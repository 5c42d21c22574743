// The worker pool every pack engine kind runs on (Piper, Kokoro, Flite): workers load the kind's files at start and
// report what loaded; a file that fails in one worker is trusted in none (its pairs go to the embedded engine), and a
// pool with nothing loaded closes itself. The engines keep only their routes and how a job is made.

import type { JobLane } from './job-queue.js';
import type { DeliveredClause, PackFileFailure, PackJob, PackWorkerReport, SpokenClause } from './pack-messages.js';
import { WorkerPool, type WorkerPoolEvent } from './worker-pool.js';

export interface PackWorkerPoolOptions {
  /** The kind's worker entry (workerEntry(...)) and what every worker is started with (PackWorkerData). */
  readonly entry: URL;
  readonly workerData: object;
  readonly workers: number;
  readonly maxQueue: number;
  readonly startTimeoutMs: number;
  readonly niceness?: number | undefined;
  /** A file failed to load in a worker (once per key). */
  readonly onFailed: (failure: PackFileFailure) => void;
  readonly onEvent?: ((event: WorkerPoolEvent<PackWorkerReport>) => void) | undefined;
}

export class PackWorkerPool<TJob, TClip extends SpokenClause> {
  readonly #pool: WorkerPool<PackJob<TJob>, DeliveredClause<TClip>, PackWorkerReport>;
  readonly #loaded = new Set<string>();
  readonly #failed = new Set<string>();
  readonly #reports: PackWorkerReport[] = [];
  #starting: Promise<void> | undefined;
  #started = false;

  constructor(private readonly options: PackWorkerPoolOptions) {
    this.#pool = new WorkerPool<PackJob<TJob>, DeliveredClause<TClip>, PackWorkerReport>({
      entry: options.entry,
      workerData: options.workerData,
      size: options.workers,
      maxQueue: options.maxQueue,
      startTimeoutMs: options.startTimeoutMs,
      ...(options.niceness === undefined ? {} : { niceness: options.niceness }),
      onEvent: (event) => this.#onPoolEvent(event),
    });
  }

  /** Resolves once every worker has loaded its files (or failed); rejects if no worker started. */
  start(): Promise<void> {
    this.#starting ??= this.#pool.start().then(async () => {
      this.#started = true;
      if (this.#loaded.size === 0) await this.#pool.close(); // nothing to serve: give the threads and memory back
    });
    return this.#starting;
  }

  /** True once started, with at least one file loaded and a live worker. */
  ready(): boolean {
    return this.#started && this.#loaded.size > 0 && this.#pool.hasLiveWorker();
  }

  /** The file loaded in the workers (and none refused it). */
  loaded(key: string): boolean {
    return this.#loaded.has(key);
  }

  /** The file can be used now: loaded, and a worker is alive to run it. */
  available(key: string): boolean {
    return this.#started && this.#loaded.has(key) && this.#pool.hasLiveWorker();
  }

  run(job: PackJob<TJob>, signal: AbortSignal, lane?: JobLane): Promise<DeliveredClause<TClip>> {
    return this.#pool.run(job, signal, lane);
  }

  /** Each worker's ready report (RSS, files), for benches. */
  reports(): readonly PackWorkerReport[] {
    return this.#reports;
  }

  /** Resolves once no job is queued or running (WorkerPool.idle). */
  idle(): Promise<void> {
    return this.#pool.idle();
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    return this.#pool.load();
  }

  /** Kills worker `index` as a crash would (the pool replaces it); for failure tests. */
  terminateWorker(index: number): Promise<void> {
    return this.#pool.terminateWorker(index);
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  #onPoolEvent(event: WorkerPoolEvent<PackWorkerReport>): void {
    if (event.type === 'worker-ready' && event.report !== undefined) {
      const { report } = event;
      this.#reports.push(report);
      for (const failure of report.failed) {
        if (!this.#failed.has(failure.key)) {
          this.#failed.add(failure.key);
          this.options.onFailed(failure);
        }
        this.#loaded.delete(failure.key);
      }
      for (const key of report.loaded) if (!this.#failed.has(key)) this.#loaded.add(key);
    }
    this.options.onEvent?.(event);
  }
}
