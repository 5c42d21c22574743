import { describe, expect, it } from 'vitest';
import { chunkBytes, frameBytesFor } from '../../../src/audio/framing.js';

describe('frameBytesFor', () => {
  it('sizes 20 ms frames per format', () => {
    expect(frameBytesFor('mulaw', 8000, 20)).toBe(160);
    expect(frameBytesFor('pcm', 8000, 20)).toBe(320);
    expect(frameBytesFor('wav', 16000, 20)).toBe(640);
    expect(frameBytesFor('pcm', 22050, 20)).toBe(882);
    expect(frameBytesFor('mp3', 8000, 20)).toBe(2048);
  });
});

describe('chunkBytes', () => {
  it('splits into frames of at most maxBytes, aligned to whole samples', () => {
    const bytes = Uint8Array.from({ length: 1001 }, (_, i) => i & 0xff);
    const frames = chunkBytes(bytes, 321, 2);
    expect(frames.map((f) => f.length)).toEqual([320, 320, 320, 41]);
    expect(frames.slice(0, -1).every((f) => f.length % 2 === 0)).toBe(true);
    const joined = new Uint8Array(1001);
    let o = 0;
    for (const f of frames) {
      joined.set(f, o);
      o += f.length;
    }
    expect(joined).toEqual(bytes);
  });

  it('returns views, no copies, and nothing for empty input', () => {
    const bytes = new Uint8Array(10);
    expect(chunkBytes(bytes, 4)[1]!.buffer).toBe(bytes.buffer);
    expect(chunkBytes(new Uint8Array(0), 160)).toEqual([]);
  });

  it('never returns an empty or sub-sample frame for tiny maxBytes', () => {
    expect(chunkBytes(new Uint8Array(6), 1, 2).map((f) => f.length)).toEqual([2, 2, 2]);
  });
});
