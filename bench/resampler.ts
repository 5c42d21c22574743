// The resampler's polyphase loop in JavaScript against the WebAssembly SIMD kernel (src/audio/fir-kernel.ts), in one
// process, alternating, on the rate pairs a server uses: eSpeak's 22.05 kHz down to a call's 8 kHz (every clause of
// every call), a wideband caller's 16 kHz down to 8 kHz, and 22.05 kHz up to the API's 24 kHz. Each sample is one
// clause of 2.5 s resampled whole and flushed, as the engine threads do (src/audio/clause-delivery.ts). CPU
// milliseconds per second of input audio, p50 and p95 over BENCH_REPEATS (default 40) clauses a side; the kernel
// gives the same samples to 1e-6 (test/unit/audio/fir-kernel.test.ts), so this measures cost only.
// JSON: bench/results/resampler.json.

import { loadavg } from 'node:os';
import { Resampler } from '../src/audio/resampler.js';
import { round, summary, writeResult } from './lib/stats.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 40);
const CLAUSE_SECONDS = 2.5;
const PAIRS: Array<[number, number]> = [
  [22050, 8000],
  [16000, 8000],
  [22050, 24000],
];

/** Noise with a little structure: the filter's cost does not depend on what it filters. */
function clause(rateHz: number): Float32Array {
  const x = new Float32Array(Math.round(rateHz * CLAUSE_SECONDS));
  let seed = 3;
  for (let i = 0; i < x.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    x[i] = 0.3 * Math.sin(i * 0.07) + (seed / 2147483648 - 0.5) * 0.4;
  }
  return x;
}

/** CPU ms per second of input audio for one clause through a fresh resampler. */
function cost(from: number, to: number, simd: boolean, x: Float32Array): number {
  const before = process.cpuUsage();
  const resampler = new Resampler(from, to, undefined, { simd });
  resampler.process(x);
  resampler.flush();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / CLAUSE_SECONDS;
}

const loadBefore = loadavg()[0];
const pairs: Record<string, unknown> = {};
for (const [from, to] of PAIRS) {
  const x = clause(from);
  for (let i = 0; i < 5; i++) for (const simd of [false, true]) cost(from, to, simd, x); // warm-up: V8 and the kernel's tables
  const js: number[] = [];
  const simd: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    // Alternate which goes first, so neither always runs on a warmer cache.
    if (i % 2 === 0) {
      js.push(cost(from, to, false, x));
      simd.push(cost(from, to, true, x));
    } else {
      simd.push(cost(from, to, true, x));
      js.push(cost(from, to, false, x));
    }
  }
  pairs[`${from}->${to}`] = {
    cpuMsPerAudioSecondJs: summary(js),
    cpuMsPerAudioSecondSimd: summary(simd),
    simdOverJs: summary(simd.map((value, i) => value / js[i]!)),
  };
}
const file = await writeResult('resampler', { repeats: REPEATS, clauseSeconds: CLAUSE_SECONDS, loadBefore, loadAfter: loadavg()[0], pairs });
for (const [pair, value] of Object.entries(pairs)) {
  const v = value as { cpuMsPerAudioSecondJs: { p50: number }; cpuMsPerAudioSecondSimd: { p50: number }; simdOverJs: { p50: number; p95: number } };
  console.log(
    `resampler ${pair}: ${round(v.cpuMsPerAudioSecondJs.p50, 2)} → ${round(v.cpuMsPerAudioSecondSimd.p50, 2)} ms CPU per audio second (SIMD/JS p50 ${round(v.simdOverJs.p50, 2)}, p95 ${round(v.simdOverJs.p95, 2)})`,
  );
}
console.log(`→ ${file}`);
