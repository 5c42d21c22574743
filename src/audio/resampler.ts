// Streaming sample-rate converter: Kaiser-windowed-sinc polyphase filter for any integer rate pair.
// Output sample n sits at input time n*fromHz/toHz with zero net delay; the stream holds back
// half a filter of output-rate samples (4 ms at 8 kHz, 1.75 ms with the phone-band filter) until more input or
// flush() arrives. Two filter designs: transparent (the default) and, for anything brought down to the phone
// rate, a phone-band one with well under half the taps. Exact banks run in WebAssembly SIMD (fir-kernel.ts) where
// the runtime has it, the same loop in JavaScript otherwise.

import { firKernel, type FirKernel, type KernelTable } from './fir-kernel.js';

/** One windowed-sinc design: its length, where it cuts and how deep its stopband is. */
export interface FilterDesign {
  /** Filter half-length in samples at the lower of the two rates; sets the transition width. */
  readonly halfTapsAtMinRate: number;
  /** -6 dB point as a fraction of the lower rate. */
  readonly cutoffFractionOfMinRate: number;
  /** Kaiser beta: 0.1102 * (stopband dB - 8.7). */
  readonly kaiserBeta: number;
}

/**
 * 64 taps at the lower rate, cut at 0.461 of it: the Kaiser transition (~0.078 fs) ends at Nyquist, so nothing
 * aliases at all (>= 80 dB down) and 8 kHz output keeps a flat 300-3400 Hz telephone band. 178 taps at 22.05 kHz.
 */
export const TRANSPARENT: FilterDesign = { halfTapsAtMinRate: 32, cutoffFractionOfMinRate: 0.461, kaiserBeta: 7.857 };

/**
 * Down to 8 kHz (phone calls: synthesis at 22.05 kHz, wideband caller audio at 16 kHz): 32 taps at 8 kHz (90 at
 * 22.05 kHz, 64 at 16 kHz), half of TRANSPARENT's, which was a fifth of the engine threads' time on a speaking call
 * (docs/notes/performance-history.md). The same roll-off where the caller hears it (-0.3 dB at 3.4 kHz, -2.2 dB at 3.6 kHz),
 * -18 dB at 4 kHz and >= 73 dB down from 4.6 kHz on, so nothing aliases into the telephone band: only 4-4.6 kHz
 * folds back, at least 18 dB down, onto 3.4-4 kHz, which the telephone band leaves out. On speech, inside
 * 300-3400 Hz the two designs differ by less than mu-law's own noise (test/integration/audio).
 */
export const PHONE_BAND: FilterDesign = { halfTapsAtMinRate: 16, cutoffFractionOfMinRate: 0.47, kaiserBeta: 6.76 };

/** The phone rate: output at this rate is telephone audio. */
const PHONE_RATE_HZ = 8000;

/** The design a rate pair gets unless told: PHONE_BAND down to 8 kHz, TRANSPARENT otherwise. */
export function filterDesignFor(fromHz: number, toHz: number): FilterDesign {
  return toHz === PHONE_RATE_HZ && fromHz > toHz ? PHONE_BAND : TRANSPARENT;
}

/** Above this many coefficients we stop storing one row per exact phase and interpolate between rows. */
const MAX_TABLE_COEFFS = 1 << 18;

interface FilterBank {
  /** Taps per phase. */
  readonly taps: number;
  /** Input samples after the centre sample that a phase reads (taps = 2 * reach). */
  readonly reach: number;
  /** Rows in the table (exact path: L; interpolated path: rows + 1 entries stored). */
  readonly phases: number;
  /** Whether phases === L, i.e. every output uses one exact row. */
  readonly exact: boolean;
  readonly table: Float32Array;
}

// Tables depend only on the rate pair; pipelines are per utterance, so share them.
const bankCache = new Map<string, FilterBank>();

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

function besselI0(x: number): number {
  // Power series; converges fast for the beta range used here.
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 50; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}

function buildBank(fromHz: number, toHz: number, upPhases: number, design: FilterDesign): FilterBank {
  const minRate = Math.min(fromHz, toHz);
  const cutoff = (design.cutoffFractionOfMinRate * minRate) / fromHz; // cycles per input sample
  const halfWidth = (design.halfTapsAtMinRate * fromHz) / minRate; // input samples
  const reach = Math.ceil(halfWidth);
  const taps = 2 * reach;
  const exact = upPhases * taps <= MAX_TABLE_COEFFS;
  const phases = exact ? upPhases : Math.max(64, Math.floor(MAX_TABLE_COEFFS / taps) - 1);
  const rows = exact ? phases : phases + 1;
  const table = new Float32Array(rows * taps);
  const i0Beta = besselI0(design.kaiserBeta);
  for (let p = 0; p < rows; p++) {
    const frac = p / phases;
    let sum = 0;
    for (let j = 0; j < taps; j++) {
      const tau = frac + reach - 1 - j;
      let h = 0;
      const r = tau / halfWidth;
      if (Math.abs(r) < 1) {
        const x = 2 * cutoff * tau;
        const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
        h = 2 * cutoff * sinc * (besselI0(design.kaiserBeta * Math.sqrt(1 - r * r)) / i0Beta);
      }
      table[p * taps + j] = h;
      sum += h;
    }
    // Unity DC gain on every phase, otherwise a constant input picks up a ripple at the phase period.
    if (sum !== 0) for (let j = 0; j < taps; j++) table[p * taps + j] = table[p * taps + j]! / sum;
  }
  return { taps, reach, phases, exact, table };
}

