import { describe, expect, it } from 'vitest';
import { applyEdgeFades, normalizeLoudness, removeDc, trimSilence } from '../../../src/audio/clip-shaping.js';
import { concat, db, rms, tone } from './signal-helpers.js';

const SR = 22050;

describe('trimSilence', () => {
  it('trims to the loud part plus keepMs on each side', () => {
    const x = concat([new Float32Array(SR), tone(440, SR, 2205, 0.5, 1), new Float32Array(SR)]);
    const y = trimSilence(x, SR);
    const keep = Math.round(0.02 * SR);
    expect(y.length).toBe(2205 + 2 * keep);
    expect(y.byteOffset / 4).toBe(SR - keep);
  });

  it('honours threshold and keepMs options', () => {
    const x = concat([new Float32Array(100).fill(0.001), new Float32Array(100).fill(0.5), new Float32Array(100)]);
    expect(trimSilence(x, SR, { keepMs: 0 }).length).toBe(100);
    expect(trimSilence(x, SR, { keepMs: 0, thresholdDbfs: -70 }).length).toBe(200);
  });

  it('returns empty for all-silent input', () => {
    expect(trimSilence(new Float32Array(1000).fill(0.0001), SR).length).toBe(0);
  });
});

describe('applyEdgeFades', () => {
  it('ramps both ends to ~0 with a raised cosine and leaves the middle alone', () => {
    const x = new Float32Array(SR).fill(1);
    applyEdgeFades(x, SR, 5);
    const n = Math.round(0.005 * SR);
    expect(x[0]).toBeLessThan(0.001);
    expect(x[x.length - 1]).toBeLessThan(0.001);
    expect(x[n >> 1]).toBeCloseTo(0.5, 1);
    expect(x[n]).toBe(1);
    expect(x[x.length >> 1]).toBe(1);
    for (let i = 1; i < n; i++) expect(x[i]!).toBeGreaterThanOrEqual(x[i - 1]!);
  });

  it('handles clips shorter than two fades', () => {
    const x = new Float32Array(10).fill(1);
    applyEdgeFades(x, SR, 5);
    expect(x[0]).toBeLessThan(0.2);
    expect(x[9]).toBeLessThan(0.2);
  });
});

describe('removeDc', () => {
  it('removes the mean in place', () => {
    const x = tone(100, SR, SR);
    for (let i = 0; i < x.length; i++) x[i] = x[i]! + 0.2;
    expect(removeDc(x)).toBe(x);
    expect(Math.abs(x.reduce((a, b) => a + b, 0) / x.length)).toBeLessThan(1e-6);
  });
});

describe('normalizeLoudness', () => {
  it.each([0.01, 0.1, 0.8])('brings an amplitude-%f tone to -20 dBFS RMS', (amp) => {
    const x = tone(440, SR, SR, amp);
    const gain = normalizeLoudness(x, SR, -20);
    expect(gain).toBeCloseTo((0.1 * Math.SQRT2) / amp, 5);
    expect(Math.abs(db(rms(x)) + 20)).toBeLessThan(0.2);
  });

  it('measures only speech-active frames, so pauses do not raise the gain', () => {
    const burst = tone(440, SR, SR / 2, 0.3);
    const x = concat([burst, new Float32Array(SR * 2), burst]);
    normalizeLoudness(x, SR, -20);
    expect(Math.abs(db(rms(x, 0, SR / 2)) + 20)).toBeLessThan(0.3);
  });

  it('limits peaks to 0.97 without hard clipping the rest', () => {
    // Speech-like crest factor: quiet body with a few loud spikes.
    const x = tone(200, SR, SR, 0.05);
    for (const at of [5000, 12000, 17000]) for (let i = 0; i < 50; i++) x[at + i] = 0.9 * Math.sin(i / 3);
    const original = x.slice();
    const gain = normalizeLoudness(x, SR, -12);
    expect(gain).toBeGreaterThan(2); // loud enough that the spikes must be limited
    let peak = 0;
    for (const v of x) peak = Math.max(peak, Math.abs(v));
    expect(peak).toBeLessThanOrEqual(0.97);
    expect(peak).toBeGreaterThan(0.9);
    // Far from the spikes the body is only scaled, not limited or distorted.
    for (let i = 8000; i < 11000; i += 37) expect(x[i]).toBeCloseTo(original[i]! * gain, 5);
  });

  it('returns 1 and leaves silence alone', () => {
    const x = new Float32Array(1000).fill(1e-5);
    expect(normalizeLoudness(x, SR)).toBe(1);
    expect(x[0]).toBeCloseTo(1e-5, 9);
    expect(normalizeLoudness(new Float32Array(0), SR)).toBe(1);
  });
});
