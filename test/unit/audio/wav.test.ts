import { describe, expect, it } from 'vitest';
import { encodeWav, parseWav, wavHeader } from '../../../src/audio/wav.js';

const ascii = (b: Uint8Array, o: number) => String.fromCharCode(...b.subarray(o, o + 4));

describe('wavHeader', () => {
  it('writes the exact 44-byte PCM header', () => {
    const h = wavHeader({ sampleRateHz: 8000, channels: 1, bitsPerSample: 16, dataBytes: 1000 });
    // prettier-ignore
    const expected = [
      0x52, 0x49, 0x46, 0x46, // RIFF
      0x0c, 0x04, 0x00, 0x00, // 36 + 1000 = 1036
      0x57, 0x41, 0x56, 0x45, // WAVE
      0x66, 0x6d, 0x74, 0x20, // 'fmt '
      0x10, 0x00, 0x00, 0x00, // fmt size 16
      0x01, 0x00, // PCM
      0x01, 0x00, // mono
      0x40, 0x1f, 0x00, 0x00, // 8000 Hz
      0x80, 0x3e, 0x00, 0x00, // byte rate 16000
      0x02, 0x00, // block align 2
      0x10, 0x00, // 16 bits
      0x64, 0x61, 0x74, 0x61, // data
      0xe8, 0x03, 0x00, 0x00, // 1000
    ];
    expect(Array.from(h)).toEqual(expected);
  });

  it.each([16000, 24000, 48000])('derives byte rate and sizes at %i Hz', (rate) => {
    const h = wavHeader({ sampleRateHz: rate, channels: 1, bitsPerSample: 16, dataBytes: 4 * rate });
    const v = new DataView(h.buffer);
    expect(h.length).toBe(44);
    expect(v.getUint32(4, true)).toBe(36 + 4 * rate);
    expect(v.getUint32(24, true)).toBe(rate);
    expect(v.getUint32(28, true)).toBe(2 * rate);
    expect(v.getUint16(32, true)).toBe(2);
    expect(v.getUint32(40, true)).toBe(4 * rate);
  });

  it('uses 0xFFFFFFFF for RIFF and data sizes when streaming', () => {
    const h = wavHeader({ sampleRateHz: 16000, channels: 1, bitsPerSample: 16, dataBytes: 'streaming' });
    expect(Array.from(h.subarray(4, 8))).toEqual([0xff, 0xff, 0xff, 0xff]);
    expect(Array.from(h.subarray(40, 44))).toEqual([0xff, 0xff, 0xff, 0xff]);
    expect(ascii(h, 0)).toBe('RIFF');
    expect(ascii(h, 36)).toBe('data');
  });
});

describe('encodeWav / parseWav', () => {
  it('round-trips samples and format', () => {
    const pcm = new Int16Array([0, 1, -1, 32767, -32768, 1234]);
    const file = encodeWav(pcm, 24000);
    expect(file.length).toBe(44 + 12);
    const parsed = parseWav(file);
    expect(parsed).toMatchObject({ sampleRateHz: 24000, channels: 1, bitsPerSample: 16 });
    expect(Array.from(parsed.samples)).toEqual(Array.from(pcm));
  });

  it('reads a streaming header to the end of the buffer', () => {
    const header = wavHeader({ sampleRateHz: 8000, channels: 1, bitsPerSample: 16, dataBytes: 'streaming' });
    const file = new Uint8Array(44 + 6);
    file.set(header);
    file.set([1, 0, 2, 0, 0xff, 0xff], 44);
    expect(Array.from(parseWav(file).samples)).toEqual([1, 2, -1]);
  });

  it('skips unknown chunks (with odd-size padding) before data', () => {
    const base = encodeWav(new Int16Array([7, 8]), 16000);
    const list = new Uint8Array([0x4c, 0x49, 0x53, 0x54, 3, 0, 0, 0, 1, 2, 3, 0]); // 'LIST', size 3 + pad
    const file = new Uint8Array(base.length + list.length);
    file.set(base.subarray(0, 36));
    file.set(list, 36);
    file.set(base.subarray(36), 36 + list.length);
    expect(Array.from(parseWav(file).samples)).toEqual([7, 8]);
  });

  it('rejects non-WAV input', () => {
    expect(() => parseWav(new Uint8Array(50))).toThrow();
  });
});
