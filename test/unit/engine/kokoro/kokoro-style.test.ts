// Kokoro voice style files: the row a run uses (its token count, clamped to 0..509), files of the wrong size or with
// non-finite values refused with the file named, read from disk and from an unaligned slice of a larger buffer.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKokoroStyleFile, decodeKokoroStyleRow } from '../../../../fixtures/voices/lib/kokoro-style-file.js';
import { KOKORO_STYLE_FILE_BYTES, KokoroStyle, styleRowIndex } from '../../../../src/engine/kokoro/kokoro-style.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-kokoro-style-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Kokoro style', () => {
  it('is 510 x 256 float32: 522,240 bytes, the size of every voice in kokoro-js', () => {
    expect(KOKORO_STYLE_FILE_BYTES).toBe(522_240);
    expect(buildKokoroStyleFile().byteLength).toBe(522_240);
  });

  it('uses the row numbered by the token count, pads not counted, clamped to the table', () => {
    expect([0, 1, 47, 509, 510, 2000, -3].map(styleRowIndex)).toEqual([0, 1, 47, 509, 509, 509, 0]);
  });

  it('loads a file and hands out the whole row for a token count', async () => {
    const path = join(dir, 'hf_test.bin');
    await writeFile(path, buildKokoroStyleFile(7));
    const style = await KokoroStyle.load(path);
    expect(style.source).toBe(path);
    for (const tokens of [1, 47, 300, 509, 510]) {
      const row = style.forTokens(tokens);
      expect(row).toHaveLength(256);
      expect(decodeKokoroStyleRow(row)).toEqual({ seed: 7, row: Math.min(tokens, 509), intact: true });
    }
    // A copy: a tensor built from it must not alias the table.
    style.forTokens(3).fill(0);
    expect(decodeKokoroStyleRow(style.forTokens(3)).intact).toBe(true);
  });

  it('reads little-endian values from any byte offset (a slice of a pooled Buffer)', () => {
    const file = buildKokoroStyleFile(2);
    const padded = new Uint8Array(file.byteLength + 3);
    padded.set(file, 3);
    const style = KokoroStyle.fromBytes(padded.subarray(3), 'slice');
    expect(decodeKokoroStyleRow(style.forTokens(12))).toEqual({ seed: 2, row: 12, intact: true });
  });

  it('refuses a file of the wrong size, naming it and the size expected', async () => {
    const path = join(dir, 'voices.pt');
    await writeFile(path, new Uint8Array(522_240 - 1024));
    await expect(KokoroStyle.load(path)).rejects.toThrow(`${path}: not a Kokoro voice style file: 521216 bytes, expected 522240 (510 x 256 float32, little-endian)`);
    expect(() => KokoroStyle.fromBytes(new Uint8Array(0), 'empty.bin')).toThrow(/^empty\.bin: .*0 bytes, expected 522240/);
  });

  it('refuses a file holding NaN or infinity, naming the row', () => {
    const file = buildKokoroStyleFile();
    new DataView(file.buffer).setFloat32((3 * 256 + 5) * 4, Number.NaN, true);
    expect(() => KokoroStyle.fromBytes(file, 'broken.bin')).toThrow('broken.bin: Kokoro voice style file holds a non-finite value at row 3');
  });

  it('is a missing-file error with the path when the file is not there', async () => {
    await expect(KokoroStyle.load(join(dir, 'nope.bin'))).rejects.toThrow(/ENOENT.*nope\.bin/);
  });
});
