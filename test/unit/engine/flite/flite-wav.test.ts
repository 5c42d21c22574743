// flite's output WAV read strictly: what flite writes is accepted, anything else refused with the reason.

import { describe, expect, it } from 'vitest';
import { MalformedWavError, parseFliteWav } from '../../../../src/engine/flite/flite-wav.js';
import { encodeWav } from '../../../../src/audio/wav.js';

const wav = (samples: number[], rateHz = 16000): Uint8Array => encodeWav(Int16Array.from(samples), rateHz);

describe('parseFliteWav', () => {
  it('decodes 16-bit mono PCM into [-1, 1]', () => {
    const out = parseFliteWav(wav([0, 16384, -32768, 32767]), 'x');
    expect(out.sampleRateHz).toBe(16000);
    expect([...out.samples]).toEqual([0, 0.5, -1, 32767 / 32768]);
    expect(parseFliteWav(wav([]), 'x').samples.length).toBe(0);
  });

  it('skips unknown chunks and their pad byte', () => {
    const base = wav([1, 2]);
    const list = Uint8Array.from([...'LIST'].map((c) => c.charCodeAt(0)).concat([3, 0, 0, 0, 9, 9, 9, 0]));
    const bytes = new Uint8Array(base.length + list.length);
    bytes.set(base.subarray(0, 36));
    bytes.set(list, 36);
    bytes.set(base.subarray(36), 36 + list.length);
    new DataView(bytes.buffer).setUint32(4, bytes.length - 8, true);
    expect([...parseFliteWav(bytes, 'x').samples].map((s) => s * 32768)).toEqual([1, 2]);
  });

  const refusals: [string, (bytes: Uint8Array) => Uint8Array, RegExp][] = [
    ['a truncated file', (b) => b.subarray(0, b.length - 2), /RIFF size/],
    ['trailing bytes', (b) => Uint8Array.from([...b, 0, 0]), /RIFF size/],
    ['stereo', (b) => patch(b, 22, 2, 2), /2 channel/],
    ['8-bit', (b) => patch(b, 34, 8, 2), /8 bits/],
    ['float', (b) => patch(b, 20, 3, 2), /format 3/],
    ['a wrong byte rate', (b) => patch(b, 28, 1, 4), /byte rate/],
    ['an absurd rate', (b) => patch(b, 24, 1000, 4), /sample rate 1000/],
    ['a data chunk past the end', (b) => patch(b, 40, 1000, 4), /runs past the end/],
    ['not RIFF', (b) => patch(b, 0, 0, 4), /no RIFF/],
  ];
  for (const [what, damage, reason] of refusals) {
    it(`refuses ${what}, naming the source`, () => {
      expect(() => parseFliteWav(damage(wav([1, 2, 3, 4])), 'flite output')).toThrow(MalformedWavError);
      expect(() => parseFliteWav(damage(wav([1, 2, 3, 4])), 'flite output')).toThrow(reason);
      expect(() => parseFliteWav(damage(wav([1, 2, 3, 4])), 'flite output')).toThrow(/^flite output is not a WAV/);
    });
  }
});

function patch(bytes: Uint8Array, offset: number, value: number, size: 2 | 4): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  if (size === 2) view.setUint16(offset, value, true);
  else view.setUint32(offset, value, true);
  return copy;
}
