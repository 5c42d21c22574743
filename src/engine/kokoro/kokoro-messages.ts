// What the Kokoro engine and its worker threads exchange: the worker's start data (models and style files, each
// loaded once), one job, its result, and the load report a worker attaches to its `ready` message.

import type { KokoroLanguage } from './kokoro-language.js';

export interface KokoroWorkerData {
  /** Absolute model paths; several packs share one, so each is one session per worker. */
  readonly models: readonly string[];
  /** Absolute style file paths, each read once per worker. */
  readonly styles: readonly string[];
  /** The phonemizer languages the routes use, each warmed once at start. */
  readonly languages: readonly KokoroLanguage[];
  readonly intraOpNumThreads: number;
}

export interface KokoroJob {
  readonly modelPath: string;
  readonly stylePath: string;
  readonly language: KokoroLanguage;
  readonly text: string;
  /** Kokoro's own speed input (0.5..2). */
  readonly speed: number;
  readonly pitchShiftSemitones: number;
  /** When set, the clause is shaped and resampled to this rate in the worker (clause-delivery.ts). */
  readonly deliverAtRateHz?: number | undefined;
}

export interface KokoroResult {
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
  readonly shaped: boolean;
  /** Phoneme symbols the vocabulary lacks, with counts (dropped from the ids). */
  readonly unknownPhonemes: ReadonlyArray<readonly [string, number]>;
}
