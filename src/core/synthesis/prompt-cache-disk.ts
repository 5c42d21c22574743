// The prompt cache's disk tier: recorded utterances under `<RAAGA_DATA_DIR>/prompt-cache/`, so repeated prompts stay
// free across restarts. One file per key, written to a temporary name and renamed into place (a crash leaves a
// temporary file, never half an entry), with a sha256 over its contents checked on every read (a damaged file is
// deleted and counts as a miss). Bounded in bytes: the least recently used files (by mtime, touched on each hit)
// go first.
//
// File layout: "RPC1", u32 BE length of the JSON header, the header ({ end, pieces: [{ length, after }], words:
// [[chunk, atMs, textEnd]], timed: [[chunk, startMs, audioMs]] }), the pieces' bytes back to back, then the sha256 of
// everything before it. A file from before word timings has no `words`: it replays with none; one from before
// `timed` replays its words to calls but gives the WebSocket no word_timings.

import { createHash, randomBytes } from 'node:crypto';
import { chmod, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../util/private-dir.js';
import { join } from 'node:path';
import type { CacheTier, ChunkWordBoundary, DiskEvent, RecordedUtterance, TimedChunk, UtteranceCounters } from './recorded-utterance.js';

/** The disk tier's directory under RAAGA_DATA_DIR. */
export const PROMPT_CACHE_DIR = 'prompt-cache';
const MAGIC = Buffer.from('RPC1');
const SUFFIX = '.rpc';
const TEMP_MARK = '.tmp-';
const DIGEST_BYTES = 32;
const KEY_PATTERN = /^[0-9a-f]{64}$/;

interface Header {
  readonly end: UtteranceCounters;
  readonly pieces: readonly { readonly length: number; readonly after: UtteranceCounters }[];
  readonly words?: readonly (readonly [number, number, number])[];
  readonly timed?: readonly (readonly [number, number, number])[];
}

export function encodeRecording(recording: RecordedUtterance): Buffer {
  const header: Header = {
    end: recording.end,
    pieces: recording.pieces.map((piece) => ({ length: piece.bytes.length, after: piece.after })),
    words: recording.words.map((word) => [word.chunk, word.atMs, word.textEnd] as const),
    ...(recording.timedChunks ? { timed: recording.timedChunks.map((timed) => [timed.chunk, timed.startMs, timed.audioMs] as const) } : {}),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  const body = Buffer.concat([MAGIC, length, json, ...recording.pieces.map((piece) => piece.bytes)]);
  return Buffer.concat([body, createHash('sha256').update(body).digest()]);
}

/** The recording, or undefined when the bytes are not a whole, intact entry. */
export function decodeRecording(file: Buffer): RecordedUtterance | undefined {
  if (file.length < MAGIC.length + 4 + DIGEST_BYTES || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const body = file.subarray(0, file.length - DIGEST_BYTES);
  if (!createHash('sha256').update(body).digest().equals(file.subarray(file.length - DIGEST_BYTES))) return undefined;
  const jsonLength = body.readUInt32BE(MAGIC.length);
  const jsonEnd = MAGIC.length + 4 + jsonLength;
  if (jsonEnd > body.length) return undefined;
  let header: Header;
  try {
    header = JSON.parse(body.subarray(MAGIC.length + 4, jsonEnd).toString('utf8')) as Header;
  } catch {
    return undefined;
  }
  const pieces: { bytes: Uint8Array; after: UtteranceCounters }[] = [];
  let offset = jsonEnd;
  for (const piece of header.pieces) {
    if (offset + piece.length > body.length) return undefined;
    pieces.push({ bytes: new Uint8Array(body.subarray(offset, offset + piece.length)), after: piece.after });
    offset += piece.length;
  }
  if (offset !== body.length) return undefined;
  const words: ChunkWordBoundary[] = (header.words ?? []).map(([chunk, atMs, textEnd]) => ({ chunk, atMs, textEnd }));
  const timed: TimedChunk[] | undefined = header.timed?.map(([chunk, startMs, audioMs]) => ({ chunk, startMs, audioMs }));
  return { pieces, end: header.end, sizeBytes: offset - jsonEnd, words, ...(timed ? { timedChunks: timed } : {}) };
}

export interface DiskTierOptions {
  readonly dir: string;
  readonly maxBytes: number;
  readonly onEvent: (event: DiskEvent, bytes: number) => void;
}

export class PromptCacheDisk implements CacheTier {
  readonly #options: DiskTierOptions;
  /** File sizes by key, in recency order (oldest first), as known since start. */
  readonly #files = new Map<string, number>();
  #bytes = 0;
  /** Writes and evictions run one at a time, so the byte count and the directory agree. */
  #queue: Promise<void> = Promise.resolve();

  private constructor(options: DiskTierOptions) {
    this.#options = options;
  }

  /** Opens the directory: leftover temporary files are removed, entries are indexed by mtime. */
  static async open(options: DiskTierOptions): Promise<PromptCacheDisk> {
    const disk = new PromptCacheDisk(options);
    await ensurePrivateDir(options.dir);
    const found: { key: string; size: number; mtimeMs: number }[] = [];
    for (const name of await readdir(options.dir)) {
      const path = join(options.dir, name);
      if (name.includes(TEMP_MARK)) {
        await rm(path, { force: true });
        continue;
      }
      const key = name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : '';
      if (!KEY_PATTERN.test(key)) continue;
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) continue;
      // Entries written by an older Raaga may be world-readable: each holds spoken audio (OTPs, names).
      if ((info.mode & 0o077) !== 0) await chmod(path, PRIVATE_FILE_MODE).catch(() => undefined);
      found.push({ key, size: info.size, mtimeMs: info.mtimeMs });
    }
    for (const entry of found.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
      disk.#files.set(entry.key, entry.size);
      disk.#bytes += entry.size;
    }
    await disk.#evictOverBound();
    return disk;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#files.size;
  }

  async read(key: string): Promise<RecordedUtterance | undefined> {
    if (!this.#files.has(key)) return undefined;
    const path = this.#path(key);
    const file = await readFile(path).catch(() => undefined);
    const recording = file ? decodeRecording(file) : undefined;
    if (!recording) {
      // Gone or damaged: never served, and removed so it is not tried again.
      this.#options.onEvent('disk_error', 0);
      await this.#enqueue(async () => this.#remove(key));
      return undefined;
    }
    this.#touch(key);
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined);
    this.#options.onEvent('disk_hit', recording.sizeBytes);
    return recording;
  }

  /** Writes the entry in the background (callers do not wait on the disk); errors are counted, never thrown. */
  write(key: string, recording: RecordedUtterance): Promise<void> {
    return this.#enqueue(async () => {
      const encoded = encodeRecording(recording);
      if (encoded.length > this.#options.maxBytes) return;
      const path = this.#path(key);
      const temporary = `${path}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        const handle = await open(temporary, 'w', PRIVATE_FILE_MODE);
        try {
          await handle.writeFile(encoded);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temporary, path);
      } catch {
        await rm(temporary, { force: true });
        this.#options.onEvent('disk_error', 0);
        return;
      }
      this.#bytes -= this.#files.get(key) ?? 0;
      this.#files.delete(key);
      this.#files.set(key, encoded.length);
      this.#bytes += encoded.length;
      this.#options.onEvent('disk_store', encoded.length);
      await this.#evictOverBound();
    });
  }

  /** Resolves once every queued write and eviction is done (tests, shutdown). */
  async idle(): Promise<void> {
    await this.#queue;
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #touch(key: string): void {
    const size = this.#files.get(key);
    if (size === undefined) return;
    this.#files.delete(key);
    this.#files.set(key, size);
  }

  async #evictOverBound(): Promise<void> {
    for (const [key, size] of this.#files) {
      if (this.#bytes <= this.#options.maxBytes) break;
      await this.#remove(key);
      this.#options.onEvent('disk_evict', size);
    }
  }

  async #remove(key: string): Promise<void> {
    const size = this.#files.get(key);
    if (size === undefined) return;
    this.#files.delete(key);
    this.#bytes -= size;
    await rm(this.#path(key), { force: true });
  }

  #path(key: string): string {
    return join(this.#options.dir, `${key}${SUFFIX}`);
  }
}
