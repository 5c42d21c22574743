// The Kokoro engine: Kokoro-82M packs (a shared model plus one style file per voice) on onnxruntime-node in a pool of
// worker threads, each holding every model and style once. Serves the voice + language pairs whose files loaded.

import type { LanguageCode } from '../../languages.js';
import { PackEngine, unknownPhonemesEvent, type PackEngineSettings, type PackFileFailure, type UnknownPhonemesEvent } from '../pack-engine.js';
import type { PcmClip, SynthesisJob } from '../tts-engine.js';
import { workerEntry } from '../worker-entry.js';
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
  | UnknownPhonemesEvent;

export interface KokoroEngineOptions extends PackEngineSettings<KokoroEngineEvent> {
  readonly routes: readonly KokoroRoute[];
  readonly intraOpNumThreads: number;
}

export const KOKORO_ENGINE_KIND = 'kokoro';

const ENTRY = workerEntry('./kokoro-worker', import.meta.url);
// An fp32 Kokoro model is 310 MB: loading and warming it on a slow disk takes longer than the pool's default.
const DEFAULT_START_TIMEOUT_MS = 120_000;

export class KokoroEngine extends PackEngine<KokoroRoute, KokoroJob, KokoroResult> {
  readonly name = 'kokoro-onnxruntime-node';
  readonly kind = KOKORO_ENGINE_KIND;
  protected readonly packNoun = 'Kokoro voice pack';

  constructor(private readonly options: KokoroEngineOptions) {
    const workerData: KokoroWorkerData = {
      models: [...new Set(options.routes.map((route) => route.modelPath))],
      styles: [...new Set(options.routes.map((route) => route.stylePath))],
      languages: [...new Set(options.routes.map((route) => route.kokoroLanguage))],
      intraOpNumThreads: options.intraOpNumThreads,
    };
    const onFailed = (failure: PackFileFailure): void => options.onEvent?.({ type: 'file-failed', path: failure.path, error: failure.error });
    super(options.routes, { entry: ENTRY, workerData, defaultStartTimeoutMs: DEFAULT_START_TIMEOUT_MS, onFailed }, options);
  }

  protected filesOf(route: KokoroRoute): readonly string[] {
    return [route.modelPath, route.stylePath];
  }

  protected audioSourceOf(route: KokoroRoute): string {
    return `${KOKORO_ENGINE_KIND}:${route.modelPath}@${route.modelIdentity}#${route.stylePath}@${route.styleIdentity}`;
  }

  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const route = this.routeFor(job);
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
      job.lane,
    );
    if (result.unknownPhonemes.length > 0) this.options.onEvent?.(unknownPhonemesEvent(route.modelPath, result.unknownPhonemes));
    return { samples: result.samples, sampleRateHz: result.sampleRateHz, shaped: result.shaped, engine: this.kind };
  }
}
