// What an engine kind is to the rest of Raaga: its name, the manifest fields of its packs (a zod schema it parses
// itself), how it builds one engine for the packs installed of its kind, and how an installer checks that a pack
// loads and speaks. A kind is written with `definePackEngine`, typed by its own options; engines.ts lists the kinds
// and nothing else names one.

import type { z } from 'zod';
import type { LanguageCode } from '../languages.js';
import type { EngineBuild } from './build-record-check.js';
import type { PackWorkerReport } from './pack-messages.js';
import type { PairEngine } from './pair-engine.js';
import type { WorkerBudget } from './worker-budget.js';
import type { WorkerPoolEvent } from './worker-pool.js';

/** A pack as the manifest records it, its paths absolute, its engine's own fields not yet checked. */
export interface UnparsedPack {
  readonly voiceName: string;
  readonly language: LanguageCode;
  /** The pack's main file (model, .flitevox), absolute. */
  readonly path: string;
  /** The main file's sha256 as recorded at install, when it was. */
  readonly sha256: string | undefined;
  /** The manifest's engine-specific fields (speaker, style file, …), parsed by the kind's `packOptions`. */
  readonly options: Readonly<Record<string, unknown>>;
}

/** One installed pack with its engine's fields parsed by that engine's schema. */
export interface InstalledPack<TOptions> extends Omit<UnparsedPack, 'options'> {
  readonly options: TOptions;
}

export type PackEvent =
  | { readonly type: 'pack-failed'; readonly voiceName: string; readonly language: LanguageCode; readonly path: string; readonly reason: string }
  /**
   * Once at start for a kind whose build from source does not match its BUILD.json (build-record-check.ts): every
   * pack of the kind is refused by this one event, and their pairs stay with the embedded engine.
   */
  | {
      readonly type: 'build-mismatch';
      readonly engine: string;
      /** The first file of the build that differs or is missing. */
      readonly file: string;
      readonly reason: string;
      readonly packs: readonly Pick<UnparsedPack, 'voiceName' | 'language' | 'path'>[];
    }
  | { readonly type: 'unknown-phonemes'; readonly path: string; readonly count: number; readonly symbols: readonly string[] }
  /** Once at start, when any pack is installed: how the workers were shared among the kinds (worker-budget.ts). */
  | ({ readonly type: 'worker-budget' } & WorkerBudget)
  | ({ readonly engine: string } & WorkerPoolEvent<PackWorkerReport>);