/** Each exact bank's rows in this thread's kernel, copied in when the first resampler on the bank is made. */
const kernelTables = new WeakMap<FilterBank, KernelTable>();

function kernelTable(kernel: FirKernel, bank: FilterBank): KernelTable {
  let table = kernelTables.get(bank);
  if (!table) {
    table = kernel.addTable(bank.table, bank.taps);
    kernelTables.set(bank, table);
  }
  return table;
}

/** How a resampler computes. */
export interface ResamplerOptions {
  /** Use the WebAssembly SIMD kernel for exact banks where available (default true); false keeps the JavaScript loop. */
  readonly simd?: boolean;
}

function getBank(fromHz: number, toHz: number, upPhases: number, design: FilterDesign): FilterBank {
  const key = `${fromHz}:${toHz}:${design.halfTapsAtMinRate}:${design.cutoffFractionOfMinRate}:${design.kaiserBeta}`;
  let bank = bankCache.get(key);
  if (!bank) {
    bank = buildBank(fromHz, toHz, upPhases, design);
    bankCache.set(key, bank);
  }
  return bank;
}

export class Resampler {
  private readonly identity: boolean;
  private readonly up: number; // L: output steps per `down` input steps
  private readonly down: number; // M
  private readonly stepWhole: number;
  private readonly stepFrac: number;
  private readonly bank: FilterBank | undefined;
  /** The SIMD kernel and this bank's rows in it, when the resampler runs there. */
  private readonly simd: { readonly kernel: FirKernel; readonly table: KernelTable } | undefined;

  private buf = new Float32Array(0);
  private bufLen = 0;
  /** Absolute input index of buf[0]; negative at the start because of the zero history. */
  private bufStart = 0;
  /** Integer part of the input time of the next output sample. */
  private ipos = 0;
  /** Fractional part of that time, in units of 1/up. */
  private frac = 0;
  private inTotal = 0;

  constructor(
    readonly fromHz: number,
    readonly toHz: number,
    design: FilterDesign = filterDesignFor(fromHz, toHz),
    options: ResamplerOptions = {},
  ) {
    if (!Number.isInteger(fromHz) || !Number.isInteger(toHz) || fromHz <= 0 || toHz <= 0) {
      throw new RangeError(`Resampler needs positive integer rates, got ${fromHz} -> ${toHz}`);
    }
    this.identity = fromHz === toHz;
    const g = gcd(fromHz, toHz);
    this.up = toHz / g;
    this.down = fromHz / g;
    this.stepWhole = Math.floor(this.down / this.up);
    this.stepFrac = this.down % this.up;
    if (!this.identity) {
      this.bank = getBank(fromHz, toHz, this.up, design);
      const kernel = this.bank.exact && options.simd !== false ? firKernel() : null;
      if (kernel) this.simd = { kernel, table: kernelTable(kernel, this.bank) };
      this.reset();
    }
  }

  /** Converts the next chunk. Identity rates return a copy of the input. */
  process(input: Float32Array): Float32Array {
    if (this.identity || !this.bank) return input.slice();
    this.append(input);
    this.inTotal += input.length;
    return this.run(Number.POSITIVE_INFINITY);
  }

  /** Emits the held-back tail (treating the future as silence) and resets for a new stream. */
  flush(): Float32Array {
    if (this.identity || !this.bank) return new Float32Array(0);
    this.append(new Float32Array(this.bank.reach + 1));
    const out = this.run(this.inTotal);
    this.reset();
    return out;
  }

  /**
   * A whole clip on a fresh resampler, the future taken as silence: what process(input) then flush() return
   * together, in one run and, with the SIMD kernel, without copying the input into the stream's buffer first.
   * The resampler stays fresh.
   */
  resampleWhole(input: Float32Array): Float32Array {
    if (this.identity || !this.bank) return input.slice();
    const { reach } = this.bank;
    if (this.inTotal !== 0 || this.bufLen !== reach - 1) throw new Error('resampleWhole needs a fresh resampler');
    if (!this.simd || input.length === 0) {
      this.append(input);
      this.inTotal = input.length;
      return this.flush();
    }
    // The buffer flush() would filter: reach - 1 zeros of history, the clip, reach + 1 zeros of future; the
    // outputs are centred on every input sample's time up to the clip's last (tapOffset 0: bufStart = 1 - reach).
    const lastCentre = input.length - 1;
    const bound = Math.floor((input.length * this.up) / this.down) + 2;
    return this.simd.kernel.run(
      { leadingZeros: reach - 1, samples: input, trailingZeros: reach + 1 },
      this.simd.table,
      { start: 0, lastStart: lastCentre, frac: 0, stepWhole: this.stepWhole, stepFrac: this.stepFrac, up: this.up },
      bound,
    );
  }

