// The Kokoro engine: Kokoro-82M packs (a shared model plus one style file per voice) on onnxruntime-node in a pool of
// worker threads, each holding every model and style once. Serves the voice + language pairs whose files loaded.

import type { LanguageCode } from '../../languages.js';
import { PackEngine, type PackEngineSettings } from '../pack-engine.js';
import type { SynthesisJob } from '../tts-engine.js';
import { workerEntry } from '../worker-entry.js';
import type { KokoroFile, KokoroJob, KokoroWorkerData } from './kokoro-messages.js';
import type { KokoroLanguage } from './kokoro-language.js';

/** One catalog voice + language pair: the model, the voice's style file and the phonemizer language it reads. */
export interface KokoroRoute {
  readonly voiceName: string;
  readonly language: LanguageCode;
  /** The model (the pack's main file), absolute. */
  readonly path: string;
  readonly stylePath: string;
  readonly kokoroLanguage: KokoroLanguage;
  /** The files' identities for cached audio: sha256 when known, else size and mtime. */
  readonly modelIdentity: string;
  readonly styleIdentity: string;
}

export interface KokoroEngineOptions extends PackEngineSettings {
  readonly routes: readonly KokoroRoute[];
  /** Threads one inference may use (ONNX_THREADS). */
  readonly threadsPerWorker: number;
}

export const KOKORO_ENGINE_KIND = 'kokoro';

const ENTRY = workerEntry('./kokoro-worker', import.meta.url);
// An fp32 Kokoro model is 310 MB: loading and warming it on a slow disk takes longer than the pool's default.
const DEFAULT_START_TIMEOUT_MS = 120_000;

export class KokoroEngine extends PackEngine<KokoroRoute, KokoroJob> {
  readonly name = 'kokoro-onnxruntime-node';
  readonly kind = KOKORO_ENGINE_KIND;
  protected readonly packNoun = 'Kokoro voice pack';

  constructor(options: KokoroEngineOptions) {
    const files = new Map<string, KokoroFile>();
    for (const route of options.routes) {
      files.set(route.path, { key: route.path, path: route.path, role: 'model' });
      files.set(route.stylePath, { key: route.stylePath, path: route.stylePath, role: 'style' });
    }
    const workerData: KokoroWorkerData = {
      // Models first: a style file is a table read in a moment, a model is the load worth warming.
      files: [...files.values()].sort((a, b) => (a.role === b.role ? 0 : a.role === 'model' ? -1 : 1)),
      settings: { languages: [...new Set(options.routes.map((route) => route.kokoroLanguage))], intraOpNumThreads: options.threadsPerWorker },
    };
    super(options.routes, { entry: ENTRY, workerData, defaultStartTimeoutMs: DEFAULT_START_TIMEOUT_MS }, options);
  }

  protected filesOf(route: KokoroRoute): readonly string[] {
    return [route.path, route.stylePath];
  }

  protected audioSourceOf(route: KokoroRoute): string {
    return `${KOKORO_ENGINE_KIND}:${route.path}@${route.modelIdentity}#${route.stylePath}@${route.styleIdentity}`;
  }

  protected jobFor(route: KokoroRoute, job: SynthesisJob): KokoroJob {
    return { modelPath: route.path, stylePath: route.stylePath, language: route.kokoroLanguage, text: job.text, speed: job.speed, pitchShiftSemitones: job.pitchShiftSemitones };
  }
}
