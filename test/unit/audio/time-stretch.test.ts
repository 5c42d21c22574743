import { describe, expect, it } from 'vitest';
import { TimeStretcher } from '../../../src/audio/time-stretch.js';
import { concat, dominantFrequency, rms, tone } from './signal-helpers.js';

const SR = 22050;

function stretch(x: Float32Array, speed: number, chunk = 512): Float32Array {
  const ts = new TimeStretcher(SR, speed);
  const parts: Float32Array[] = [];
  for (let o = 0; o < x.length; o += chunk) parts.push(ts.process(x.subarray(o, o + chunk)));
  parts.push(ts.flush());
  return concat(parts);
}

describe('TimeStretcher', () => {
  it.each([0.5, 0.75, 1.25, 1.5, 2.0])('output lasts input / speed (speed %f)', (speed) => {
    const x = tone(300, SR, SR * 2);
    const y = stretch(x, speed);
    expect(Math.abs(y.length - x.length / speed) / (x.length / speed)).toBeLessThan(0.03);
  });

  it.each([0.5, 2.0])('keeps a 300 Hz tone at 300 Hz (speed %f)', (speed) => {
    const y = stretch(tone(300, SR, SR * 2), speed);
    const f = dominantFrequency(y, SR, 50, 2000);
    expect(Math.abs(f - 300) / 300).toBeLessThan(0.03);
  });

  it('keeps the pitch of a voiced, harmonic signal (120 Hz fundamental) at speed 2', () => {
    const x = concat([tone(120, SR, SR, 0.4)]);
    const h2 = tone(240, SR, SR, 0.2);
    const h3 = tone(360, SR, SR, 0.1);
    for (let i = 0; i < x.length; i++) x[i] = x[i]! + h2[i]! + h3[i]!;
    const y = stretch(x, 2.0);
    expect(Math.abs(dominantFrequency(y, SR, 60, 1000) - 120) / 120).toBeLessThan(0.03);
  });

  it('keeps the level of a steady tone (no comb-filtering from misaligned overlaps)', () => {
    for (const speed of [0.5, 2.0]) {
      const y = stretch(tone(300, SR, SR * 2, 0.5), speed);
      const margin = Math.round(y.length * 0.1);
      const level = rms(y, margin, y.length - margin) / (0.5 / Math.SQRT2);
      expect(level).toBeGreaterThan(0.9);
      expect(level).toBeLessThan(1.1);
    }
  });

  it('is a pass-through at speed 1', () => {
    const x = tone(300, SR, 1000);
    const ts = new TimeStretcher(SR, 1);
    expect(Array.from(ts.process(x))).toEqual(Array.from(x));
    expect(ts.flush().length).toBe(0);
  });

  it('gives the same output regardless of chunking', () => {
    const x = tone(211, SR, SR);
    const a = stretch(x, 1.5, 100);
    const b = stretch(x, 1.5, 7000);
    expect(a.length).toBe(b.length);
    let maxErr = 0;
    for (let i = 0; i < a.length; i++) maxErr = Math.max(maxErr, Math.abs(a[i]! - b[i]!));
    expect(maxErr).toBeLessThan(1e-6);
  });

  it('rejects speeds outside 0.5..2', () => {
    expect(() => new TimeStretcher(SR, 0.4)).toThrow(RangeError);
    expect(() => new TimeStretcher(SR, 2.1)).toThrow(RangeError);
  });
});
