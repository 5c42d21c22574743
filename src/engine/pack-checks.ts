// The checks every engine kind's module does the same way while it builds its engine: a pack's file must exist and
// really lie inside RAAGA_MODELS_DIR (a manifest path outside it, or a symbolic link leading out, is refused), its
// identity for cached audio comes from the recorded sha256 (else size and mtime), and a pack that cannot be used is
// reported once with the reason.

import { realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { EngineContext, InstalledPack } from './engine-module.js';

const inside = (root: string, path: string): boolean => {
  const rest = relative(root, path);
  return rest !== '' && rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
};

/**
 * Why `path` is not a pack file Raaga may read: outside `modelsDir` as written (absolute elsewhere, `../` leading out),
 * missing or not a file, or outside it for real (a symbolic link leading out); undefined when it is one.
 */
export function packFileProblem(path: string, modelsDir: string | undefined): string | undefined {
  const outside = (root: string): string => `outside RAAGA_MODELS_DIR (${root}): a pack's files live under it`;
  if (modelsDir !== undefined && !inside(resolve(modelsDir), resolve(path))) return `is ${outside(resolve(modelsDir))}`;
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) return 'does not exist';
  if (modelsDir === undefined) return undefined;
  let root: string;
  let real: string;
  try {
    root = realpathSync(modelsDir);
    real = realpathSync(path);
  } catch (error) {
    return `cannot be resolved: ${(error as Error).message}`;
  }
  return inside(root, real) ? undefined : `is a symbolic link to ${real}, which is ${outside(root)}`;
}

/**
 * The file's stats; throws `<what> <path> does not exist` when it is not a regular file, and `… is outside
 * RAAGA_MODELS_DIR` when `modelsDir` is given and its real path lies elsewhere.
 */
export function requirePackFile(path: string, what: string, modelsDir?: string): Stats {
  const problem = packFileProblem(path, modelsDir);
  if (problem !== undefined) throw new Error(`${what} ${path} ${problem}`);
  return statSync(path);
}

/** What identifies a pack's main file for cached audio: its recorded sha256, else its size and mtime. */
export function packFileIdentity(pack: Pick<InstalledPack<unknown>, 'sha256'>, stat: Stats): string {
  return pack.sha256 !== undefined ? `sha256:${pack.sha256}` : `size:${stat.size},mtime:${Math.round(stat.mtimeMs)}`;
}

/** The pack is left out: its pairs fall back to the embedded engine, and the log says why. */
export function reportPackFailed(context: Pick<EngineContext, 'onEvent'>, pack: Pick<InstalledPack<unknown>, 'voiceName' | 'language' | 'path'>, reason: string): void {
  context.onEvent({ type: 'pack-failed', voiceName: pack.voiceName, language: pack.language, path: pack.path, reason });
}

/** The reason an error gives, as a pack failure reports it. */
export function failureReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
