// A .flitevox voice checked before flite reads it, and after: flite prints `Error load voice`, exits 0 and speaks with
// a built-in US voice when it cannot load one (docs/flite-notes.md, pitfall 1). Each file version (path, size, mtime)
// is walked once per thread, and given its own private directory for flite to read it from (flite-sandbox.ts); later
// uses only stat it.

import { lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { LanguageCode } from '../../languages.js';
import { GUEST_VOICE_DIR } from './flite-module.js';
import { removeFliteSandbox, sandboxVoiceFile } from './flite-sandbox.js';
import { FliteVoiceError } from './flite-voice-error.js';
import { FLITE_BUILD_LANGUAGES, readFlitevoxHeader, type FlitevoxHeader } from './flitevox-header.js';

export interface FliteVoiceFile {
  /** Absolute host path (the pack's file). */
  readonly path: string;
  /**
   * The directory to preopen (FliteRunOptions.voiceDir): a private one holding only this file, never the pack's own
   * directory. `guestPath` is what flite's `-voice` gets inside it.
   */
  readonly dir: string;
  readonly guestPath: string;
  readonly header: FlitevoxHeader;
}

// Bounds the headers one thread remembers: a worker serves a handful of installed voices.
const MAX_CACHED = 64;
const checked = new Map<string, FliteVoiceFile>();

/**
 * Refuses a voice whose directory holds a symbolic link (the file itself included), naming the link: a pack directory
 * must hold its files, not point elsewhere (node:wasi follows directory links out of a preopen).
 */
function refuseSymlinks(path: string): void {
  const dir = dirname(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw new FliteVoiceError(path, `is in a directory that cannot be listed: ${(error as Error).message}`);
  }
  for (const name of names.sort()) {
    const entry = join(dir, name);
    if (lstatSync(entry, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new FliteVoiceError(path, `is in a directory holding a symbolic link, ${entry}: Raaga refuses pack directories with symbolic links (put the file or directory itself there, or move the voice to a directory of its own)`);
    }
  }
}

/**
 * The voice at `path`, refused with FliteVoiceError (naming the file) when it is missing, not a readable and complete
 * .flitevox, in a language this flite build lacks, (with `language`) declares another language, or sits in a
 * directory holding a symbolic link.
 */
export function openFliteVoice(path: string, language?: LanguageCode): FliteVoiceFile {
  const absolute = resolve(path);
  let key: string;
  try {
    const stats = statSync(absolute);
    if (!stats.isFile()) throw new FliteVoiceError(absolute, 'is not a regular file');
    key = `${absolute}\0${stats.size}\0${stats.mtimeMs}`;
  } catch (error) {
    if (error instanceof FliteVoiceError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new FliteVoiceError(absolute, code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(error as Error).message}`);
  }
  let voice = checked.get(key);
  if (voice === undefined) {
    refuseSymlinks(absolute);
    const header = readFlitevoxHeader(absolute);
    if (!FLITE_BUILD_LANGUAGES.includes(header.fliteLanguage)) {
      throw new FliteVoiceError(absolute, `declares flite language '${header.fliteLanguage}', which this flite build lacks (it has ${FLITE_BUILD_LANGUAGES.join(', ')})`);
    }
    let dir: string;
    try {
      dir = sandboxVoiceFile(absolute);
    } catch (error) {
      throw new FliteVoiceError(absolute, `cannot be given to flite in a private directory: ${(error as Error).message}`);
    }
    voice = { path: absolute, dir, guestPath: `${GUEST_VOICE_DIR}/${basename(absolute)}`, header };
    checked.set(key, voice);
    if (checked.size > MAX_CACHED) {
      const oldest = checked.keys().next().value as string;
      const evicted = checked.get(oldest);
      checked.delete(oldest);
      if (evicted !== undefined) removeFliteSandbox(evicted.dir);
    }
  }
  if (language !== undefined && voice.header.language !== language) {
    const { fliteLanguage, spokenLanguage } = voice.header;
    throw new FliteVoiceError(
      absolute,
      `speaks ${spokenLanguage ?? 'an unknown language'} (flite language '${fliteLanguage}', variant '${voice.header.features.variant ?? ''}'), not ${language}`,
    );
  }
  return voice;
}

/** Throws FliteVoiceError when flite's stderr says it did not load `voice` (and so spoke with a built-in one). */
export function assertVoiceLoaded(voice: FliteVoiceFile, stderr: string): void {
  const line = stderr.split('\n').find((text) => text.includes('Error load voice'));
  if (line !== undefined) throw new FliteVoiceError(voice.path, `was refused by flite: ${line.trim()}`);
}
