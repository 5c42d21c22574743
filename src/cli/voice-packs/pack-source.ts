// Where a voice pack comes from for `raaga voices add`: a local directory or an HTTP(S) URL. Finds the Piper
// files (`*.onnx`, `*.onnx.json`, an optional MODEL_CARD/licence) and copies or downloads each while hashing it.

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Transform, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createProgress, type ProgressSink } from '../progress.js';

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
// A download that delivers nothing for this long is abandoned.
const IDLE_TIMEOUT_MS = 60_000;

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

/**
 * Copies or downloads one file to `destination`, hashing it on the way. Returns undefined for an optional file
 * the source does not have (HTTP 404, missing file); anything else failing throws.
 */
export async function fetchPackFile(
  source: PackSource,
  file: PackFile,
  destination: string,
  progressSink: ProgressSink | undefined,
): Promise<FetchedFile | undefined> {
  const hash = createHash('sha256');
  let body: Readable;
  let totalBytes: number | undefined;
  const idle = new AbortController();
  if (source.kind === 'url') {
    const response = await fetch(file.from, { redirect: 'follow', signal: idle.signal });
    if (!response.ok && file.optional) return undefined;
    if (!response.ok || response.body === null) throw new Error(`GET ${file.from} answered ${response.status} ${response.statusText}`);
    const length = Number(response.headers.get('content-length'));
    // fetch decompresses a gzip body, so its content-length would not match the bytes received.
    const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
    totalBytes = Number.isFinite(length) && length > 0 && !encoded ? length : undefined;
    body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  } else {
    const info = await stat(file.from).catch(() => undefined);
    if (info === undefined && file.optional) return undefined;
    if (!info?.isFile()) throw new Error(`${file.from} is not a file`);
    totalBytes = info.size;
    body = createReadStream(file.from);
  }
  const progress = progressSink === undefined ? undefined : createProgress(progressSink, `${source.kind === 'url' ? 'downloading' : 'copying'} ${file.to}`, totalBytes);
  let sizeBytes = 0;
  let timer = setTimeout(() => idle.abort(new Error(`no data from ${file.from} for ${IDLE_TIMEOUT_MS / 1000} s`)), IDLE_TIMEOUT_MS);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(new Error(`no data from ${file.from} for ${IDLE_TIMEOUT_MS / 1000} s`)), IDLE_TIMEOUT_MS);
      hash.update(chunk);
      sizeBytes += chunk.length;
      progress?.advance(chunk.length);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(body, tap, createWriteStream(destination));
  } finally {
    clearTimeout(timer);
  }
  progress?.done();
  if (totalBytes !== undefined && sizeBytes !== totalBytes) throw new Error(`${file.from}: got ${sizeBytes} bytes, expected ${totalBytes}`);
  return { path: destination, sha256: hash.digest('hex'), sizeBytes };
}

/** SHA-256 of a file already on disk (an installed pack being reused). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
