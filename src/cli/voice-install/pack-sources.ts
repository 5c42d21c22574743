// Where the files of a pack come from for `raaga voices add <file|dir|url>...`: local files, the files of a directory,
// http(s) URLs. Nothing is followed: a symbolic link given as a file, or found in a directory (a pack directory with
// links out of it), is refused naming it, because the server must read only what was installed under
// RAAGA_MODELS_DIR. Each file is then copied or downloaded (download.ts) into the staging directory while hashed.

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createProgress, type ProgressSink } from '../progress.js';
import { download, NotFoundError } from './download.js';

/** One file an operator pointed at, by its name. */
export interface SourceFile {
  readonly name: string;
  /** An absolute local path, or an http(s) URL. */
  readonly from: string;
  readonly remote: boolean;
}

/** Licences and model cards go with a pack when its source has them. */
export const LICENCE_FILE = /^(MODEL_CARD|LICEN[CS]E|COPYING|README)(\.[a-z]+)?$/i;

export interface GatheredSources {
  readonly files: readonly SourceFile[];
  /** A directory's name when one directory was given (its files are often called `model.onnx`). */
  readonly directoryName: string | undefined;
  /** How the refusals name what was given. */
  readonly label: string;
}

async function notALink(path: string, where: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isSymbolicLink()) return;
  const target = await readlink(path).catch(() => '?');
  throw new Error(`${path} is a symbolic link (to ${target})${where}: a pack's files are copied into RAAGA_MODELS_DIR, never read through a link; give the file itself`);
}

/** The files behind each source: a URL as it is, a file, or a directory's regular files (no link among them). */
export async function gatherSources(sources: readonly string[]): Promise<GatheredSources> {
  const files: SourceFile[] = [];
  let directoryName: string | undefined;
  for (const source of sources) {
    if (/^https?:\/\//i.test(source)) {
      const url = new URL(source);
      const name = url.pathname.endsWith('/') ? '' : decodeURIComponent(url.pathname.split('/').pop() ?? '');
      if (name === '') throw new Error(`${source} names no file: give the URL of the pack's file (a .flitevox, a .onnx)`);
      files.push({ name, from: url.href, remote: true });
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) throw new Error(`only http(s) URLs, files and directories are supported, not ${source}`);
    const path = resolve(source);
    await notALink(path, '');
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined) throw new Error(`${source} does not exist (give a pack's file, its directory or an http(s) URL)`);
    if (info.isFile()) {
      files.push({ name: basename(path), from: path, remote: false });
    } else if (info.isDirectory()) {
      directoryName = basename(path);
      for (const name of (await readdir(path)).sort()) {
        const inner = join(path, name);
        await notALink(inner, ` in the pack directory ${path}`);
        if ((await lstat(inner)).isFile()) files.push({ name, from: inner, remote: false });
      }
    } else {
      throw new Error(`${source} is not a file or a directory`);
    }
  }
  return { files, directoryName: sources.length === 1 ? directoryName : undefined, label: sources.join(' ') };
}

/** A remote file's companion: its URL with `suffix` after the path (Piper's `<model>.onnx.json`), query kept. */
export function companionUrl(of: SourceFile, suffix: string): string {
  const url = new URL(of.from);
  url.pathname = `${url.pathname}${suffix}`;
  return url.href;
}

/** The URL of the file named `name` in a remote file's directory (a MODEL_CARD next to the model). */
export function besideUrl(of: SourceFile, name: string): string {
  return new URL(encodeURIComponent(name), of.from).href;
}

export interface FetchedFile {
  readonly path: string;
  readonly sha256: string;
  readonly sizeBytes: number;
}

export interface FetchOptions {
  /** Refuse a file larger than this. */
  readonly maxBytes: number;
  /** The sha256 the file must have (the pack's main file, with --sha256). */
  readonly sha256?: string | undefined;
  /** Plain http is accepted for this file: the pack's checksum was given. */
  readonly plainHttpAllowed?: boolean;
  /** A file that may be missing at its source (a model card): undefined instead of an error. */
  readonly optional?: boolean;
  readonly progress?: ProgressSink | undefined;
  /** The file's name in progress lines (its installed name). */
  readonly label: string;
}

/**
 * Copies or downloads one file to `destination`, hashing it on the way. Returns undefined for an optional file the
 * source does not have (HTTP 404, no such file); a link, a file too large or a checksum mismatch throws.
 */
export async function fetchSourceFile(file: SourceFile, destination: string, options: FetchOptions): Promise<FetchedFile | undefined> {
  if (file.remote) {
    try {
      const checksum = options.sha256 === undefined ? undefined : { algorithm: 'sha256' as const, hex: options.sha256 };
      const got = await download(file.from, destination, { maxBytes: options.maxBytes, checksum, plainHttpAllowed: options.plainHttpAllowed === true, progress: options.progress, label: `downloading ${options.label}` });
      return { path: destination, ...got };
    } catch (error) {
      if (error instanceof NotFoundError && options.optional === true) return undefined;
      throw error;
    }
  }
  await notALink(file.from, '');
  const info = await lstat(file.from).catch(() => undefined);
  if (info === undefined && options.optional === true) return undefined;
  if (!info?.isFile()) throw new Error(`${file.from} is not a file`);
  if (info.size > options.maxBytes) throw new Error(`${file.from} is ${info.size} bytes, more than the ${options.maxBytes} allowed for this file`);
  const hash = createHash('sha256');
  const progress = options.progress === undefined ? undefined : createProgress(options.progress, `copying ${options.label}`, info.size);
  let sizeBytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      progress?.advance(chunk.length);
      callback(null, chunk);
    },
  });
  await pipeline(createReadStream(file.from), tap, createWriteStream(destination));
  progress?.done();
  const sha256 = hash.digest('hex');
  if (options.sha256 !== undefined && options.sha256 !== sha256) throw new Error(`sha256 mismatch for ${file.from}: expected ${options.sha256}, got ${sha256}; nothing was installed`);
  return { path: destination, sha256, sizeBytes };
}

/** SHA-256 of a file already on disk (an installed pack being reused). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
