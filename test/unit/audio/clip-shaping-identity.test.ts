// shapeCopy and the stretch-wise limiter against the shaping they replaced, kept here verbatim as the reference:
// removeDc, trimSilence, normalizeLoudness (with the whole-clip limiter) and applyEdgeFades on a copy. The samples
// must match bit for bit, so every clause anyone hears keeps its bytes (cached prompts, golden hashes).

import { describe, expect, it } from 'vitest';
import { applyEdgeFades, limitPeaks, shapeCopy } from '../../../src/audio/clip-shaping.js';
import { EspeakSynth } from '../../../src/engine/espeak/espeak-synth.js';

// ---- the reference: the shaping as it was before shapeCopy ----------------------------------------------------

function referenceShape(input: Float32Array, rateHz: number): { clip: Float32Array; leadTrimmed: number } {
  const copy = input.slice();
  // removeDc
  if (copy.length > 0) {
    let sum = 0;
    for (let i = 0; i < copy.length; i++) sum += copy[i]!;
    const mean = sum / copy.length;
    if (mean !== 0) for (let i = 0; i < copy.length; i++) copy[i] = copy[i]! - mean;
  }
  // trimSilence (-50 dBFS, 20 ms kept)
  const threshold = 10 ** (-50 / 20);
  let first = -1;
  for (let i = 0; i < copy.length; i++) {
    if (Math.abs(copy[i]!) > threshold) {
      first = i;
      break;
    }
  }
  let clip: Float32Array;
  if (first < 0) clip = copy.subarray(0, 0);
  else {
    let last = first;
    for (let i = copy.length - 1; i > first; i--) {
      if (Math.abs(copy[i]!) > threshold) {
        last = i;
        break;
      }
    }
    const keep = Math.round((20 * rateHz) / 1000);
    clip = copy.subarray(Math.max(0, first - keep), Math.min(copy.length, last + 1 + keep));
  }
  referenceNormalize(clip, rateHz, -20);
  applyEdgeFades(clip, rateHz, 5);
  return { clip, leadTrimmed: clip.byteOffset / Float32Array.BYTES_PER_ELEMENT };
}

function referenceNormalize(samples: Float32Array, rateHz: number, targetDbfs: number): void {
  const frameLen = Math.max(1, Math.round((20 * rateHz) / 1000));
  const frames = Math.ceil(samples.length / frameLen);
  if (frames === 0) return;
  const energy = new Float64Array(frames);
  let maxMeanSq = 0;
  for (let f = 0; f < frames; f++) {
    const start = f * frameLen;
    const end = Math.min(samples.length, start + frameLen);
    let e = 0;
    for (let i = start; i < end; i++) e += samples[i]! * samples[i]!;
    energy[f] = e;
    maxMeanSq = Math.max(maxMeanSq, e / (end - start));
  }
  if (maxMeanSq <= 10 ** (-70 / 10)) return;
  const activeFloor = maxMeanSq * 10 ** (-30 / 10);
  let activeEnergy = 0;
  let activeCount = 0;
  for (let f = 0; f < frames; f++) {
    const len = Math.min(samples.length, (f + 1) * frameLen) - f * frameLen;
    if (energy[f]! / len >= activeFloor) {
      activeEnergy += energy[f]!;
      activeCount += len;
    }
  }
  const gain = Math.min(10 ** (targetDbfs / 20) / Math.sqrt(activeEnergy / activeCount), 10 ** (30 / 20));
  for (let i = 0; i < samples.length; i++) samples[i] = samples[i]! * gain;
  referenceLimit(samples, rateHz);
}

function referenceLimit(samples: Float32Array, rateHz: number): void {
  let peak = 0;
  for (let i = 0; i < samples.length; i++) peak = Math.max(peak, Math.abs(samples[i]!));
  if (peak <= 0.95) return;
  const n = samples.length;
  const w = Math.max(1, Math.round((2 * rateHz) / 1000));
  const required = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.abs(samples[i]!);
    required[i] = a > 0.95 ? 0.95 / a : 1;
  }
  const minGain = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let m = Infinity;
    for (let k = Math.max(0, i - w); k <= Math.min(n - 1, i + w); k++) m = Math.min(m, required[k]!);
    minGain[i] = m;
  }
  const half = w >> 1;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + minGain[i]!;
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - half);
    const hi = Math.min(n - 1, i + half);
    let y = samples[i]! * ((prefix[hi + 1]! - prefix[lo]!) / (hi - lo + 1));
    if (y > 0.97) y = 0.97;
    else if (y < -0.97) y = -0.97;
    samples[i] = y;
  }
}

