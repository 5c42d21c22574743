import { describe, expect, it } from 'vitest';
import { bytesLEToPcm16, floatToPcm16, pcm16ToBytesLE, pcm16ToFloat } from '../../../src/audio/pcm.js';

describe('pcm', () => {
  it('clips and rounds floats to PCM16', () => {
    const out = floatToPcm16(new Float32Array([0, 1, -1, 1.5, -7, 0.5, -0.5, 1 / 32767 * 0.49, Number.NaN]));
    expect(Array.from(out)).toEqual([0, 32767, -32767, 32767, -32767, 16384, -16383, 0, 0]);
  });

  it('round-trips PCM16 through float exactly', () => {
    const pcm = new Int16Array([0, 1, -1, 12345, -12345, 32767, -32767]);
    expect(Array.from(floatToPcm16(pcm16ToFloat(pcm)))).toEqual(Array.from(pcm));
    expect(pcm16ToFloat(new Int16Array([-32768]))[0]).toBe(-1);
  });

  it('writes little-endian bytes as a view over the same memory', () => {
    const pcm = new Int16Array([0x0102, -2, 0x7fff]);
    const bytes = pcm16ToBytesLE(pcm);
    expect(Array.from(bytes)).toEqual([0x02, 0x01, 0xfe, 0xff, 0xff, 0x7f]);
    expect(bytes.buffer).toBe(pcm.buffer);
    expect(Array.from(bytesLEToPcm16(bytes))).toEqual(Array.from(pcm));
  });

  it('respects byteOffset of subarrays', () => {
    const pcm = new Int16Array([1, 2, 3, 4]).subarray(2);
    expect(Array.from(pcm16ToBytesLE(pcm))).toEqual([3, 0, 4, 0]);
  });
});
