// The resampler's WebAssembly SIMD kernel against the JavaScript loop it replaces: the same outputs (to single
// precision) for every rate pair, streamed in uneven chunks and flushed, with several banks and runs sharing one
// kernel; and the committed binary is what its text assembles to.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FirKernel, firKernel } from '../../../src/audio/fir-kernel.js';
import { PHONE_BAND, Resampler, TRANSPARENT, type FilterDesign } from '../../../src/audio/resampler.js';
import { assembleWat, watFiles } from '../../../scripts/assemble-wasm.js';
import { concat, tone } from './signal-helpers.js';

const WASM = new URL('../../../src/audio/fir-kernel.wasm', import.meta.url);

/** Speech-like input: two tones and deterministic noise, near full scale. */
function input(rateHz: number, length: number): Float32Array {
  const x = concat([tone(440, rateHz, length >> 1, 0.4), tone(2900, rateHz, length - (length >> 1), 0.3)]);
  let seed = 11;
  for (let i = 0; i < x.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    x[i] = x[i]! + (seed / 2147483648 - 0.5) * 0.5;
  }
  return x;
}

/** The whole stream through one resampler, in chunks of pseudo-random length (0 to 1499), then flushed. */
function streamed(resampler: Resampler, x: Float32Array, seed: number): Float32Array {
  const parts: Float32Array[] = [];
  for (let o = 0; o < x.length; ) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const n = seed % 1500;
    parts.push(resampler.process(x.subarray(o, o + n)));
    o += n;
  }
  parts.push(resampler.flush());
  return concat(parts);
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

// Every pair a call or the API uses, with taps per row that are and are not multiples of 4 (90 pads to 92).
const CASES: Array<[number, number, FilterDesign]> = [
  [22050, 8000, PHONE_BAND],
  [16000, 8000, PHONE_BAND],
  [22050, 8000, TRANSPARENT],
  [22050, 16000, TRANSPARENT],
  [22050, 24000, TRANSPARENT],
  [22050, 44100, TRANSPARENT],
  [22050, 48000, TRANSPARENT],
  [24000, 8000, PHONE_BAND],
  [8000, 16000, TRANSPARENT],
  [16000, 22050, TRANSPARENT],
];

describe('FIR kernel (WebAssembly SIMD)', () => {
  it('loads on this runtime, so resamplers use it', () => {
    expect(firKernel()).toBeInstanceOf(FirKernel);
  });

  it.each(CASES)('gives the JavaScript loop’s outputs to within 1e-6 of full scale (%i -> %i)', (from, to, design) => {
    // Earlier cases have left their rows and runs in the shared kernel's memory: a bank added now lands on that.
    const x = input(from, 3 * from);
    const simd = streamed(new Resampler(from, to, design), x, 5);
    const js = streamed(new Resampler(from, to, design, { simd: false }), x, 5);
    expect(simd.length).toBe(js.length);
    expect(maxDifference(simd, js)).toBeLessThan(1e-6);
    // and not by accident: the output carries the signal
    expect(Math.max(...simd.subarray(0, 4000).map(Math.abs))).toBeGreaterThan(0.3);
  });

  it('streams exactly: any chunking gives the same samples', () => {
    const x = input(22050, 22050 * 2);
    const first = streamed(new Resampler(22050, 8000), x, 3);
    const second = streamed(new Resampler(22050, 8000), x, 977);
    expect(Array.from(second)).toEqual(Array.from(first));
  });

  it('grows its memory for a long run and keeps reusing it', () => {
    const kernel = FirKernel.create(readFileSync(WASM));
    const x = input(22050, 22050 * 12); // 1 MB of samples: more than the initial 64 KiB page
    const table = kernel.addTable(new Float32Array([0.25, 0.5, 0.25, 0, 1, 0]), 3);
    const steps = { start: 0, lastStart: x.length - 3, frac: 0, stepWhole: 0, stepFrac: 1, up: 2 };
    const out = kernel.run({ leadingZeros: 0, samples: x, trailingZeros: 0 }, table, steps, 2 * x.length);
    expect(out.length).toBe(2 * (x.length - 2));
    for (const n of [0, 1, 2, 3, 1000, 1001, out.length - 2, out.length - 1]) {
      const start = n >> 1;
      const expected = n % 2 === 0 ? 0.25 * x[start]! + 0.5 * x[start + 1]! + 0.25 * x[start + 2]! : x[start + 1]!;
      expect(out[n]).toBeCloseTo(expected, 6);
    }
    const size = kernel.memoryBytes;
    expect(size).toBeGreaterThan(x.length * 4);
    for (let i = 0; i < 5; i++) kernel.run({ leadingZeros: 0, samples: x, trailingZeros: 0 }, table, steps, 2 * x.length);
    expect(kernel.memoryBytes).toBe(size);
  });

  it('refuses a run that would write past its output area', () => {
    const kernel = FirKernel.create(readFileSync(WASM));
    const table = kernel.addTable(new Float32Array([1, 0, 0, 0]), 4);
    const x = new Float32Array(100);
    expect(() => kernel.run({ leadingZeros: 0, samples: x.subarray(0, 100), trailingZeros: 0 }, table, { start: 0, lastStart: 50, frac: 0, stepWhole: 1, stepFrac: 0, up: 1 }, 10)).toThrow(/51 outputs into room for 10/);
  });

  it.each(watFiles())('the committed binary is what %s assembles to', async (watPath) => {
    const assembled = await assembleWat(watPath, readFileSync(watPath, 'utf8'));
    expect(Buffer.from(readFileSync(watPath.replace(/\.wat$/, '.wasm'))).equals(Buffer.from(assembled))).toBe(true);
  });
});
