// What a pack engine (pack-engine.ts) and its worker threads (pack-worker.ts) exchange, the same for every kind: the
// files a worker loads, the report it is ready with, one clause's job with the rate to deliver it at, and the clause as
// spoken and as delivered. A kind adds its own fields through the type parameters (its file's language, its job, its
// figures); all of it is plain structured-cloneable data.

import type { WordBoundary } from './tts-engine.js';

/** One file a pack worker loads, under the key the engine's routes name it by (usually its path). */
export interface PackWorkerFile {
  readonly key: string;
  readonly path: string;
}

/** What every worker of a pack engine starts with: its files and the kind's own settings. */
export interface PackWorkerData<TFile extends PackWorkerFile, TSettings> {
  readonly files: readonly TFile[];
  readonly settings: TSettings;
}

/** A file a worker could not load: its key, path and why. */
export interface PackFileFailure {
  readonly key: string;
  readonly path: string;
  readonly error: string;
}

/** What a pack worker reports with `ready`: each file by key, loaded or failed. */
export interface PackWorkerReport {
  readonly loaded: readonly string[];
  readonly failed: readonly PackFileFailure[];
  /** Process RSS when the worker became ready (all workers share one process). */
  readonly rssBytes: number;
}

/** One clause as the pool sends it: the kind's job, and the rate to shape and resample it to in the worker. */
export interface PackJob<TJob> {
  readonly clause: TJob;
  readonly deliverAtRateHz?: number | undefined;
}

/** Phonemes a model has no id for, as a worker counts them: `[symbol, count]`. */
export type UnknownPhonemeCounts = readonly (readonly [string, number])[];

/** A clause as a kind speaks it, at its model's own rate. */
export interface SpokenClause {
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
  /** Where each word after the first starts, for a kind that knows (tts-engine.ts PcmClip.words); absent otherwise. */
  readonly words?: readonly WordBoundary[] | undefined;
  /** Phonemes the model could not say (skipped), for a kind with a phonemizer. */
  readonly unknownPhonemes?: UnknownPhonemeCounts | undefined;
}

/** The clause as the worker posts it: shaped and resampled when the job asked for a rate (`shaped`). */
export type DeliveredClause<TClip extends SpokenClause> = TClip & { readonly shaped: boolean };
