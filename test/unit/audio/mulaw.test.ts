import { describe, expect, it } from 'vitest';
import { mulawToPcm16, pcm16ToMulaw } from '../../../src/audio/mulaw.js';

describe('mu-law', () => {
  it('encodes known values (G.711: silence is 0xFF)', () => {
    expect(Array.from(pcm16ToMulaw(new Int16Array([0, 32767, -32768])))).toEqual([0xff, 0x80, 0x00]);
    expect(Array.from(mulawToPcm16(new Uint8Array([0xff, 0x7f, 0x80, 0x00])))).toEqual([0, 0, 32124, -32124]);
  });

  it('round-trips every PCM16 value within the mu-law step size', () => {
    const all = new Int16Array(65536);
    for (let i = 0; i < all.length; i++) all[i] = i - 32768;
    const back = mulawToPcm16(pcm16ToMulaw(all));
    const violations: number[] = [];
    for (let i = 0; i < all.length; i++) {
      const x = all[i]!;
      // Steps double per segment (8 at the bottom): error <= step/2 ~ |x|/32 + 8, clipping above 32635.
      const bound = Math.abs(x) > 32635 ? Math.abs(x) - 32124 + 1 : Math.abs(x) / 32 + 8;
      if (Math.abs(back[i]! - x) > bound) violations.push(x);
    }
    expect(violations).toEqual([]);
  });

  it('is idempotent on decoded values (decode(encode(decode(b))) = decode(b))', () => {
    const codes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const decoded = mulawToPcm16(codes);
    expect(Array.from(mulawToPcm16(pcm16ToMulaw(decoded)))).toEqual(Array.from(decoded));
  });

  it('produces one byte per sample', () => {
    expect(pcm16ToMulaw(new Int16Array(160)).length).toBe(160);
  });
});
