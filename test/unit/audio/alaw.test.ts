// G.711 A-law: the standard code values (with its even-bit inversion, so it is not mu-law under another name), the
// error bound of the round trip, and the encoder's bytes decoding to exactly the input's A-law round trip.
import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import { alawToPcm16, pcm16ToAlaw } from '../../../src/audio/alaw.js';
import { createEncoder } from '../../../src/audio/encoder.js';
import { floatToPcm16 } from '../../../src/audio/pcm.js';
import { concatBytes, tone } from './signal-helpers.js';

describe('A-law', () => {
  it('encodes known values (G.711: +0 is 0xD5, full scale 0xAA and 0x2A)', () => {
    expect(Array.from(pcm16ToAlaw(new Int16Array([0, -1, 32767, -32768])))).toEqual([0xd5, 0x55, 0xaa, 0x2a]);
    expect(Array.from(alawToPcm16(new Uint8Array([0xd5, 0x55, 0xaa, 0x2a])))).toEqual([8, -8, 32256, -32256]);
  });

  it('round-trips every PCM16 value within the A-law step size', () => {
    const all = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);
    const back = alawToPcm16(pcm16ToAlaw(all));
    const violations: number[] = [];
    for (let i = 0; i < all.length; i++) {
      const x = all[i]!;
      // Steps of 16 in the two lowest segments, doubling above (error <= |x|/32 + 8); clipping above 32256.
      const bound = Math.abs(x) > 32256 ? Math.abs(x) - 32256 : Math.abs(x) / 32 + 8;
      if (Math.abs(back[i]! - x) > bound) violations.push(x);
    }
    expect(violations).toEqual([]);
  });

  it.each(['streaming', 'complete'] as const)('the encoder writes one byte per sample that decodes to exactly the A-law round trip (%s)', (mode) => {
    const input = floatToPcm16(tone(440, 8000, 8000, 0.6));
    const encoder = createEncoder('alaw', 8000, mode);
    const bytes = concatBytes([encoder.header(), encoder.encode(input.subarray(0, 3001)), encoder.encode(input.subarray(3001)), encoder.flush()]);
    expect(bytes.length).toBe(input.length);
    const expected = alawmulaw.alaw.decode(alawmulaw.alaw.encode(input));
    expect(Array.from(alawmulaw.alaw.decode(bytes))).toEqual(Array.from(expected));
  });
});
