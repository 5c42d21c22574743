// A fixed set of worker threads, each running one job at a time, fed from one bounded queue (calls first, then
// requests fairly between accounts: job-queue.ts).
// Owns admission (EngineBusyError), cancellation by AbortSignal, and replacing workers that die.

import { Worker } from 'node:worker_threads';
import { FairJobQueue, type JobLane } from './job-queue.js';
import { EngineBusyError, EngineUnavailableError } from './tts-engine.js';
import { SynthesisFailedError } from './synthesis-failed-error.js';
import type { JobMessage, WorkerMessage } from './worker-protocol.js';

export type WorkerPoolEvent<TReport = never> =
  /** `report`: what the worker says it loaded (a pack worker's files), typed by its pool. */
  | { readonly type: 'worker-ready'; readonly slot: number; readonly warmUpMs: number; readonly report?: TReport }
  | { readonly type: 'worker-exit'; readonly slot: number; readonly exitCode: number; readonly error?: string; readonly hadJob: boolean }
  | { readonly type: 'worker-start-failed'; readonly slot: number; readonly error: string; readonly retryInMs: number };

export interface WorkerPoolOptions<TReport = never> {
  /** TypeScript worker entry; loaded through worker-bootstrap.mjs. */
  readonly entry: URL;
  /** Passed to every worker next to `entry`; must be structured-cloneable. */
  readonly workerData: object;
  readonly size: number;
  /** Jobs allowed to wait when every worker is busy; one more is refused with EngineBusyError. */
  readonly maxQueue: number;
  /** A worker that is not ready in this time counts as failed to start. */
  readonly startTimeoutMs?: number;
  readonly onEvent?: (event: WorkerPoolEvent<TReport>) => void;
  /** The workers' nice value (0: as the process); see TTS_WORKER_NICE. */
  readonly niceness?: number;
}

type SlotState = 'starting' | 'idle' | 'busy' | 'down';

interface Job<TPayload, TResult> {
  readonly id: number;
  readonly payload: TPayload;
  readonly signal: AbortSignal;
  readonly resolve: (value: TResult) => void;
  readonly reject: (reason: unknown) => void;
  onAbort: () => void;
  settled: boolean;
}

interface Slot<TPayload, TResult> {
  readonly index: number;
  state: SlotState;
  worker: Worker | undefined;
  job: Job<TPayload, TResult> | undefined;
  /** Consecutive failed starts; drives the restart backoff. */
  startFailures: number;
  restartTimer: NodeJS.Timeout | undefined;
}

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);
const DEFAULT_START_TIMEOUT_MS = 30_000;
const MAX_RESTART_DELAY_MS = 10_000;

export class WorkerPool<TPayload, TResult, TReport = never> {
  private readonly slots: Slot<TPayload, TResult>[];
  private readonly queue = new FairJobQueue<Job<TPayload, TResult>>();
  private nextJobId = 1;
  private closed = false;
  private lastStartError = '';
  /** Resolvers of `idle()`, called once nothing is queued or running. */
  private idleWaiters: (() => void)[] = [];
  /** Resolvers waiting for a slot's first start attempt to settle (used by `start`). */
  private readonly firstStart = new Map<number, () => void>();

