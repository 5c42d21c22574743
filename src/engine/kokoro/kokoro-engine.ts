// The Kokoro engine: Kokoro-82M packs (a shared model plus one style file per voice) on onnxruntime-node in a pool of
// worker threads, each holding every model and style once. Serves the voice + language pairs whose files loaded.

import type { LanguageCode } from '../../languages.js';
import type { PairEngine } from '../pair-engine.js';
import { EngineUnavailableError, type PcmClip, type SynthesisJob } from '../tts-engine.js';
import { workerEntry } from '../worker-entry.js';
import { PackWorkerPool, type PackWorkerReport } from '../pack-worker-pool.js';
import type { WorkerPoolEvent } from '../worker-pool.js';
import type { KokoroJob, KokoroResult, KokoroWorkerData } from './kokoro-messages.js';
import type { KokoroLanguage } from './kokoro-language.js';

/** One catalog voice + language pair: the model, the voice's style file and the phonemizer language it reads. */
export interface KokoroRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
  readonly modelPath: string;
  readonly stylePath: string;
  readonly kokoroLanguage: KokoroLanguage;
  /** The files' identities for cached audio: sha256 when known, else size and mtime. */
  readonly modelIdentity: string;
  readonly styleIdentity: string;
}

export type KokoroEngineEvent =
  | WorkerPoolEvent
  | { readonly type: 'file-failed'; readonly path: string; readonly error: string }
  | { readonly type: 'unknown-phonemes'; readonly modelPath: string; readonly count: number; readonly symbols: readonly string[] };

export interface KokoroEngineOptions {
  readonly routes: readonly KokoroRoute[];
  readonly workers: number;
  readonly intraOpNumThreads: number;
  readonly maxQueue: number;
  readonly startTimeoutMs?: number;
  readonly niceness?: number;
  readonly onEvent?: (event: KokoroEngineEvent) => void;
}

export const KOKORO_ENGINE_KIND = 'kokoro';

const ENTRY = workerEntry('./kokoro-worker', import.meta.url);
// An fp32 Kokoro model is 310 MB: loading and warming it on a slow disk takes longer than the pool's default.
const DEFAULT_START_TIMEOUT_MS = 120_000;

const routeKey = (voiceName: string, language: string): string => `${voiceName}\u0000${language}`;

export class KokoroEngine implements PairEngine {
  readonly name = 'kokoro-onnxruntime-node';
  readonly kind = KOKORO_ENGINE_KIND;
  private readonly workers: PackWorkerPool<KokoroJob, KokoroResult>;
  private readonly routes = new Map<string, KokoroRoute>();

  constructor(private readonly options: KokoroEngineOptions) {
    for (const route of options.routes) this.routes.set(routeKey(route.voiceName, route.language), route);
    const workerData: KokoroWorkerData = {
      models: [...new Set(options.routes.map((route) => route.modelPath))],
      styles: [...new Set(options.routes.map((route) => route.stylePath))],
      languages: [...new Set(options.routes.map((route) => route.kokoroLanguage))],
      intraOpNumThreads: options.intraOpNumThreads,
    };
    this.workers = new PackWorkerPool<KokoroJob, KokoroResult>({
      entry: ENTRY,
      workerData,
      workers: options.workers,
      maxQueue: options.maxQueue,
      startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      niceness: options.niceness,
      onFailed: (failure) => options.onEvent?.({ type: 'file-failed', path: failure.path, error: failure.error }),
      onEvent: options.onEvent,
    });
  }

  /** Resolves once every worker has loaded and warmed its models (or failed); rejects if no worker started. */
  start(): Promise<void> {
    return this.workers.start();
  }

  isReady(): boolean {
    return this.workers.ready() && [...this.routes.values()].some((route) => this.routeLoaded(route));
  }

  serves(voiceName: string, language: string): boolean {
    const route = this.routes.get(routeKey(voiceName, language));
    return route !== undefined && this.workers.available(route.modelPath) && this.workers.available(route.stylePath);
  }

  audioSource(voiceName: string, language: LanguageCode): string {
    const route = this.routes.get(routeKey(voiceName, language));
    return route ? `${KOKORO_ENGINE_KIND}:${route.modelPath}@${route.modelIdentity}#${route.stylePath}@${route.styleIdentity}` : this.name;
  }

  kindFor(): string {
    return this.kind;
  }

  workerReports(): readonly PackWorkerReport[] {
    return this.workers.reports();
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const route = this.routes.get(routeKey(job.voiceName, job.language));
    if (route === undefined || !this.routeLoaded(route)) throw new EngineUnavailableError(`no Kokoro voice pack serves ${job.voiceName} in ${job.language}`);
    const result = await this.workers.run(
      {
        modelPath: route.modelPath,
        stylePath: route.stylePath,
        language: route.kokoroLanguage,
        text: job.text,
        speed: job.speed,
        pitchShiftSemitones: job.pitchShiftSemitones,
        deliverAtRateHz: job.deliverAtRateHz,
      },
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
    return { samples: result.samples, sampleRateHz: result.sampleRateHz, shaped: result.shaped, engine: this.kind };
  }

  /** Resolves once no clause is queued or running (WorkerPool.idle). */
  idle(): Promise<void> {
    return this.workers.idle();
  }

  load(): { readonly queued: number; readonly running: number; readonly workers: number } {
    return this.workers.load();
  }

  close(): Promise<void> {
    return this.workers.close();
  }

  private routeLoaded(route: KokoroRoute): boolean {
    return this.workers.loaded(route.modelPath) && this.workers.loaded(route.stylePath);
  }
}
