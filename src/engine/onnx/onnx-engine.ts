// The Piper engine: Piper/VITS voice packs on onnxruntime-node in a pool of worker threads, every worker holding one
// session per model. Knows which catalog voice + language pairs it serves; the engine registry asks it before eSpeak.
//
// Threads: each worker runs one job at a time with intraOpNumThreads threads, so workers x intraOpNumThreads is what
// the engine can keep busy; the composition root keeps it at or under the core count (oversubscribed ORT pools spin
// against each other). interOpNumThreads is 1 and execution sequential: a VITS graph is one chain of ops.

import type { LanguageCode } from '../../languages.js';
import { PackEngine, unknownPhonemesEvent, type PackEngineSettings, type PackFileFailure, type UnknownPhonemesEvent } from '../pack-engine.js';
import type { PcmClip, SynthesisJob } from '../tts-engine.js';
import type { WorkerPoolEvent } from '../worker-pool.js';
import type { OnnxJob, OnnxResult, OnnxVoiceSpec, OnnxWorkerData } from './onnx-messages.js';
import type { PiperSidecar } from './piper-sidecar.js';
import { workerEntry } from '../worker-entry.js';

/** One catalog voice + language pair served by a model (and a speaker of it). */
export interface OnnxRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
  readonly modelPath: string;
  readonly speakerId: number;
  /**
   * The model's identity for cached audio: its sha256 when the manifest recorded one, else size and mtime (set by
   * voice-packs.ts for every installed pack; engines built by hand in tests and benches may leave it out).
   */
  readonly modelIdentity?: string;
}

export interface OnnxModel {
  readonly modelPath: string;
  readonly sidecar: PiperSidecar;
}

export type OnnxEngineEvent =
  | WorkerPoolEvent
  | { readonly type: 'voice-failed'; readonly modelPath: string; readonly error: string }
  | UnknownPhonemesEvent;

export interface OnnxEngineOptions extends PackEngineSettings<OnnxEngineEvent> {
  readonly models: readonly OnnxModel[];
  readonly routes: readonly OnnxRoute[];
  readonly intraOpNumThreads: number;
}

const ENTRY = workerEntry('./onnx-worker', import.meta.url);
// Loading several medium voices per worker takes seconds; the pool's default would be tight on slow disks.
const DEFAULT_START_TIMEOUT_MS = 120_000;

export const PIPER_ENGINE_KIND = 'piper';

export class OnnxEngine extends PackEngine<OnnxRoute, OnnxJob, OnnxResult> {
  readonly name = 'onnxruntime-node';
  readonly kind = PIPER_ENGINE_KIND;
  protected readonly packNoun = 'neural voice pack';

  constructor(private readonly options: OnnxEngineOptions) {
    const voices: OnnxVoiceSpec[] = options.models.map((model) => ({ key: model.modelPath, modelPath: model.modelPath, sidecar: model.sidecar }));
    const workerData: OnnxWorkerData = { voices, intraOpNumThreads: options.intraOpNumThreads };
    const onFailed = (failure: PackFileFailure): void => options.onEvent?.({ type: 'voice-failed', modelPath: failure.path, error: failure.error });
    super(options.routes, { entry: ENTRY, workerData, defaultStartTimeoutMs: DEFAULT_START_TIMEOUT_MS, onFailed }, options);
  }

  protected filesOf(route: OnnxRoute): readonly string[] {
    return [route.modelPath];
  }

  protected audioSourceOf(route: OnnxRoute): string {
    return `${PIPER_ENGINE_KIND}:${route.modelPath}#${route.speakerId}@${route.modelIdentity ?? 'unversioned'}`;
  }

  /** Models that loaded in the workers, for benches. */
  loadedModels(): readonly string[] {
    return [...new Set(this.options.models.map((model) => model.modelPath))].filter((path) => this.workers.loaded(path));
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const route = this.routeFor(job);
    const result = await this.workers.run(
      { voiceKey: route.modelPath, text: job.text, speakerId: route.speakerId, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones },
      signal,
      job.lane,
    );
    if (result.unknownPhonemes.length > 0) this.options.onEvent?.(unknownPhonemesEvent(route.modelPath, result.unknownPhonemes));
    return { samples: result.samples, sampleRateHz: result.sampleRateHz, engine: this.kind };
  }
}
