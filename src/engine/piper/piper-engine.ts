// The Piper engine: Piper/VITS voice packs on onnxruntime-node in a pool of worker threads, every worker holding one
// session per model. Knows which catalog voice + language pairs it serves; the engine registry asks it before eSpeak.
//
// Threads: each worker runs one job at a time with intraOpNumThreads threads, so workers x intraOpNumThreads is what
// the engine can keep busy; the registry's worker budget keeps the sum over every kind at or under the core count
// (oversubscribed ORT pools spin against each other). interOpNumThreads is 1 and execution sequential: a VITS graph is
// one chain of ops.

import type { LanguageCode } from '../../languages.js';
import { PackEngine, type PackEngineSettings } from '../pack-engine.js';
import type { SynthesisJob } from '../tts-engine.js';
import { workerEntry } from '../worker-entry.js';
import type { PiperJob, PiperModelFile, PiperWorkerData } from './piper-messages.js';
import type { PiperSidecar } from './piper-sidecar.js';

/** One catalog voice + language pair served by a model (and a speaker of it). */
export interface PiperRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
  /** The model (the pack's main file), absolute; its sidecar is `<path>.json`. */
  readonly path: string;
  readonly speakerId: number;
  /**
   * The model's identity for cached audio: its sha256 when the manifest recorded one, else size and mtime (set by the
   * module for every installed pack; engines built by hand in tests and benches may leave it out).
   */
  readonly modelIdentity?: string;
}

export interface PiperModel {
  readonly modelPath: string;
  readonly sidecar: PiperSidecar;
}

export interface PiperEngineOptions extends PackEngineSettings {
  readonly models: readonly PiperModel[];
  readonly routes: readonly PiperRoute[];
  /** Threads one inference may use (ONNX_THREADS). */
  readonly threadsPerWorker: number;
}

const ENTRY = workerEntry('./piper-worker', import.meta.url);
// Loading several medium voices per worker takes seconds; the pool's default would be tight on slow disks.
const DEFAULT_START_TIMEOUT_MS = 120_000;

export const PIPER_ENGINE_KIND = 'piper';

export class PiperEngine extends PackEngine<PiperRoute, PiperJob> {
  readonly name = 'piper-onnxruntime-node';
  readonly kind = PIPER_ENGINE_KIND;
  protected readonly packNoun = 'Piper voice pack';

  constructor(options: PiperEngineOptions) {
    const files: PiperModelFile[] = options.models.map((model) => ({ key: model.modelPath, path: model.modelPath, sidecar: model.sidecar }));
    const workerData: PiperWorkerData = { files, settings: { intraOpNumThreads: options.threadsPerWorker } };
    super(options.routes, { entry: ENTRY, workerData, defaultStartTimeoutMs: DEFAULT_START_TIMEOUT_MS }, options);
  }

  protected filesOf(route: PiperRoute): readonly string[] {
    return [route.path];
  }

  protected audioSourceOf(route: PiperRoute): string {
    return `${PIPER_ENGINE_KIND}:${route.path}#${route.speakerId}@${route.modelIdentity ?? 'unversioned'}`;
  }

  protected jobFor(route: PiperRoute, job: SynthesisJob): PiperJob {
    return { modelPath: route.path, text: job.text, speakerId: route.speakerId, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones };
  }
}
