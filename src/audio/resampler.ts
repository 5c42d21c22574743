// Streaming sample-rate converter: Kaiser-windowed-sinc polyphase filter for any integer rate pair.
// Output sample n sits at input time n*fromHz/toHz with zero net delay; the stream holds back
// ~32 output-rate samples (4 ms at 8 kHz) until more input or flush() arrives.

/** Filter half-length in samples at the lower of the two rates; sets the transition width. */
const HALF_TAPS_AT_MIN_RATE = 32;
/** -6 dB point as a fraction of the lower rate: the 64-tap Kaiser transition (~0.078 fs) then ends at Nyquist,
 * so 8 kHz output keeps a flat 300-3400 Hz telephone band while aliases land >= 80 dB down. */
const CUTOFF_FRACTION_OF_MIN_RATE = 0.461;
/** Kaiser beta for ~80 dB stopband (0.1102 * (80 - 8.7)). */
const KAISER_BETA = 7.857;
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

function buildBank(fromHz: number, toHz: number, upPhases: number): FilterBank {
  const minRate = Math.min(fromHz, toHz);
  const cutoff = (CUTOFF_FRACTION_OF_MIN_RATE * minRate) / fromHz; // cycles per input sample
  const halfWidth = (HALF_TAPS_AT_MIN_RATE * fromHz) / minRate; // input samples
  const reach = Math.ceil(halfWidth);
  const taps = 2 * reach;
  const exact = upPhases * taps <= MAX_TABLE_COEFFS;
  const phases = exact ? upPhases : Math.max(64, Math.floor(MAX_TABLE_COEFFS / taps) - 1);
  const rows = exact ? phases : phases + 1;
  const table = new Float32Array(rows * taps);
  const i0Beta = besselI0(KAISER_BETA);
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
        h = 2 * cutoff * sinc * (besselI0(KAISER_BETA * Math.sqrt(1 - r * r)) / i0Beta);
      }
      table[p * taps + j] = h;
      sum += h;
    }
    // Unity DC gain on every phase, otherwise a constant input picks up a ripple at the phase period.
    if (sum !== 0) for (let j = 0; j < taps; j++) table[p * taps + j] = table[p * taps + j]! / sum;
  }
  return { taps, reach, phases, exact, table };
}

function getBank(fromHz: number, toHz: number, upPhases: number): FilterBank {
  const key = `${fromHz}:${toHz}`;
  let bank = bankCache.get(key);
  if (!bank) {
    bank = buildBank(fromHz, toHz, upPhases);
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
      this.bank = getBank(fromHz, toHz, this.up);
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
    this.ipos = ipos;
    this.frac = frac;
    // Keep only what the next output can still reach back to.
    const keepFrom = Math.min(ipos - reach + 1, lastAvailable + 1) - this.bufStart;
    if (keepFrom > 0) {
      buf.copyWithin(0, keepFrom, this.bufLen);
      this.bufLen -= keepFrom;
      this.bufStart += keepFrom;
    }
    return out.subarray(0, n);
  }
}
