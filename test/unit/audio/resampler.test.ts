import { describe, expect, it } from 'vitest';
import { filterDesignFor, PHONE_BAND, Resampler, TRANSPARENT } from '../../../src/audio/resampler.js';
import { concat, db, rms, tone } from './signal-helpers.js';

function oneShot(from: number, to: number, x: Float32Array): Float32Array {
  const r = new Resampler(from, to);
  return concat([r.process(x), r.flush()]);
}

const PAIRS: Array<[number, number]> = [
  [22050, 8000],
  [22050, 16000],
  [22050, 24000],
  [22050, 48000],
  [24000, 8000],
  [16000, 8000],
  [16000, 22050],
  [16000, 24000],
  [16000, 44100],
  [16000, 48000],
  [8000, 48000],
];

describe('Resampler', () => {
  it('attenuates a 6 kHz tone by at least 40 dB going 24 kHz -> 8 kHz', () => {
    const y = oneShot(24000, 8000, tone(6000, 24000, 24000, 0.5));
    const steady = rms(y, 400, y.length - 400);
    expect(db(steady / (0.5 / Math.SQRT2))).toBeLessThan(-40);
  });

  it.each(PAIRS)('passes 1 kHz within +-1 dB (%i -> %i)', (from, to) => {
    const y = oneShot(from, to, tone(1000, from, from, 0.5));
    const margin = Math.round(to * 0.05);
    const gainDb = db(rms(y, margin, y.length - margin) / (0.5 / Math.SQRT2));
    expect(Math.abs(gainDb)).toBeLessThan(1);
  });

  it.each(PAIRS)('keeps the telephone band flat up to 3.2 kHz (%i -> %i)', (from, to) => {
    const y = oneShot(from, to, tone(3200, from, from, 0.5));
    const margin = Math.round(to * 0.05);
    expect(Math.abs(db(rms(y, margin, y.length - margin) / (0.5 / Math.SQRT2)))).toBeLessThan(1);
  });

  it.each(PAIRS)('streaming in random chunks equals one-shot (%i -> %i)', (from, to) => {
    const x = concat([tone(440, from, 5000, 0.4), tone(2500, from, 7001, 0.3)]);
    const whole = oneShot(from, to, x);
    const r = new Resampler(from, to);
    const parts: Float32Array[] = [];
    let seed = 7;
    for (let o = 0; o < x.length; ) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const n = seed % 700; // includes 0-length and 1-sample chunks
      parts.push(r.process(x.subarray(o, o + n)));
      o += n;
    }
    parts.push(r.flush());
    const streamed = concat(parts);
    expect(streamed.length).toBe(whole.length);
    let maxErr = 0;
    for (let i = 0; i < whole.length; i++) maxErr = Math.max(maxErr, Math.abs(whole[i]! - streamed[i]!));
    expect(maxErr).toBeLessThan(1e-6);
  });

  it.each(PAIRS)('outputs round(n * to / from) +-1 samples (%i -> %i)', (from, to) => {
    for (const n of [0, 1, 2, 3, 10, 441, 1000, 22050, 33333]) {
      const y = oneShot(from, to, new Float32Array(n).fill(0.1));
      expect(Math.abs(y.length - Math.round((n * to) / from))).toBeLessThanOrEqual(1);
    }
  });

  it('has no net delay: an impulse lands at its scaled time', () => {
    const x = new Float32Array(22050);
    x[10000] = 1;
    const y = oneShot(22050, 8000, x);
    let arg = 0;
    for (let i = 1; i < y.length; i++) if (Math.abs(y[i]!) > Math.abs(y[arg]!)) arg = i;
    expect(Math.abs(arg - (10000 * 8000) / 22050)).toBeLessThanOrEqual(1);
  });

  it('keeps DC at unity gain', () => {
    const y = oneShot(22050, 48000, new Float32Array(22050).fill(0.5));
    for (let i = 1000; i < y.length - 1000; i += 97) expect(y[i]).toBeCloseTo(0.5, 4);
  });

  it.each([22050, 16000])('down to 8 kHz uses the phone-band filter: flat 300-3400 Hz within 0.35 dB (%i)', (from) => {
    expect(filterDesignFor(from, 8000)).toBe(PHONE_BAND);
    for (const hz of [300, 1000, 2000, 3000, 3400]) {
      const y = oneShot(from, 8000, tone(hz, from, from, 0.5));
      expect(Math.abs(db(rms(y, 400, y.length - 400) / (0.5 / Math.SQRT2))), `${hz} Hz`).toBeLessThan(0.35);
    }
  });

  it.each([22050, 16000])('down to 8 kHz nothing from 4.6 kHz up aliases into the band: >= 70 dB down (%i)', (from) => {
    for (let hz = 4600; hz < from / 2; hz += 700) {
      const y = oneShot(from, 8000, tone(hz, from, from, 0.5));
      expect(db(rms(y, 400, y.length - 400) / (0.5 / Math.SQRT2)), `${hz} Hz`).toBeLessThan(-70);
    }
  });

  it('keeps the transparent filter for every other pair, and on request', () => {
    expect(filterDesignFor(22050, 24000)).toBe(TRANSPARENT);
    expect(filterDesignFor(8000, 16000)).toBe(TRANSPARENT);
    // 3.9 kHz, above the telephone band: the phone band lets it through at about -12 dB, the transparent filter at -33.
    const x = tone(3900, 22050, 22050, 0.5);
    const y = new Resampler(22050, 8000, TRANSPARENT).process(x);
    expect(db(rms(y, 400, y.length - 400) / (0.5 / Math.SQRT2))).toBeLessThan(-30);
    expect(db(rms(oneShot(22050, 8000, x), 400, 7600) / (0.5 / Math.SQRT2))).toBeGreaterThan(-15);
  });

  it('passes identity rates through unchanged', () => {
    const x = tone(300, 16000, 1000);
    const r = new Resampler(16000, 16000);
    const y = r.process(x);
    expect(Array.from(y)).toEqual(Array.from(x));
    expect(y).not.toBe(x);
    expect(r.flush().length).toBe(0);
  });

  it('can be reused after flush', () => {
    const x = tone(700, 22050, 3000);
    const r = new Resampler(22050, 8000);
    const first = concat([r.process(x), r.flush()]);
    const second = concat([r.process(x), r.flush()]);
    expect(Array.from(second)).toEqual(Array.from(first));
  });

  it('rejects non-integer or non-positive rates', () => {
    expect(() => new Resampler(22050.5, 8000)).toThrow(RangeError);
    expect(() => new Resampler(0, 8000)).toThrow(RangeError);
  });
});

