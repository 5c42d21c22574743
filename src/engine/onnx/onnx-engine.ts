// The Piper engine: Piper/VITS voice packs on onnxruntime-node in a pool of worker threads, every worker holding one
// session per model. Knows which catalog voice + language pairs it serves; the engine registry asks it before eSpeak.
//
// Threads: each worker runs one job at a time with intraOpNumThreads threads, so workers x intraOpNumThreads is what
// the engine can keep busy; the composition root keeps it at or under the core count (oversubscribed ORT pools spin
// against each other). interOpNumThreads is 1 and execution sequential: a VITS graph is one chain of ops.

import type { LanguageCode } from '../../languages.js';
import type { PairEngine } from '../pair-engine.js';
import { EngineUnavailableError, type PcmClip, type SynthesisJob } from '../tts-engine.js';
import { WorkerPool, type WorkerPoolEvent } from '../worker-pool.js';
import type { OnnxJob, OnnxResult, OnnxVoiceSpec, OnnxWorkerData, OnnxWorkerReport } from './onnx-messages.js';
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
  | { readonly type: 'unknown-phonemes'; readonly modelPath: string; readonly count: number; readonly symbols: readonly string[] };

export interface OnnxEngineOptions {
  readonly models: readonly OnnxModel[];
  readonly routes: readonly OnnxRoute[];
  readonly workers: number;
  readonly intraOpNumThreads: number;
  readonly maxQueue: number;
  readonly startTimeoutMs?: number;
  /** The workers' nice value (TTS_WORKER_NICE); 0 or absent: the process's priority. */
  readonly niceness?: number;
  readonly onEvent?: (event: OnnxEngineEvent) => void;
}

const ENTRY = workerEntry('./onnx-worker', import.meta.url);
// Loading several medium voices per worker takes seconds; the pool's default would be tight on slow disks.
const DEFAULT_START_TIMEOUT_MS = 120_000;

const routeKey = (voiceName: string, language: string): string => `${voiceName}\u0000${language}`;

export const PIPER_ENGINE_KIND = 'piper';

export class OnnxEngine implements PairEngine {
  readonly name = 'onnxruntime-node';
  readonly kind = PIPER_ENGINE_KIND;
  private readonly pool: WorkerPool<OnnxJob, OnnxResult>;
  private readonly routes = new Map<string, OnnxRoute>();
  private readonly loaded = new Set<string>();
  private readonly failed = new Set<string>();
  private readonly reports: OnnxWorkerReport[] = [];
  private starting: Promise<void> | undefined;
  private started = false;

  constructor(private readonly options: OnnxEngineOptions) {
    for (const route of options.routes) this.routes.set(routeKey(route.voiceName, route.language), route);
    const voices: OnnxVoiceSpec[] = options.models.map((model) => ({ key: model.modelPath, modelPath: model.modelPath, sidecar: model.sidecar }));
    const workerData: OnnxWorkerData = { voices, intraOpNumThreads: options.intraOpNumThreads };
    this.pool = new WorkerPool<OnnxJob, OnnxResult>({
      entry: ENTRY,
      workerData,
      size: options.workers,
      maxQueue: options.maxQueue,
      startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      ...(options.niceness === undefined ? {} : { niceness: options.niceness }),
      onEvent: (event) => this.onPoolEvent(event),
    });
  }

  /** Resolves once every worker has created and warmed its sessions (or failed); rejects if no worker started. */
  start(): Promise<void> {
    this.starting ??= this.pool.start().then(async () => {
      this.started = true;
      if (this.loaded.size === 0) await this.pool.close(); // nothing to serve: give the threads and memory back
    });
    return this.starting;
  }

  isReady(): boolean {
    return this.started && this.loaded.size > 0 && this.pool.hasLiveWorker();
  }

  /** True when the pair has a pack whose model loaded and a worker can run it now. */
  audioSource(voiceName: string, language: LanguageCode): string {
    const route = this.routes.get(routeKey(voiceName, language));
    return route ? `${PIPER_ENGINE_KIND}:${route.modelPath}#${route.speakerId}@${route.modelIdentity ?? 'unversioned'}` : this.name;
  }

  kindFor(): string {
    return this.kind;
  }

  serves(voiceName: string, language: string): boolean {
    const route = this.routes.get(routeKey(voiceName, language));
    return route !== undefined && this.started && this.loaded.has(route.modelPath) && this.pool.hasLiveWorker();
  }

  /** Models that loaded in the workers, and each worker's report (RSS at ready) for benches. */
  loadedModels(): readonly string[] {
    return [...this.loaded];
  }

  workerReports(): readonly OnnxWorkerReport[] {
    return this.reports;
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const route = this.routes.get(routeKey(job.voiceName, job.language));
    if (route === undefined || !this.loaded.has(route.modelPath)) {
      throw new EngineUnavailableError(`no neural voice pack serves ${job.voiceName} in ${job.language}`);
    }
    const result = await this.pool.run(
      { voiceKey: route.modelPath, text: job.text, speakerId: route.speakerId, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones },
      signal,
    );
    if (result.unknownPhonemes.length > 0) {
      this.options.onEvent?.({
        type: 'unknown-phonemes',
        modelPath: route.modelPath,
        count: result.unknownPhonemes.reduce((sum, [, count]) => sum + count, 0),
        symbols: result.unknownPhonemes.map(([symbol]) => symbol),
      });
    }
    return { samples: result.samples, sampleRateHz: result.sampleRateHz, engine: this.kind };
  }

  /** Resolves once no clause is queued or running (WorkerPool.idle). */
  idle(): Promise<void> {
    return this.pool.idle();
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    return this.pool.load();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private onPoolEvent(event: WorkerPoolEvent): void {
    if (event.type === 'worker-ready' && event.detail !== undefined) {
      const report = event.detail as OnnxWorkerReport;
      this.reports.push(report);
      for (const failure of report.failed) {
        // A model that fails in one worker is not trusted in any: its pairs go to the embedded engine.
        if (!this.failed.has(failure.key)) {
          this.failed.add(failure.key);
          this.options.onEvent?.({ type: 'voice-failed', modelPath: failure.modelPath, error: failure.error });
        }
        this.loaded.delete(failure.key);
      }
      for (const key of report.loaded) if (!this.failed.has(key)) this.loaded.add(key);
    }
    this.options.onEvent?.(event);
  }
}
