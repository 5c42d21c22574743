// A .flitevox voice file read and checked before flite gets it: it must be a regular file whose real path lies inside
// RAAGA_MODELS_DIR (a symbolic link leading out, to /etc/passwd or another tree, is refused), small enough for one
// worker's voice budget, a complete .flitevox (the whole file is walked: flite would speak silence, trap, or spend
// minutes allocating on a truncated one), in a language this build has and, when asked, in the pack's language. The
// bytes read here are the bytes flite loads (flite-voice-bank.ts copies them into the instance's MEMFS), so no later
// change of the file can slip past the check. Every refusal is a FliteVoiceError naming the file.

import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { LanguageCode } from '../../languages.js';
import { FliteVoiceError } from './flite-voice-error.js';
import { FLITE_BUILD_LANGUAGES, parseFlitevoxHeader, type FlitevoxHeader } from './flitevox-header.js';

const MiB = 2 ** 20;
/** A loaded voice takes about this much of an instance's heap per byte of its file (slt: 1.21, slt x12: 1.2). */
export const VOICE_HEAP_PER_FILE_BYTE = 1.25;

export interface FliteVoiceFile {
  /** Absolute path as the pack names it. */
  readonly path: string;
  /** Which file version this is (device, inode, size, mtime): a loaded voice is reused while its file's stays. */
  readonly identity: string;
  readonly header: FlitevoxHeader;
  /** The checked file's bytes, for flite to load once. */
  readonly bytes: Uint8Array;
}

export interface FliteVoiceLimits {
  /** The pack files' root: a voice's real path must be inside it. */
  readonly modelsDir: string;
  /** One worker's voice budget (flite-voice-bank.ts): a file that would take more when loaded is refused. */
  readonly budgetBytes: number;
}

/** The heap a voice of `sizeBytes` is expected to take once loaded, before it is (then it is measured). */
export function expectedVoiceHeapBytes(sizeBytes: number): number {
  return Math.ceil(sizeBytes * VOICE_HEAP_PER_FILE_BYTE);
}

function identityOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

function unreadable(path: string, error: unknown): FliteVoiceError {
  const code = (error as NodeJS.ErrnoException).code;
  return new FliteVoiceError(path, code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(error as Error).message}`);
}

/** The current identity of the file at `path` (following links), to tell whether a loaded voice is still its file. */
export function fliteVoiceIdentity(path: string): string {
  try {
    return identityOf(statSync(resolve(path)));
  } catch (error) {
    throw unreadable(resolve(path), error);
  }
}

/** `realPath` when it lies inside the models directory; FliteVoiceError naming `path` otherwise. */
function insideModels(path: string, realPath: string, modelsDir: string): void {
  let root: string;
  try {
    root = realpathSync(modelsDir);
  } catch (error) {
    throw new FliteVoiceError(path, `cannot be checked: RAAGA_MODELS_DIR ${modelsDir} cannot be resolved (${(error as Error).message})`);
  }
  const inside = relative(root, realPath);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    const how = realPath === path ? 'is' : `is a symbolic link to ${realPath}, which is`;
    throw new FliteVoiceError(path, `${how} outside RAAGA_MODELS_DIR (${root}): Raaga reads voice files only from there`);
  }
}

function readAll(fd: number, size: number, path: string): Uint8Array {
  const bytes = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const read = readSync(fd, bytes, at, size - at, at);
    if (read === 0) throw new FliteVoiceError(path, `changed while it was read: it ended after ${at} of ${size} bytes`);
    at += read;
  }
  return bytes;
}

/**
 * Reads and checks the voice at `path` (see the file comment); with `language`, it must speak that language.
 * Throws FliteVoiceError naming the file.
 */
export function readFliteVoice(path: string, language: LanguageCode | undefined, limits: FliteVoiceLimits): FliteVoiceFile {
  const absolute = resolve(path);
  let realPath: string;
  try {
    realPath = realpathSync(absolute);
  } catch (error) {
    throw unreadable(absolute, error);
  }
  insideModels(absolute, realPath, limits.modelsDir);
  let fd: number;
  try {
    // O_NOFOLLOW: the resolved file itself, not a link put in its place since.
    fd = openSync(realPath, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    throw unreadable(absolute, error);
  }
  let bytes: Uint8Array;
  let stats: Stats;
  try {
    stats = fstatSync(fd);
    if (!stats.isFile()) throw new FliteVoiceError(absolute, 'is not a regular file');
    // The directories above may have been swapped for links between resolving and opening: ask what was opened.
    const opened = openedPath(fd);
    if (opened !== undefined && opened !== realPath) insideModels(absolute, opened, limits.modelsDir);
    const expected = expectedVoiceHeapBytes(stats.size);
    if (expected > limits.budgetBytes) {
      throw new FliteVoiceError(
        absolute,
        `is ${(stats.size / MiB).toFixed(1)} MiB: loaded it would take about ${(expected / MiB).toFixed(0)} MiB, more than one worker's Flite voice budget of ${(limits.budgetBytes / MiB).toFixed(0)} MiB`,
      );
    }
    bytes = readAll(fd, stats.size, absolute);
  } finally {
    closeSync(fd);
  }
  const header = parseFlitevoxHeader(bytes, absolute);
  if (!FLITE_BUILD_LANGUAGES.includes(header.fliteLanguage)) {
    throw new FliteVoiceError(absolute, `declares flite language '${header.fliteLanguage}', which this flite build lacks (it has ${FLITE_BUILD_LANGUAGES.join(', ')})`);
  }
  if (language !== undefined) assertSpeaks(absolute, header, language);
  return { path: absolute, identity: identityOf(stats), header, bytes };
}

/** Throws FliteVoiceError unless the voice serves `language`. */
export function assertSpeaks(path: string, header: FlitevoxHeader, language: LanguageCode): void {
  if (header.language === language) return;
  const { fliteLanguage, spokenLanguage } = header;
  throw new FliteVoiceError(path, `speaks ${spokenLanguage ?? 'an unknown language'} (flite language '${fliteLanguage}', variant '${header.features.variant ?? ''}'), not ${language}`);
}

// Linux names an open file's path in /proc; elsewhere the realpath check before opening stands alone.
function openedPath(fd: number): string | undefined {
  try {
    return realpathSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}
