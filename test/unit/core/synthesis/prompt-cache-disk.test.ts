// The prompt cache's disk tier on a real temporary directory: entries survive a reopen byte for byte, a damaged or
// half-written entry is never served (and is removed), the tier keeps to its bound oldest first, and a cache over
// a reopened tier serves from disk and brings the entry into memory.

import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PromptCache, type PromptCacheEvent, type RecordedUtterance } from '../../../../src/core/synthesis/prompt-cache.js';
import { decodeRecording, encodeRecording, PromptCacheDisk } from '../../../../src/core/synthesis/prompt-cache-disk.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-prompt-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const key = (n: number) => n.toString(16).padStart(64, '0');
function recording(bytes: number, seed = 1): RecordedUtterance {
  const piece = (length: number, offset: number) => Uint8Array.from({ length }, (_, i) => (i * seed + offset) & 0xff);
  const half = Math.floor(bytes / 2);
  return {
    pieces: [
      { bytes: piece(half, 0), after: { codePointsSpoken: 10, chunksDone: 1, durationMs: 250 } },
      { bytes: piece(bytes - half, 7), after: { codePointsSpoken: 25, chunksDone: 2, durationMs: 600.5 } },
    ],
    end: { codePointsSpoken: 25, chunksDone: 2, durationMs: 612.25 },
    sizeBytes: bytes,
    words: [
      { chunk: 0, atMs: 120.5, textEnd: 4 },
      { chunk: 1, atMs: 80, textEnd: 7 },
    ],
  };
}

async function openDisk(maxBytes = 1_000_000) {
  const events: PromptCacheEvent[] = [];
  const disk = await PromptCacheDisk.open({ dir, maxBytes, onEvent: (event) => events.push(event) });
  return { disk, events };
}

describe('prompt cache entries on disk', () => {
  it('encode and decode round-trip; any damaged byte or missing tail is refused', () => {
    const original = recording(1000, 3);
    const encoded = encodeRecording(original);
    expect(decodeRecording(encoded)).toEqual(original);
    for (const at of [0, 5, 40, encoded.length - 100, encoded.length - 1]) {
      const damaged = Buffer.from(encoded);
      damaged[at] = damaged[at]! ^ 0x01;
      expect(decodeRecording(damaged), `byte ${at}`).toBeUndefined();
    }
    expect(decodeRecording(encoded.subarray(0, encoded.length - 1))).toBeUndefined();
    expect(decodeRecording(Buffer.from('RPC1'))).toBeUndefined();
  });

  it('an entry written before word timings were kept replays with none', () => {
    const original = recording(600);
    const header = Buffer.from(JSON.stringify({ end: original.end, pieces: original.pieces.map((p) => ({ length: p.bytes.length, after: p.after })) }));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(header.length);
    const body = Buffer.concat([Buffer.from('RPC1'), length, header, ...original.pieces.map((p) => p.bytes)]);
    const file = Buffer.concat([body, createHash('sha256').update(body).digest()]);
    expect(decodeRecording(file)).toEqual({ ...original, words: [] });
  });

  it('survives a reopen; leftover temporary files are removed; a damaged file is removed and never served', async () => {
    const { disk } = await openDisk();
    await disk.write(key(1), recording(500));
    await disk.write(key(2), recording(700, 5));
    await writeFile(join(dir, `${key(3)}.rpc.tmp-1-abcd`), 'half an entry');
    const reopened = await openDisk();
    expect(reopened.disk.size).toBe(2);
    expect(await reopened.disk.read(key(1))).toEqual(recording(500));
    expect((await readdir(dir)).some((name) => name.includes('.tmp-'))).toBe(false);
    const path = join(dir, `${key(2)}.rpc`);
    const file = await readFile(path);
    file[file.length - 10] = file[file.length - 10]! ^ 0xff;
    await writeFile(path, file);
    expect(await reopened.disk.read(key(2))).toBeUndefined();
    expect(reopened.events).toContain('disk_error');
    expect(await readdir(dir)).toEqual([`${key(1)}.rpc`]);
    expect(reopened.disk.size).toBe(1);
  });

  it('keeps to its bound, the least recently used (mtime, touched on a hit) first', async () => {
    const entryBytes = encodeRecording(recording(1000)).length;
    const { disk, events } = await openDisk(entryBytes * 3);
    await disk.write(key(1), recording(1000));
    await disk.write(key(2), recording(1000));
    await disk.write(key(3), recording(1000));
    expect(await disk.read(key(1))).toBeDefined(); // 1 is now the most recent: 2 goes first
    await disk.write(key(4), recording(1000));
    expect(events.filter((event) => event === 'disk_evict')).toHaveLength(1);
    expect((await readdir(dir)).sort()).toEqual([key(1), key(3), key(4)].map((k) => `${k}.rpc`));
    expect(disk.bytes).toBe(entryBytes * 3);
    // At start, recency is the files' mtimes: the oldest goes when the bound is lower.
    await utimes(join(dir, `${key(4)}.rpc`), new Date(1_000_000), new Date(1_000_000));
    const smaller = await openDisk(entryBytes * 2);
    expect((await readdir(dir)).sort()).toEqual([key(1), key(3)].map((k) => `${k}.rpc`));
    expect(smaller.disk.bytes).toBe(entryBytes * 2);
  });

  it('a cache over a reopened disk tier serves from disk and keeps the entry in memory', async () => {
    const first = new PromptCache({ maxBytes: 1_000_000, disk: (await openDisk()).disk });
    first.put(key(9), recording(800));
    await first.flushed();
    const events: PromptCacheEvent[] = [];
    const onEvent = (event: PromptCacheEvent) => events.push(event);
    const second = new PromptCache({ maxBytes: 1_000_000, disk: await PromptCacheDisk.open({ dir, maxBytes: 1_000_000, onEvent }), onEvent });
    expect(await second.lookup(key(9))).toEqual(recording(800));
    expect(await second.lookup(key(9))).toEqual(recording(800));
    expect(await second.lookup(key(10))).toBeUndefined();
    // The disk hit is stored in memory: the next lookup is a memory hit.
    expect(events).toEqual(['disk_hit', 'store', 'hit', 'miss']);
    expect(second.bytes).toBe(800);
  });
});