describe('Resampler.resampleWhole', () => {
  const pairs: Array<[number, number]> = [[22050, 8000], [22050, 16000], [16000, 8000], [24000, 8000], [22050, 24000], [8000, 16000], [16000, 16000]];
  const clip = (n: number): Float32Array => Float32Array.from({ length: n }, (_, i) => 0.4 * Math.sin(i / 5.3) + 0.2 * Math.sin(i / 1.7) * Math.cos(i / 91));

  it.each(pairs.flatMap(([from, to]) => [true, false].map((simd) => [from, to, simd] as const)))(
    '%i -> %i Hz (SIMD %s): the bytes process() then flush() give',
    (fromHz, toHz, simd) => {
      for (const length of [0, 1, 7, 441, 22050 + 13]) {
        const input = clip(length);
        const streamed = new Resampler(fromHz, toHz, undefined, { simd });
        const expected = concat([streamed.process(input), streamed.flush()]);
        const whole = new Resampler(fromHz, toHz, undefined, { simd });
        const actual = whole.resampleWhole(input);
        expect(Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength))).toBe(true);
        // Left fresh: the next clip comes out as from a new resampler.
        const again = whole.resampleWhole(input);
        expect(Buffer.from(again.buffer, again.byteOffset, again.byteLength).equals(Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength))).toBe(true);
      }
    },
  );

  it('refuses a resampler that is mid-stream', () => {
    const resampler = new Resampler(22050, 8000);
    resampler.process(clip(100));
    expect(() => resampler.resampleWhole(clip(100))).toThrow(/fresh resampler/);
  });
});
