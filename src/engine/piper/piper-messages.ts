// What the Piper engine and its worker threads exchange beyond what every pack kind does (pack-messages.ts): each model
// with its sidecar (read once by the module), and one job. Plain structured-cloneable data.

import type { PackWorkerData, PackWorkerFile } from '../pack-messages.js';
import type { PiperSidecar } from './piper-sidecar.js';

/** One model file, keyed by its absolute path (jobs name it by that), with its sidecar. */
export interface PiperModelFile extends PackWorkerFile {
  readonly sidecar: PiperSidecar;
}

export interface PiperWorkerSettings {
  readonly intraOpNumThreads: number;
}

export type PiperWorkerData = PackWorkerData<PiperModelFile, PiperWorkerSettings>;

export interface PiperJob {
  readonly modelPath: string;
  readonly text: string;
  readonly speakerId: number;
  /** Tempo 0.5..2: length_scale = sidecar length_scale / speed. */
  readonly speed: number;
  readonly pitchShiftSemitones: number;
}
