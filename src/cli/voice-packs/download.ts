// One download of a voice file, for `raaga voices add` and `raaga voices install`: over https (plain http only when
// the expected checksum is known, so a tampered file is caught), redirects followed by hand and never down to plain
// http without a checksum, at most `maxBytes`, resumable from a `.part` file, hashed on the way (sha256 for the
// manifest, and the algorithm the catalog publishes), with a progress bar and an idle timeout.

import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createProgress, type ProgressSink } from '../progress.js';

export const CHECKSUM_ALGORITHMS = ['sha256', 'sha512', 'md5'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

export interface Checksum {
  readonly algorithm: ChecksumAlgorithm;
  /** Lowercase hex. */
  readonly hex: string;
}

export interface DownloadOptions {
  /** A file larger than this (announced or received) is refused. */
  readonly maxBytes: number;
  /** The digest the file must have; without one only https is accepted. */
  readonly checksum?: Checksum | undefined;
  /**
   * Plain http is accepted without this file's own checksum: the caller verifies the download as a whole (a pack's
   * small sidecar next to a model whose checksum was given).
   */
  readonly plainHttpAllowed?: boolean;
  /** Keep what arrived in `<destination>.part` when the download breaks, and continue from it next time. */
  readonly resume?: boolean;
  readonly progress?: ProgressSink | undefined;
  readonly label?: string;
  readonly idleTimeoutMs?: number;
}

export interface Downloaded {
  readonly sizeBytes: number;
  readonly sha256: string;
}

/** The server answered 404 (an optional file it does not have). */
export class NotFoundError extends Error {
  constructor(url: string) {
    super(`GET ${url} answered 404 Not Found`);
    this.name = 'NotFoundError';
  }
}

const MAX_REDIRECTS = 5;
/** Stands for "checked by the caller" in the http rule (plainHttpAllowed). */
const VOUCHED: Checksum = { algorithm: 'sha256', hex: '' };
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const PART_SUFFIX = '.part';

/** Why `url` may not be fetched as given, or undefined. */
export function downloadRefusal(url: string, checksum: Checksum | undefined): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${url} is not a URL`;
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:') return checksum === undefined ? `${url} is plain http: use https, or give the file's expected checksum (--sha256) so a tampered download is caught` : undefined;
  return `${url}: only https (or http with a checksum) is supported`;
}

export async function download(url: string, destination: string, options: DownloadOptions): Promise<Downloaded> {
  const vouched = options.checksum ?? (options.plainHttpAllowed ? VOUCHED : undefined);
  const refusal = downloadRefusal(url, vouched);
  if (refusal !== undefined) throw new Error(refusal);
  const part = `${destination}${PART_SUFFIX}`;
  const already = options.resume ? ((await stat(part).catch(() => undefined))?.size ?? 0) : 0;
  if (!options.resume) await rm(part, { force: true });
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const idle = new AbortController();
  const response = await fetchFollowing(url, vouched, already > 0 ? { range: `bytes=${already}-` } : {}, idle.signal);
  if (response.status === 404) throw new NotFoundError(url);
  if (response.status === 416 && already > 0) {
    // The part is already whole (or longer than the file): start again rather than guess.
    await rm(part, { force: true });
    return download(url, destination, { ...options, resume: false });
  }
  if (!response.ok || response.body === null) throw new Error(`GET ${url} answered ${response.status} ${response.statusText}`);
  const resumed = response.status === 206 && already > 0;
  const announced = Number(response.headers.get('content-length'));
  // fetch decompresses a gzip body, so its content-length would not match the bytes received.
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const remaining = Number.isFinite(announced) && announced > 0 && !encoded ? announced : undefined;
  const startAt = resumed ? already : 0;
  const totalBytes = remaining === undefined ? undefined : startAt + remaining;
  if (totalBytes !== undefined && totalBytes > options.maxBytes) {
    await response.body.cancel();
    throw new Error(`${url} is ${totalBytes} bytes, more than the ${options.maxBytes} allowed for this file`);
  }
  const hashes = [createHash('sha256'), ...(options.checksum && options.checksum.algorithm !== 'sha256' ? [createHash(options.checksum.algorithm)] : [])];
  if (resumed) for await (const chunk of createReadStream(part)) for (const hash of hashes) hash.update(chunk as Buffer);
  const progress = options.progress === undefined ? undefined : createProgress(options.progress, options.label ?? `downloading ${url}`, totalBytes);
  progress?.advance(startAt);
  let sizeBytes = startAt;
  const stall = () => idle.abort(new Error(`no data from ${url} for ${idleMs / 1000} s`));
  let timer = setTimeout(stall, idleMs);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      clearTimeout(timer);
      timer = setTimeout(stall, idleMs);
      sizeBytes += chunk.length;
      if (sizeBytes > options.maxBytes) {
        callback(new Error(`${url} sent more than the ${options.maxBytes} bytes allowed for this file`));
        return;
      }
      for (const hash of hashes) hash.update(chunk);
      progress?.advance(chunk.length);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), tap, createWriteStream(part, { flags: resumed ? 'a' : 'w' }));
  } catch (error) {
    // A broken transfer keeps its part for --resume; a refused one (too big) does not.
    if (!options.resume || sizeBytes > options.maxBytes) await rm(part, { force: true });
    throw error;
  } finally {
    clearTimeout(timer);
  }
  progress?.done();
  if (totalBytes !== undefined && sizeBytes !== totalBytes) {
    if (!options.resume) await rm(part, { force: true });
    throw new Error(`${url}: got ${sizeBytes} bytes, expected ${totalBytes}`);
  }
  const sha256 = (hashes[0] as Hash).digest('hex');
  const checked = options.checksum === undefined ? undefined : options.checksum.algorithm === 'sha256' ? sha256 : (hashes[1] as Hash).digest('hex');
  if (options.checksum !== undefined && checked !== options.checksum.hex.toLowerCase()) {
    await rm(part, { force: true });
    throw new Error(`${options.checksum.algorithm} mismatch for ${url}: expected ${options.checksum.hex}, got ${checked}; nothing was installed`);
  }
  await rename(part, destination);
  return { sizeBytes, sha256 };
}

/** GET with redirects followed by hand: each hop is checked like the first (no step down to plain http). */
async function fetchFollowing(url: string, checksum: Checksum | undefined, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await fetch(current, { redirect: 'manual', headers, signal });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return response;
    await response.body?.cancel();
    const next = new URL(location, current).href;
    const refusal = downloadRefusal(next, checksum);
    if (refusal !== undefined) throw new Error(`${current} redirects to ${next}, refused: ${refusal}`);
    current = next;
  }
  throw new Error(`${url} redirects more than ${MAX_REDIRECTS} times`);
}