  constructor(private readonly options: WorkerPoolOptions<TReport>) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError('worker pool size must be a positive integer');
    if (!Number.isInteger(options.maxQueue) || options.maxQueue < 0) throw new RangeError('maxQueue must be a non-negative integer');
    this.slots = Array.from({ length: options.size }, (_, index) => ({
      index,
      state: 'down' as SlotState,
      worker: undefined,
      job: undefined,
      startFailures: 0,
      restartTimer: undefined,
    }));
  }

  /** Spawns every worker and waits until each is ready or has failed once; rejects only if none is ready. Call once. */
  async start(): Promise<void> {
    if (this.closed) throw new EngineUnavailableError('engine closed');
    if (this.slots.some((slot) => slot.state !== 'down' || slot.restartTimer !== undefined)) {
      throw new Error('worker pool already started');
    }
    await Promise.all(
      this.slots.map(
        (slot) =>
          new Promise<void>((resolve) => {
            this.firstStart.set(slot.index, resolve);
            this.spawn(slot);
          }),
      ),
    );
    if (!this.slots.some((slot) => slot.state === 'idle' || slot.state === 'busy')) {
      throw new EngineUnavailableError(`no synthesis worker could start: ${this.lastStartError}`);
    }
  }

  /** True when at least one worker is loaded. */
  hasLiveWorker(): boolean {
    return this.slots.some((slot) => slot.state === 'idle' || slot.state === 'busy');
  }

  run(payload: TPayload, signal: AbortSignal, lane?: JobLane): Promise<TResult> {
    if (this.closed) return Promise.reject(new EngineUnavailableError('engine closed'));
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.slots.every((slot) => slot.state === 'down')) {
      return Promise.reject(new EngineUnavailableError(`no synthesis worker is running: ${this.lastStartError || 'not started'}`));
    }
    const idle = this.slots.find((slot) => slot.state === 'idle');
    // A call's clause is never refused for requests that fill the queue: calls are bounded (TELEPHONY_MAX_CALLS,
    // one clause ahead each) and a refusal is silence on a live line.
    if (idle === undefined && lane?.kind !== 'call' && this.queue.length >= this.options.maxQueue) {
      return Promise.reject(new EngineBusyError());
    }
    return new Promise<TResult>((resolve, reject) => {
      const job: Job<TPayload, TResult> = {
        id: this.nextJobId++,
        payload,
        signal,
        resolve,
        reject,
        onAbort: () => undefined,
        settled: false,
      };
      job.onAbort = () => {
        this.queue.remove(job);
        // A running job keeps its worker busy until the clause finishes; only the result is dropped.
        this.settle(job, () => reject(signal.reason));
      };
      signal.addEventListener('abort', job.onAbort, { once: true });
      if (idle !== undefined) this.dispatch(idle, job);
      else this.queue.push(job, lane);
    });
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    let running = 0;
    let workers = 0;
    for (const slot of this.slots) {
      if (slot.state === 'busy') running++;
      if (slot.state === 'idle' || slot.state === 'busy') workers++;
    }
    return { queued: this.queue.length, running, workers };
  }

  /** Resolves once no job is queued or running (at once if none is): a clause still running after its caller gave up included. */
  idle(): Promise<void> {
    const { queued, running } = this.load();
    if (queued === 0 && running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Kills one worker as a crash would; for failure tests and operator tooling. */
  async terminateWorker(index: number): Promise<void> {
    await this.slots[index]?.worker?.terminate();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new EngineUnavailableError('engine closed');
    for (const job of this.queue.drain()) this.settle(job, () => job.reject(error));
    const exits: Promise<number>[] = [];
    for (const slot of this.slots) {
      clearTimeout(slot.restartTimer);
      const job = slot.job;
      if (job !== undefined) this.settle(job, () => job.reject(error));
      slot.job = undefined;
      slot.state = 'down';
      if (slot.worker !== undefined) exits.push(slot.worker.terminate());
      slot.worker = undefined;
    }
    for (const resolve of this.firstStart.values()) resolve();
    this.firstStart.clear();
    this.notifyIfIdle();
    await Promise.all(exits);
  }

  private spawn(slot: Slot<TPayload, TResult>): void {
    if (this.closed) return;
    slot.restartTimer = undefined;
    slot.state = 'starting';
    let lastError: string | undefined;
    let worker: Worker;
    try {
      worker = new Worker(BOOTSTRAP, { workerData: { ...this.options.workerData, entry: this.options.entry.href, niceness: this.options.niceness ?? 0 } });
    } catch (error) {
      this.startFailed(slot, error instanceof Error ? error.message : String(error));
      return;
    }
    slot.worker = worker;
    const startTimer = setTimeout(() => {
      lastError = `not ready after ${this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS} ms`;
      void worker.terminate();
    }, this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);

    worker.on('message', (message: WorkerMessage<TResult, TReport>) => {
      if (slot.worker !== worker) return;
      if (message.type === 'ready') {
        clearTimeout(startTimer);
        slot.state = 'idle';
        slot.startFailures = 0;
        this.options.onEvent?.({
          type: 'worker-ready',
          slot: slot.index,
          warmUpMs: message.warmUpMs,
          ...(message.report === undefined ? {} : { report: message.report }),
        });
        this.resolveFirstStart(slot);
        this.pump();
      } else if (message.type === 'init-failed') {
        lastError = message.message;
      } else {
        this.onResult(slot, message);
      }
    });
    worker.on('error', (error) => {
      lastError = error.message;
    });
    worker.on('exit', (exitCode) => {
      clearTimeout(startTimer);
      if (slot.worker !== worker || this.closed) return;
      slot.worker = undefined;
      const wasStarting = slot.state === 'starting';
      const job = slot.job;
      slot.job = undefined;
      slot.state = 'down';
      if (job !== undefined) {
        this.settle(job, () => job.reject(new EngineUnavailableError(`synthesis worker exited (code ${exitCode})`)));
      }
      this.notifyIfIdle();
      if (wasStarting) {
        this.startFailed(slot, lastError ?? `worker exited during start (code ${exitCode})`);
        return;
      }
      this.options.onEvent?.({
        type: 'worker-exit',
        slot: slot.index,
        exitCode,
        hadJob: job !== undefined,
        ...(lastError === undefined ? {} : { error: lastError }),
      });
      // A worker that had been healthy is replaced at once; repeated start failures back off instead.
      this.spawn(slot);
    });
  }

  private startFailed(slot: Slot<TPayload, TResult>, error: string): void {
    slot.state = 'down';
    slot.worker = undefined;
    slot.startFailures++;
    this.lastStartError = error;
    const retryInMs = Math.min(MAX_RESTART_DELAY_MS, 100 * 2 ** (slot.startFailures - 1));
    this.options.onEvent?.({ type: 'worker-start-failed', slot: slot.index, error, retryInMs });
    this.resolveFirstStart(slot);
    if (this.slots.every((s) => s.state === 'down')) {
      // Nobody can serve the queue in the foreseeable future; fail fast rather than let callers hang.
      const unavailable = new EngineUnavailableError(`no synthesis worker could start: ${error}`);
      for (const job of this.queue.drain()) this.settle(job, () => job.reject(unavailable));
    }
    if (!this.closed) {
      slot.restartTimer = setTimeout(() => this.spawn(slot), retryInMs);
      slot.restartTimer.unref();
    }
  }

  private resolveFirstStart(slot: Slot<TPayload, TResult>): void {
    const resolve = this.firstStart.get(slot.index);
    if (resolve === undefined) return;
    this.firstStart.delete(slot.index);
    resolve();
  }

  private dispatch(slot: Slot<TPayload, TResult>, job: Job<TPayload, TResult>): void {
    slot.state = 'busy';
    slot.job = job;
    const message: JobMessage<TPayload> = { type: 'job', id: job.id, payload: job.payload };
    slot.worker?.postMessage(message);
  }

  private onResult(slot: Slot<TPayload, TResult>, message: Extract<WorkerMessage<TResult>, { type: 'result' }>): void {
    const job = slot.job;
    if (job === undefined || job.id !== message.id) return;
    slot.job = undefined;
    slot.state = 'idle';
    if (message.ok) this.settle(job, () => job.resolve(message.value));
    else this.settle(job, () => job.reject(new SynthesisFailedError(message.message)));
    this.pump();
    this.notifyIfIdle();
  }

  private notifyIfIdle(): void {
    const { queued, running } = this.load();
    if (queued > 0 || running > 0 || this.idleWaiters.length === 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.state !== 'idle') continue;
      const job = this.queue.shift();
      if (job === undefined) return;
      this.dispatch(slot, job);
    }
  }

  private settle(job: Job<TPayload, TResult>, action: () => void): void {
    if (job.settled) return;
    job.settled = true;
    job.signal.removeEventListener('abort', job.onAbort);
    action();
  }
}
