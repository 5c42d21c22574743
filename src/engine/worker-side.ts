// The worker-thread side of an engine's pool, shared by every engine worker: its data, posting to the pool, and
// answering each job with exactly one result whose samples move to the pool without a copy. `packWorker` is the whole
// life of a pack kind's worker (files loaded, the ready report, clause delivery): a kind brings only how it opens a
// file and speaks a clause.

import { parentPort, workerData } from 'node:worker_threads';
import { afterTrim, deliverClause } from '../audio/clause-delivery.js';
import type { DeliveredClause, PackFileFailure, PackJob, PackWorkerData, PackWorkerFile, PackWorkerReport, SpokenClause } from './pack-messages.js';
import type { JobMessage, WorkerMessage } from './worker-protocol.js';

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface WorkerSide<TData, TResult, TReport = never> {
  readonly data: TData;
  post(message: WorkerMessage<TResult, TReport>, transfer?: ArrayBuffer[]): void;
  /**
   * Answers every job with `synthesize` (synchronous or not). A failed job is reported, never fatal, except a trapped
   * WebAssembly instance (`RuntimeError`: abort, out of bounds), which is not safe to reuse: the thread ends after
   * reporting it and the pool starts a fresh one.
   */
  answerJobs<TJob>(synthesize: (job: TJob) => TResult | Promise<TResult>): void;
}

/** `entry` names the worker file in the error thrown when it is not started as a worker thread. */
export function workerSide<TData, TResult extends { readonly samples: Float32Array }, TReport = never>(entry: string): WorkerSide<TData, TResult, TReport> {
  const port = parentPort;
  if (port === null) throw new Error(`${entry} must run in a worker thread`);
  const post = (message: WorkerMessage<TResult, TReport>, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
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

/**
 * The clause shaped and resampled to `rateHz` here, off the event loop (clause-delivery.ts), its word times moved by
 * the silence trimmed from its start; as spoken when no rate is asked for.
 */
export function deliverSpokenClause<TClip extends SpokenClause>(clip: TClip, rateHz: number | undefined): DeliveredClause<TClip> {
  if (rateHz === undefined) return { ...clip, shaped: false };
  const delivered = deliverClause(clip.samples, clip.sampleRateHz, rateHz);
  const clipMs = (delivered.samples.length * 1000) / rateHz;
  const words = clip.words === undefined ? undefined : afterTrim(clip.words, delivered.leadTrimmedMs, clipMs);
  return { ...clip, samples: delivered.samples, sampleRateHz: rateHz, shaped: true, ...(words === undefined ? {} : { words }) };
}

/** What a pack kind's worker does; packWorker does the rest. */
export interface PackWorkerKind<TFile extends PackWorkerFile, TSettings, TJob, TClip extends SpokenClause> {
  /** Once per thread, before any file (a phonemizer, say); a throw means the worker cannot serve: it does not start. */
  readonly prepare?: ((settings: TSettings) => void | Promise<void>) | undefined;
  /** Loads one file and speaks once with it, so a caller's first clause pays neither; a throw fails that file alone. */
  readonly open: (file: TFile, settings: TSettings) => void | Promise<void>;
  /** One clause, at the model's own rate. */
  readonly speak: (clause: TJob) => TClip | Promise<TClip>;
}

/**
 * Runs a pack kind's worker thread: `prepare`, then `open` for each file (a file that fails is reported, the others
 * serve), `ready` with the report, then one clause per job, delivered at the job's rate when it asks for one.
 */
export function packWorker<TFile extends PackWorkerFile, TSettings, TJob, TClip extends SpokenClause>(
  entry: string,
  kind: PackWorkerKind<TFile, TSettings, TJob, TClip>,
): void {
  const { data, post, answerJobs } = workerSide<PackWorkerData<TFile, TSettings>, DeliveredClause<TClip>, PackWorkerReport>(entry);
  void (async () => {
    const startedAt = performance.now();
    try {
      await kind.prepare?.(data.settings);
    } catch (error) {
      post({ type: 'init-failed', message: errorMessage(error) });
      process.exit(1);
    }
    const loaded: string[] = [];
    const failed: PackFileFailure[] = [];
    for (const file of data.files) {
      try {
        await kind.open(file, data.settings);
        loaded.push(file.key);
      } catch (error) {
        failed.push({ key: file.key, path: file.path, error: errorMessage(error) });
      }
    }
    post({ type: 'ready', warmUpMs: performance.now() - startedAt, report: { loaded, failed, rssBytes: process.memoryUsage.rss() } });
    answerJobs(async (job: PackJob<TJob>) => deliverSpokenClause(await kind.speak(job.clause), job.deliverAtRateHz));
  })();
}