  private reset(): void {
    const reach = this.bank!.reach;
    // reach-1 zeros of history so the first output (centred on input 0) has all its left taps.
    this.buf = new Float32Array(Math.max(1024, 4 * reach));
    this.bufLen = reach - 1;
    this.bufStart = -(reach - 1);
    this.ipos = 0;
    this.frac = 0;
    this.inTotal = 0;
  }

  private append(input: Float32Array): void {
    const needed = this.bufLen + input.length;
    if (needed > this.buf.length) {
      const grown = new Float32Array(Math.max(needed, this.buf.length * 2));
      grown.set(this.buf.subarray(0, this.bufLen));
      this.buf = grown;
    }
    this.buf.set(input, this.bufLen);
    this.bufLen = needed;
  }

  /** Produces every output whose taps are buffered and whose centre lies before `limit`. */
  private run(limit: number): Float32Array {
    const { taps, reach, phases, exact, table } = this.bank!;
    const buf = this.buf;
    const up = this.up;
    const lastAvailable = this.bufStart + this.bufLen - 1;
    const lastCentre = Math.min(lastAvailable - reach, limit - 1);
    if (lastCentre < this.ipos) return new Float32Array(0);
    const bound = Math.floor(((lastCentre - this.ipos + 1) * up) / this.down) + 2;
    if (this.simd) return this.runKernel(this.simd.kernel, this.simd.table, lastCentre, bound);
    const out = new Float32Array(bound);
    let n = 0;
    let ipos = this.ipos;
    let frac = this.frac;
    while (ipos <= lastCentre) {
      const start = ipos - reach + 1 - this.bufStart;
      let y: number;
      if (exact) {
        const base = frac * taps;
        // Four independent accumulators: ~2x faster in V8 than one dependent chain (taps is always even).
        let a0 = 0;
        let a1 = 0;
        let a2 = 0;
        let a3 = 0;
        let j = 0;
        for (; j + 3 < taps; j += 4) {
          a0 += buf[start + j]! * table[base + j]!;
          a1 += buf[start + j + 1]! * table[base + j + 1]!;
          a2 += buf[start + j + 2]! * table[base + j + 2]!;
          a3 += buf[start + j + 3]! * table[base + j + 3]!;
        }
        for (; j < taps; j++) a0 += buf[start + j]! * table[base + j]!;
        y = a0 + a1 + (a2 + a3);
      } else {
        const pos = (frac * phases) / up;
        const row = Math.floor(pos);
        const a = pos - row;
        const b0 = row * taps;
        const b1 = b0 + taps;
        let acc0 = 0;
        let acc1 = 0;
        for (let j = 0; j < taps; j++) {
          const x = buf[start + j]!;
          acc0 += x * table[b0 + j]!;
          acc1 += x * table[b1 + j]!;
        }
        y = acc0 + a * (acc1 - acc0);
      }
      out[n++] = y;
      ipos += this.stepWhole;
      frac += this.stepFrac;
      if (frac >= up) {
        frac -= up;
        ipos += 1;
      }
    }
    this.advance(ipos, frac);
    return out.subarray(0, n);
  }

  /** The same outputs as the loop in run(), from the SIMD kernel; the phases it stepped through are recomputed here. */
  private runKernel(kernel: FirKernel, table: KernelTable, lastCentre: number, bound: number): Float32Array {
    // The output centred on input c reads the buffer from index c - tapOffset.
    const tapOffset = this.bufStart + this.bank!.reach - 1;
    const out = kernel.run(
      { leadingZeros: 0, samples: this.buf.subarray(0, this.bufLen), trailingZeros: 0 },
      table,
      { start: this.ipos - tapOffset, lastStart: lastCentre - tapOffset, frac: this.frac, stepWhole: this.stepWhole, stepFrac: this.stepFrac, up: this.up },
      bound,
    );
    const fracSum = this.frac + out.length * this.stepFrac;
    this.advance(this.ipos + out.length * this.stepWhole + Math.floor(fracSum / this.up), fracSum % this.up);
    return out;
  }

  /** Moves to the next output's input time and drops what no later output can reach back to. */
  private advance(ipos: number, frac: number): void {
    const { reach } = this.bank!;
    const lastAvailable = this.bufStart + this.bufLen - 1;
    this.ipos = ipos;
    this.frac = frac;
    const keepFrom = Math.min(ipos - reach + 1, lastAvailable + 1) - this.bufStart;
    if (keepFrom > 0) {
      this.buf.copyWithin(0, keepFrom, this.bufLen);
      this.bufLen -= keepFrom;
      this.bufStart += keepFrom;
    }
  }
}
