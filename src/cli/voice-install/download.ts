// One download of a voice file, for `raaga voices add` and `raaga voices install`: over https (plain http only when
// the expected checksum is known, so a tampered file is caught), redirects followed by hand, never down to plain
// http without a checksum and never into a non-public network the operator did not name, at most `maxBytes`,
// resumable from a `.part` file, hashed on the way (sha256 for the manifest, and the algorithm the catalog
// publishes), with a progress bar and an idle timeout.

import { createHash, type Hash } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { isIP } from 'node:net';
import { pinnedLookup, type PinnedLookup } from '../../telephony/destination/destination-policy.js';
import { NetworkAllowList, nonPublicRange } from '../../telephony/destination/ip-ranges.js';
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
  const response = await getFollowing(url, vouched, already > 0 ? { range: `bytes=${already}-` } : {}, idleMs);
  const status = response.statusCode ?? 0;
  if (status === 404) {
    response.resume();
    throw new NotFoundError(url);
  }
  if (status === 416 && already > 0) {
    // The part is already whole (or longer than the file): start again rather than guess.
    response.resume();
    await rm(part, { force: true });
    return download(url, destination, { ...options, resume: false });
  }
  if (status < 200 || status >= 300) {
    response.resume();
    throw new Error(`GET ${url} answered ${status} ${response.statusMessage ?? ''}`.trimEnd());
  }
  const resumed = status === 206 && already > 0;
  const announced = Number(response.headers['content-length']);
  const remaining = Number.isFinite(announced) && announced > 0 ? announced : undefined;
  const startAt = resumed ? already : 0;
  const totalBytes = remaining === undefined ? undefined : startAt + remaining;
  if (totalBytes !== undefined && totalBytes > options.maxBytes) {
    response.destroy();
    throw new Error(`${url} is ${totalBytes} bytes, more than the ${options.maxBytes} allowed for this file`);
  }
  const hashes = [createHash('sha256'), ...(options.checksum && options.checksum.algorithm !== 'sha256' ? [createHash(options.checksum.algorithm)] : [])];
  if (resumed) for await (const chunk of createReadStream(part)) for (const hash of hashes) hash.update(chunk as Buffer);
  const progress = options.progress === undefined ? undefined : createProgress(options.progress, options.label ?? `downloading ${url}`, totalBytes);
  progress?.advance(startAt);
  let sizeBytes = startAt;
  try {
    await new Promise<void>((resolve, reject) => {
      const file = createWriteStream(part, { flags: resumed ? 'a' : 'w' });
      let failure: Error | undefined;
      // On a broken transfer the file is ended, not destroyed: every byte received reaches the part for --resume.
      const fail = (error: Error): void => {
        failure ??= error;
        response.unpipe(file);
        file.end();
      };
      response.on('data', (chunk: Buffer) => {
        sizeBytes += chunk.length;
        if (sizeBytes > options.maxBytes) {
          fail(new Error(`${url} sent more than the ${options.maxBytes} bytes allowed for this file`));
          response.destroy();
          return;
        }
        for (const hash of hashes) hash.update(chunk);
        progress?.advance(chunk.length);
      });
      response.on('error', (error) => fail(error));
      response.on('close', () => {
        if (!response.complete) fail(new Error(`the transfer of ${url} broke after ${sizeBytes} bytes`));
      });
      file.on('finish', () => (failure ? reject(failure) : resolve()));
      file.on('error', reject);
      response.pipe(file);
    });
  } catch (error) {
    // A broken transfer keeps its part for --resume; a refused one (too big) does not.
    if (!options.resume || sizeBytes > options.maxBytes) await rm(part, { force: true });
    throw error;
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

/** One GET: node's http(s), so bytes received before a connection breaks are all delivered (fetch drops them). */
function get(url: string, headers: Record<string, string>, idleMs: number, lookup?: PinnedLookup): Promise<IncomingMessage> {
  const send = url.startsWith('https:') ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const request = send(url, { headers: { 'user-agent': 'raaga-voices', ...headers }, ...(lookup ? { lookup } : {}) }, resolve);
    // No byte for this long, connecting or reading: abandoned (a stalled mirror does not hang the install).
    request.setTimeout(idleMs, () => request.destroy(new Error(`no data from ${url} for ${idleMs / 1000} s`)));
    request.on('error', reject);
  });
}

/** The addresses of a URL's host: an IP literal as it is, a name as the system resolves it. */
async function addressesOf(url: URL): Promise<readonly LookupAddress[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family }];
  return dnsLookup(host, { all: true, verbatim: true });
}

/**
 * Where a redirect may lead (the destination policy's ranges): to public addresses, or to a non-public one only when
 * the URL the operator gave was on that same address (a local mirror moving a file). A sentence saying why not, or
 * the address to connect to, so the name is not resolved again between the check and the connection.
 */
async function redirectTarget(next: URL, origin: () => Promise<NetworkAllowList>): Promise<LookupAddress | string> {
  let addresses: readonly LookupAddress[];
  try {
    addresses = await addressesOf(next);
  } catch {
    return `its host (${next.hostname}) does not resolve`;
  }
  const first = addresses[0];
  if (first === undefined) return `its host (${next.hostname}) does not resolve`;
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range !== undefined && !(await origin()).has(address)) {
      return `it points at a ${range} address (${address}), and a redirect may lead to a non-public address only on the host the download started from; give that URL directly if it is your own mirror`;
    }
  }
  return first;
}

/**
 * GET with redirects followed by hand: each hop is checked like the first (no step down to plain http) and may not
 * move into a non-public network other than the original URL's own host.
 */
async function getFollowing(url: string, checksum: Checksum | undefined, headers: Record<string, string>, idleMs: number): Promise<IncomingMessage> {
  let originAddresses: Promise<NetworkAllowList> | undefined;
  // Resolved only when a redirect comes: most downloads have none. A name that no longer resolves allows nothing.
  const origin = (): Promise<NetworkAllowList> =>
    (originAddresses ??= addressesOf(new URL(url)).then(
      (found) => new NetworkAllowList(found.map(({ address }) => address)),
      () => new NetworkAllowList([]),
    ));
  let current = url;
  let lookup: PinnedLookup | undefined;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await get(current, headers, idleMs, lookup);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status < 300 || status >= 400 || location === undefined) return response;
    response.resume();
    const next = new URL(location, current);
    const refusal = downloadRefusal(next.href, checksum);
    if (refusal !== undefined) throw new Error(`${current} redirects to ${next.href}, refused: ${refusal}`);
    const target = await redirectTarget(next, origin);
    if (typeof target === 'string') throw new Error(`${current} redirects to ${next.href}, refused: ${target}`);
    lookup = pinnedLookup({ url: next, address: target.address, family: target.family === 6 ? 6 : 4 });
    current = next.href;
  }
  throw new Error(`${url} redirects more than ${MAX_REDIRECTS} times`);
}
