// What an engine kind is to the rest of Raaga: its name, the manifest fields of its packs (a zod schema), how it
// builds one engine for the packs installed of its kind, and how an installer checks that a pack loads and speaks.
// engines.ts lists the kinds; nothing else names one.

import type { z } from 'zod';
import type { LanguageCode } from '../languages.js';
import type { PairEngine } from './pair-engine.js';
import type { WorkerPoolEvent } from './worker-pool.js';

/** One installed pack as the manifest records it, with its paths made absolute. */
export interface InstalledPack<TOptions> {
  readonly voiceName: string;
  readonly language: LanguageCode;
  /** The pack's main file (model, .flitevox), absolute. */
  readonly path: string;
  /** The main file's sha256 as recorded at install, when it was. */
  readonly sha256: string | undefined;
  /** The engine's own fields of the pack (speaker, style file, …), parsed by its `packOptions` schema. */
  readonly options: TOptions;
}

export type PackEvent =
  | { readonly type: 'pack-failed'; readonly voiceName: string; readonly language: LanguageCode; readonly path: string; readonly reason: string }
  | { readonly type: 'unknown-phonemes'; readonly path: string; readonly count: number; readonly symbols: readonly string[] }
  | ({ readonly type: WorkerPoolEvent['type']; readonly engine: string } & WorkerPoolEvent);

/** What every engine's worker pool is built with (TTS_WORKERS, ONNX_THREADS, TTS_QUEUE_SIZE, TTS_WORKER_NICE). */
export interface EngineContext {
  /** Worker threads for this engine. */
  readonly workers: number;
  /** Threads one inference may use inside a worker (onnxruntime's intra-op threads). */
  readonly threadsPerWorker: number;
  readonly maxQueue: number;
  readonly niceness?: number | undefined;
  readonly startTimeoutMs?: number | undefined;
  /** RAAGA_MODELS_DIR: pack options naming more files (a Kokoro style file) are relative to it. */
  readonly modelsDir: string;
  readonly onEvent: (event: PackEvent) => void;
  /**
   * A worker entry every pack engine runs instead of its kind's own: a test's fixture worker speaking the kind's
   * messages (one that dies on cue, say), so failure tests need no hooks in the engines.
   */
  readonly entry?: URL | undefined;
}

/** One sentence spoken by a pack at install time: the installer's proof that it loads and speaks. */
export interface PackTrial {
  readonly sampleRateHz: number;
  readonly durationMs: number;
}

export interface EngineModule<TOptions = unknown> {
  /** The pack's `engine` in the manifest and the usage ledger's engine: `piper`, `flite`, `kokoro`. */
  readonly kind: string;
  /** The engine's own fields of a manifest pack; unknown fields are refused. */
  readonly packOptions: z.ZodType<TOptions>;
  /**
   * Which of those fields name a file (Kokoro's `style`), relative to RAAGA_MODELS_DIR like the pack's `path`: the
   * manifest is refused when one points outside that directory.
   */
  readonly packFileOptions?: readonly string[];
  /**
   * The engine for every installed pack of this kind. Packs that cannot be used are reported (`pack-failed`) and left
   * out; undefined when none is left. Never throws for a bad pack: its pairs fall back to the embedded engine.
   */
  create(packs: readonly InstalledPack<TOptions>[], context: EngineContext): PairEngine | undefined;
  /**
   * Loads the pack in this process and speaks one sentence in its language (`raaga voices install`/`add`); throws a
   * message naming the file and the problem when it cannot.
   */
  trial(pack: InstalledPack<TOptions>, context: Pick<EngineContext, 'modelsDir'>): Promise<PackTrial>;
}
