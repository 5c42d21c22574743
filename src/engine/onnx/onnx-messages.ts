// What the ONNX engine and its worker threads exchange: the worker's start data, one job, its result, and the
// load report a worker attaches to its `ready` message. Plain structured-cloneable data.

import type { PiperSidecar } from './piper-sidecar.js';

export interface OnnxVoiceSpec {
  /** Stable key of one model file (its absolute path); jobs name the voice by it. */
  readonly key: string;
  readonly modelPath: string;
  readonly sidecar: PiperSidecar;
}

export interface OnnxWorkerData {
  readonly voices: readonly OnnxVoiceSpec[];
  readonly intraOpNumThreads: number;
}

export interface OnnxJob {
  readonly voiceKey: string;
  readonly text: string;
  readonly speakerId: number;
  /** Tempo 0.5..2: length_scale = sidecar length_scale / speed. */
  readonly speed: number;
  readonly pitchShiftSemitones: number;
}

export interface OnnxResult {
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
  /** Phonemes the voice's map lacks, with counts (dropped from the ids). */
  readonly unknownPhonemes: ReadonlyArray<readonly [string, number]>;
}