/** What every engine's worker pool is built with (ONNX_WORKERS, ONNX_THREADS, TTS_QUEUE_SIZE, TTS_WORKER_NICE). */
export interface EngineContext {
  /**
   * Worker threads: to buildEngineRegistry, the process's budget for every pack kind together (ONNX_WORKERS), which it
   * splits among the kinds with packs; to a module's `create`, that kind's share.
   */
  readonly workers: number;
  /** Threads one inference may use inside a worker (onnxruntime's intra-op threads). */
  readonly threadsPerWorker: number;
  /** The cores the budget is judged against; os.availableParallelism() unless a test says otherwise. */
  readonly cores?: number | undefined;
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

/**
 * One file of a pack as an installer finds it among the files it is given (`raaga voices add <file|dir|url>`, a catalog
 * entry's files): by how its name ends. An installer that finds exactly one file for each of a kind's patterns (and
 * their companions) has a pack of that kind.
 */
export interface PackFilePattern {
  /** The manifest field that names it: `path` (the pack's main file) or one of `packFileOptions` (Kokoro's `style`). */
  readonly field: string;
  /** How its name ends: `.flitevox`, `.onnx`, `.bin`. */
  readonly suffix: string;
  /** What it is, in messages: `Flite voice (.flitevox)`. */
  readonly label: string;
  /** The largest such file accepted: a bigger one is refused before it is copied or downloaded whole. */
  readonly maxBytes: number;
  /** Endings of the files that go beside it under its name (Piper's sidecar, `<model>.onnx` + `.json`), fetched first. */
  readonly companions?: readonly string[];
  /** The name it is installed under (Piper's `model.onnx`, so model and sidecar always pair up); default its own. */
  readonly installAs?: string;
}

/** What a kind makes of an installer's flags, given the pack's small files. */
export interface PackInstallFields {
  /** The pack's own fields besides its files (Piper's speaker id), as the manifest records them. */
  readonly options: Readonly<Record<string, unknown>>;
  /** What the installer says of the pack: `22050 Hz, eSpeak 'hi' phonemes, 4 speakers`. */
  readonly summary?: string;
  /** The same as data, for `--json`. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** An installer's flags a kind may read (`--speaker`). */
export interface PackInstallFlags {
  readonly speaker?: string | undefined;
}

/** One sentence spoken by a pack at install time: the installer's proof that it loads and speaks. */
export interface PackTrial {
  readonly sampleRateHz: number;
  readonly durationMs: number;
}

/** An engine kind as the registry, the manifest and the installers use it: its packs arrive unparsed. */
export interface EngineModule {
  /** The pack's `engine` in the manifest and the usage ledger's engine: `piper`, `flite`, `kokoro`. */
  readonly kind: string;
  /** The engine's own fields of a manifest pack; unknown fields are refused. */
  readonly packOptions: z.ZodType;
  /**
   * Which of those fields name a file (Kokoro's `style`), relative to RAAGA_MODELS_DIR like the pack's `path`: the
   * manifest is refused when one points outside that directory.
   */
  readonly packFileOptions: readonly string[];
  /**
   * The kinds of voice catalog entry (cli/voice-install/) that install packs of this kind: the kind itself, or the
   * parts a pack is made of when they are entries of their own (Kokoro: a voice, and the model it needs).
   */
  readonly catalogKinds: readonly string[];
  /** True when each worker runs `threadsPerWorker` inference threads (onnxruntime); false: one thread per worker. */
  readonly threadedWorkers: boolean;
  /** The files a pack of this kind is made of, for the installers (one of them is `path`). */
  readonly packFiles: readonly PackFilePattern[];
  /**
   * The build from source its engine runs (Flite's wasm/), when it has one: held to its BUILD.json before any pack of
   * the kind is used at start or installed; a mismatch refuses them all, naming the file.
   */
  readonly build: EngineBuild | undefined;
  /**
   * The pack's own fields from the installer's flags, read off its companions (staged before its large files: a bad
   * sidecar is refused before the model is fetched); `files` maps each pattern's field to where its file will be
   * staged. Throws a message naming the file and the problem.
   */
  installFields(files: Readonly<Record<string, string>>, flags: PackInstallFlags): PackInstallFields;
  /**
   * The engine for every installed pack of this kind. Packs that cannot be used (their fields invalid, their files
   * unusable) are reported (`pack-failed`) and left out; undefined when none is left. Never throws for a bad pack: its
   * pairs fall back to the embedded engine.
   */
  create(packs: readonly UnparsedPack[], context: EngineContext): PairEngine | undefined;
  /**
   * Loads the pack in this process and speaks one sentence in its language (`raaga voices install`/`add`); throws a
   * message naming the file and the problem when it cannot.
   */
  trial(pack: UnparsedPack, context: Pick<EngineContext, 'modelsDir'>): Promise<PackTrial>;
}

/** A kind as its folder writes it: typed by its own pack options, which `definePackEngine` parses for it. */
export interface PackEngineDefinition<TOptions> {
  readonly kind: string;
  readonly packOptions: z.ZodType<TOptions>;
  readonly packFileOptions?: readonly string[];
  readonly catalogKinds?: readonly string[];
  readonly threadedWorkers?: boolean;
  readonly packFiles: readonly PackFilePattern[];
  readonly build?: EngineBuild;
  /** Default: no fields of its own beyond its files, nothing to say. */
  installFields?(files: Readonly<Record<string, string>>, flags: PackInstallFlags): PackInstallFields;
  create(packs: readonly InstalledPack<TOptions>[], context: EngineContext): PairEngine | undefined;
  trial(pack: InstalledPack<TOptions>, context: Pick<EngineContext, 'modelsDir'>): Promise<PackTrial>;
}

/** The kind's schema errors as one line: `field message; field message`. */
function optionProblems(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(pack)'} ${issue.message}`).join('; ');
}

/** An engine kind whose packs are parsed by its own schema before its `create` and `trial` see them. */
export function definePackEngine<TOptions>(definition: PackEngineDefinition<TOptions>): EngineModule {
  const parse = (pack: UnparsedPack): { readonly pack: InstalledPack<TOptions> } | { readonly problem: string } => {
    const options = definition.packOptions.safeParse(pack.options);
    if (!options.success) return { problem: `its ${definition.kind} fields are invalid: ${optionProblems(options.error)}` };
    return { pack: { voiceName: pack.voiceName, language: pack.language, path: pack.path, sha256: pack.sha256, options: options.data } };
  };
  return {
    kind: definition.kind,
    packOptions: definition.packOptions,
    packFileOptions: definition.packFileOptions ?? [],
    catalogKinds: definition.catalogKinds ?? [definition.kind],
    threadedWorkers: definition.threadedWorkers ?? false,
    packFiles: definition.packFiles,
    build: definition.build,
    installFields: (files, flags) => definition.installFields?.(files, flags) ?? { options: {} },
    create(packs, context) {
      const parsed: InstalledPack<TOptions>[] = [];
      for (const pack of packs) {
        const result = parse(pack);
        if ('pack' in result) parsed.push(result.pack);
        else context.onEvent({ type: 'pack-failed', voiceName: pack.voiceName, language: pack.language, path: pack.path, reason: result.problem });
      }
      return parsed.length === 0 ? undefined : definition.create(parsed, context);
    },
    async trial(pack, context) {
      const result = parse(pack);
      if (!('pack' in result)) throw new Error(`the ${definition.kind} pack ${pack.path}: ${result.problem}`);
      return definition.trial(result.pack, context);
    },
  };
}
