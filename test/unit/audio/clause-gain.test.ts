// A clause's SSML gain is applied after shaping (which normalises loudness and would undo it), never clips, and
// silences for -Infinity; a clause of another rate is brought to the pipeline's.

import { describe, expect, it } from 'vitest';
import { adjustClause } from '../../../src/audio/clause-gain.js';
import { shapeClause } from '../../../src/audio/clause-delivery.js';
import { db, rms, tone } from './signal-helpers.js';

const RATE = 16000;
const speechLike = () => tone(220, RATE, RATE / 2, 0.9);
const peak = (samples: Float32Array) => samples.reduce((max, sample) => Math.max(max, Math.abs(sample)), 0);

describe('adjustClause', () => {
  it('leaves a clause alone when it needs neither gain nor another rate (the pipeline shapes it)', () => {
    const samples = speechLike();
    const adjusted = adjustClause({ samples, sampleRateHz: RATE }, RATE, 0);
    expect(adjusted).toEqual({ samples, shaped: false, leadTrimmedMs: 0 });
  });

  it('-6 dB on an unshaped clause: shaped first, then 6 dB below the normalised loudness', () => {
    const samples = speechLike();
    const normal = shapeClause(samples, RATE).samples;
    const quieter = adjustClause({ samples, sampleRateHz: RATE }, RATE, -6);
    expect(quieter.shaped).toBe(true);
    expect(db(rms(quieter.samples) / rms(normal))).toBeCloseTo(-6, 1);
    // The engine's clip is not changed.
    expect(peak(samples)).toBeCloseTo(0.9, 3);
  });

  it('+6 dB on a shaped clause: louder, yet no sample beyond the limiter ceiling', () => {
    const shaped = shapeClause(speechLike(), RATE).samples;
    const louder = adjustClause({ samples: shaped, sampleRateHz: RATE, shaped: true }, RATE, 6);
    expect(db(rms(louder.samples) / rms(shaped))).toBeGreaterThan(3);
    expect(peak(louder.samples)).toBeLessThanOrEqual(0.97);
  });

  it('silent: samples of the same length, all zero', () => {
    const shaped = shapeClause(speechLike(), RATE).samples;
    const silent = adjustClause({ samples: shaped, sampleRateHz: RATE, shaped: true }, RATE, Number.NEGATIVE_INFINITY);
    expect(silent.samples.length).toBe(shaped.length);
    expect(peak(silent.samples)).toBe(0);
  });

  it('another rate: shaped and resampled to the pipeline rate, the same duration', () => {
    const samples = tone(220, 22050, 22050 / 2, 0.5);
    const adjusted = adjustClause({ samples, sampleRateHz: 22050 }, RATE, 0);
    expect(adjusted.shaped).toBe(true);
    expect(Math.abs(adjusted.samples.length - shapeClause(samples, 22050).samples.length * (RATE / 22050))).toBeLessThan(RATE / 100);
  });
});
