// The checks every engine kind's module does the same way while it builds its engine: a pack's file must exist, its
// identity for cached audio comes from the recorded sha256 (else size and mtime), and a pack that cannot be used is
// reported once with the reason.

import { statSync, type Stats } from 'node:fs';
import type { EngineContext, InstalledPack } from './engine-module.js';

/** The file's stats; throws `<what> <path> does not exist` when it is not a regular file. */
export function requirePackFile(path: string, what: string): Stats {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new Error(`${what} ${path} does not exist`);
  return stat;
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
