// The worker-thread side of an engine's pool, shared by every engine worker: its data, posting to the pool, and
// answering each job with exactly one result whose samples move to the pool without a copy.

import { parentPort, workerData } from 'node:worker_threads';
import type { JobMessage, WorkerMessage } from './worker-protocol.js';

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface WorkerSide<TData, TResult> {
  readonly data: TData;
  post(message: WorkerMessage<TResult>, transfer?: ArrayBuffer[]): void;
  /**
   * Answers every job with `synthesize` (synchronous or not). A failed job is reported, never fatal, except a trapped
   * WebAssembly instance (`RuntimeError`: abort, out of bounds), which is not safe to reuse: the thread ends after
   * reporting it and the pool starts a fresh one.
   */
  answerJobs<TJob>(synthesize: (job: TJob) => TResult | Promise<TResult>): void;
}

/** `entry` names the worker file in the error thrown when it is not started as a worker thread. */
export function workerSide<TData, TResult extends { readonly samples: Float32Array }>(entry: string): WorkerSide<TData, TResult> {
  const port = parentPort;
  if (port === null) throw new Error(`${entry} must run in a worker thread`);
  const post = (message: WorkerMessage<TResult>, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
  return {
    data: workerData as TData,
    post,
    answerJobs<TJob>(synthesize: (job: TJob) => TResult | Promise<TResult>): void {
      port.on('message', (incoming: JobMessage<TJob>) => {
        if (incoming.type !== 'job') return;
        new Promise<TResult>((resolve) => resolve(synthesize(incoming.payload))).then(
          (value) => post({ type: 'result', id: incoming.id, ok: true, value }, [value.samples.buffer as ArrayBuffer]),
          (error: unknown) => {
            post({ type: 'result', id: incoming.id, ok: false, message: errorMessage(error) });
            if (error instanceof Error && error.name === 'RuntimeError') process.exit(1);
          },
        );
      });
    },
  };
}
