// Where a voice pack comes from for `raaga voices add`: a local directory or an HTTP(S) URL. Finds the Piper
// files (`*.onnx`, `*.onnx.json`, an optional MODEL_CARD/licence) and copies or downloads (download.ts) each while
// hashing it.

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createProgress, type ProgressSink } from '../progress.js';
import { download, NotFoundError } from './download.js';

/** One file of the pack: where it comes from and its name inside models/packs/<name>/. */
export interface PackFile {
  readonly from: string;
  readonly to: string;
  /** An optional file (model card, licence) that may be missing at the source. */
  readonly optional: boolean;
}

export interface PackSource {
  readonly kind: 'directory' | 'url';
  /** A default pack name derived from the source (e.g. `hi_IN-example-medium`). */
  readonly suggestedName: string;
  readonly model: PackFile;
  readonly sidecar: PackFile;
  readonly extras: readonly PackFile[];
}

/** Installed names: Piper's convention, so the model and sidecar always pair up. */
export const MODEL_FILE = 'model.onnx';
export const SIDECAR_FILE = 'model.onnx.json';
const LICENCE_FILE = /^(MODEL_CARD|LICEN[CS]E|COPYING|README)(\.[a-z]+)?$/i;

export async function resolvePackSource(source: string): Promise<PackSource> {
  if (/^https?:\/\//i.test(source)) return resolveUrl(new URL(source));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) throw new Error(`only http(s) URLs and local directories are supported, not ${source}`);
  return resolveDirectory(source);
}

async function resolveDirectory(dir: string): Promise<PackSource> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`${dir} is not a directory (give a pack directory or an http(s) URL)`);
  const names = await readdir(dir);
  const models = names.filter((name) => name.endsWith('.onnx'));
  const model = models.includes(MODEL_FILE) ? MODEL_FILE : models.length === 1 ? (models[0] as string) : undefined;
  if (model === undefined) {
    throw new Error(models.length === 0 ? `${dir} holds no .onnx model` : `${dir} holds several models (${models.join(', ')}); keep one per directory`);
  }
  if (!names.includes(`${model}.json`)) throw new Error(`${dir} has ${model} but no sidecar ${model}.json`);
  const stem = model.slice(0, -'.onnx'.length);
  return {
    kind: 'directory',
    suggestedName: stem === 'model' ? basename(dir) : stem,
    model: { from: join(dir, model), to: MODEL_FILE, optional: false },
    sidecar: { from: join(dir, `${model}.json`), to: SIDECAR_FILE, optional: false },
    extras: names.filter((name) => LICENCE_FILE.test(name)).map((name) => ({ from: join(dir, name), to: name, optional: true })),
  };
}

function resolveUrl(url: URL): PackSource {
  let modelUrl: URL;
  if (url.pathname.endsWith('.onnx')) modelUrl = url;
  else if (url.pathname.endsWith('.onnx.json')) modelUrl = new URL(url.href.replace(/\.json(\?.*)?$/, '$1'));
  else modelUrl = new URL(MODEL_FILE, url.href.endsWith('/') ? url : new URL(`${url.href}/`));
  const sidecarUrl = new URL(modelUrl);
  sidecarUrl.pathname = `${modelUrl.pathname}.json`;
  const segments = modelUrl.pathname.split('/').filter((segment) => segment !== '');
  const stem = (segments[segments.length - 1] ?? 'voice').replace(/\.onnx$/, '');
  return {
    kind: 'url',
    suggestedName: stem === 'model' ? (segments[segments.length - 2] ?? 'voice') : stem,
    model: { from: modelUrl.href, to: MODEL_FILE, optional: false },
    sidecar: { from: sidecarUrl.href, to: SIDECAR_FILE, optional: false },
    // Piper's voice repository keeps the model card next to the model.
    extras: [{ from: new URL('MODEL_CARD', modelUrl).href, to: 'MODEL_CARD', optional: true }],
  };
}

export interface FetchedFile {
  readonly path: string;
  readonly sha256: string;
  readonly sizeBytes: number;
}

export interface FetchOptions {
  /** Refuse a file larger than this. */
  readonly maxBytes: number;
  /** The sha256 the file must have (the model, with --sha256). */
  readonly sha256?: string | undefined;
  /** Plain http is accepted for this file: the pack's model checksum was given. */
  readonly plainHttpAllowed?: boolean;
  readonly progress?: ProgressSink | undefined;
}

/**
 * Copies or downloads one file to `destination`, hashing it on the way. Returns undefined for an optional file
 * the source does not have (HTTP 404, missing file); anything else failing throws.
 */
export async function fetchPackFile(source: PackSource, file: PackFile, destination: string, options: FetchOptions): Promise<FetchedFile | undefined> {
  if (source.kind === 'url') {
    try {
      const checksum = options.sha256 === undefined ? undefined : { algorithm: 'sha256' as const, hex: options.sha256 };
      const got = await download(file.from, destination, { maxBytes: options.maxBytes, checksum, plainHttpAllowed: options.plainHttpAllowed === true, progress: options.progress, label: `downloading ${file.to}` });
      return { path: destination, ...got };
    } catch (error) {
      if (error instanceof NotFoundError && file.optional) return undefined;
      throw error;
    }
  }
  const info = await stat(file.from).catch(() => undefined);
  if (info === undefined && file.optional) return undefined;
  if (!info?.isFile()) throw new Error(`${file.from} is not a file`);
  if (info.size > options.maxBytes) throw new Error(`${file.from} is ${info.size} bytes, more than the ${options.maxBytes} allowed for this file`);
  const hash = createHash('sha256');
  const progress = options.progress === undefined ? undefined : createProgress(options.progress, `copying ${file.to}`, info.size);
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