// ---- inputs -----------------------------------------------------------------------------------------------------

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Speech-like bursts: tones with an envelope and noise, silence around them, peaks placed at random. */
function burstClip(seed: number, rateHz: number, seconds: number, options: { dc?: number; peakScale?: number } = {}): Float32Array {
  const next = random(seed);
  const out = new Float32Array(Math.round(seconds * rateHz));
  const lead = Math.floor(next() * 0.2 * rateHz);
  for (let i = lead; i < out.length - lead; i++) {
    const t = i / rateHz;
    const envelope = Math.max(0, Math.sin(Math.PI * 3 * t)) ** 2;
    out[i] = envelope * (0.3 * Math.sin(2 * Math.PI * 140 * t) + 0.15 * Math.sin(2 * Math.PI * 910 * t) + 0.05 * (next() - 0.5));
  }
  for (let p = 0; p < 12; p++) out[lead + Math.floor(next() * (out.length - 2 * lead))]! *= options.peakScale ?? 4;
  if (options.dc !== undefined) for (let i = 0; i < out.length; i++) out[i] = out[i]! + options.dc;
  return out;
}

function expectSameSamples(actual: Float32Array, expected: Float32Array): void {
  expect(actual.length).toBe(expected.length);
  expect(Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength))).toBe(true);
}

describe('shapeCopy is the old shaping, bit for bit', () => {
  const cases: Array<[string, Float32Array, number]> = [];
  for (const rateHz of [8000, 16000, 22050, 24000]) {
    cases.push([`bursts at ${rateHz} Hz`, burstClip(rateHz, rateHz, 2.5), rateHz]);
    cases.push([`bursts with a DC offset at ${rateHz} Hz`, burstClip(rateHz + 1, rateHz, 1.2, { dc: 0.02 }), rateHz]);
    cases.push([`bursts beyond full scale at ${rateHz} Hz`, burstClip(rateHz + 2, rateHz, 1.5, { peakScale: 12 }), rateHz]);
  }
  cases.push(['silence', new Float32Array(4000), 22050]);
  cases.push(['below the trim threshold', new Float32Array(4000).fill(0.001), 22050]);
  cases.push(['one sample', Float32Array.of(0.5), 22050]);
  cases.push(['empty', new Float32Array(0), 22050]);
  cases.push(['a square wave that the limiter holds throughout', Float32Array.from({ length: 9000 }, (_, i) => (i % 200 < 100 ? 0.9 : -0.9)), 22050]);

  it('the cases reach the limiter, some of them throughout', () => {
    const limited = cases.filter(([, input, rateHz]) => referenceShape(input, rateHz).clip.some((sample) => Math.abs(sample) >= 0.9));
    expect(limited.length).toBeGreaterThanOrEqual(6);
  });

  it.each(cases)('%s', (_name, input, rateHz) => {
    const before = input.slice();
    const shaped = shapeCopy(input, rateHz, { targetDbfs: -20, fadeMs: 5 });
    const reference = referenceShape(input, rateHz);
    expectSameSamples(shaped.clip, reference.clip);
    expect(shaped.leadTrimmed).toBe(reference.leadTrimmed);
    expectSameSamples(input, before);
  });

  it('eSpeak clauses in three languages, at two speeds', async () => {
    const synth = await EspeakSynth.create();
    const voice = { pitchBaseHz: 86, pitchMaxHz: 125, formants: [[100, 100], [102, 100], [104, 100], [106, 115], [107, 115], [108, 115]] as const, breath: 0, roughness: 2, intonationRange: 50, wordsPerMinute: 175 };
    for (const [espeakLanguage, text] of [['hi', 'आपके खाते में पाँच सौ रुपये शेष हैं।'], ['en', 'Your bill is due on Friday.'], ['ta', 'உங்கள் கணக்கில் ஐநூறு ரூபாய் உள்ளது.']] as const) {
      for (const speed of [1, 1.4]) {
        const clip = synth.synthesize({ text, espeakLanguage, voice, speed, pitchShiftSemitones: 0 });
        const shaped = shapeCopy(clip.samples, synth.sampleRateHz, { targetDbfs: -20, fadeMs: 5 });
        const reference = referenceShape(clip.samples, synth.sampleRateHz);
        expectSameSamples(shaped.clip, reference.clip);
        expect(shaped.leadTrimmed).toBe(reference.leadTrimmed);
      }
    }
  });
});

describe('limitPeaks works stretch by stretch', () => {
  it.each([
    ['two peaks just far enough apart for two stretches', 2],
    ['two peaks one sample closer, one stretch', 1],
  ])('%s', (_name, extra) => {
    const rateHz = 22050;
    const w = Math.round((2 * rateHz) / 1000);
    const reach = w + (w >> 1);
    const input = Float32Array.from({ length: 2000 }, (_, i) => 0.5 * Math.sin(i / 7));
    input[600] = 1.4;
    input[600 + 2 * reach + extra] = -1.2;
    const limited = input.slice();
    limitPeaks(limited, rateHz);
    const reference = input.slice();
    referenceLimit(reference, rateHz);
    expectSameSamples(limited, reference);
    expect(Math.max(...limited.map(Math.abs))).toBeLessThanOrEqual(0.97);
    // Far from both peaks nothing changed.
    expect(limited[100]).toBe(input[100]);
    expect(limited[1900]).toBe(input[1900]);
  });
});
