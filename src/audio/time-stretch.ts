// Streaming WSOLA time-stretcher: changes tempo (duration / speed) and keeps pitch, for engines
// without a native speed control. Frames of 30 ms overlap by half with a Hann window; each frame's
// input position is nudged within +-8 ms to line up with the natural continuation of the previous one.

import { concatFloat32 } from './bytes.js';

const FRAME_MS = 30;
/** Must cover half a pitch period of low voices (~80 Hz -> 6 ms) so alignment can always find a match. */
const SEEK_MS = 8;
const MIN_SPEED = 0.5;
const MAX_SPEED = 2.0;

export class TimeStretcher {
  private readonly passthrough: boolean;
  private readonly frameLen: number; // N, even
  private readonly hopOut: number; // N / 2
  private readonly hopIn: number; // hopOut * speed (fractional)
  private readonly seek: number;
  private readonly window: Float32Array;

  private buf = new Float32Array(0);
  private bufLen = 0;
  private bufStart = 0; // absolute input index of buf[0]
  private inTotal = 0;
  private frameIndex = 0;
  /** Input index where the previous frame was taken from (-1 before the first frame). */
  private prevPos = -1;
  private acc: Float64Array;
  private wsum: Float64Array;
  private emitted = 0;

  constructor(
    readonly sampleRateHz: number,
    readonly speed: number,
  ) {
    if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) {
      throw new RangeError(`speed must be within ${MIN_SPEED}..${MAX_SPEED}, got ${speed}`);
    }
    this.passthrough = speed === 1;
    this.hopOut = Math.max(8, Math.round((sampleRateHz * FRAME_MS) / 2000));
    this.frameLen = this.hopOut * 2;
    this.hopIn = this.hopOut * speed;
    this.seek = Math.max(1, Math.round((sampleRateHz * SEEK_MS) / 1000));
    // Hann sampled at half-integer points: adjacent frames still sum to exactly 1 and no weight is 0,
    // so dividing by the summed window at the stream edges never divides by zero.
    this.window = new Float32Array(this.frameLen);
    for (let i = 0; i < this.frameLen; i++) {
      this.window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / this.frameLen);
    }
    this.acc = new Float64Array(this.frameLen);
    this.wsum = new Float64Array(this.frameLen);
    this.buf = new Float32Array(4 * this.frameLen);
  }

  process(input: Float32Array): Float32Array {
    if (this.passthrough) return input.slice();
    this.append(input);
    this.inTotal += input.length;
    return this.run(Number.POSITIVE_INFINITY);
  }

  /** Emits the tail so the total output is round(totalInput / speed) samples, then resets. */
  flush(): Float32Array {
    if (this.passthrough) return new Float32Array(0);
    const target = Math.round(this.inTotal / this.speed);
    // Silence past the end lets the last frames be built with the same code path.
    this.append(new Float32Array(this.seek + 2 * this.frameLen + Math.ceil(this.hopIn)));
    const body = this.run(target);
    const chunks: Float32Array[] = [body];
    if (this.emitted < target) {
      // Whatever the overlap buffer still holds, then silence if frames ran short.
      const rest = new Float32Array(target - this.emitted);
      const fromAcc = Math.min(rest.length, this.frameLen);
      for (let i = 0; i < fromAcc; i++) {
        const w = this.wsum[i]!;
        rest[i] = w > 1e-9 ? this.acc[i]! / w : 0;
      }
      chunks.push(rest);
    }
    const out = concatFloat32(chunks);
    this.reset();
    return out;
  }

  private reset(): void {
    this.bufLen = 0;
    this.bufStart = 0;
    this.inTotal = 0;
    this.frameIndex = 0;
    this.prevPos = -1;
    this.acc.fill(0);
    this.wsum.fill(0);
    this.emitted = 0;
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

  /** Builds frames while their input is buffered; emits finished output, at most up to `maxOut` total. */
  private run(maxOut: number): Float32Array {
    const N = this.frameLen;
    const H = this.hopOut;
    const available = this.bufStart + this.bufLen; // one past last absolute index
    const outChunks: Float32Array[] = [];
    while (this.emitted < maxOut) {
      const nominal = Math.round(this.frameIndex * this.hopIn);
      const natural = this.prevPos < 0 ? -1 : this.prevPos + H;
      const lastNeeded = Math.max(nominal + this.seek + N, natural + H);
      if (lastNeeded > available) break;
      const pos = natural < 0 ? nominal : this.align(nominal, natural);
      const base = pos - this.bufStart;
      for (let i = 0; i < N; i++) {
        const w = this.window[i]!;
        this.acc[i] = this.acc[i]! + w * this.buf[base + i]!;
        this.wsum[i] = this.wsum[i]! + w;
      }
      // The first half of this frame now has both overlapping contributions: it is final.
      const n = Math.min(H, maxOut - this.emitted);
      const done = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const w = this.wsum[i]!;
        done[i] = w > 1e-9 ? this.acc[i]! / w : 0;
      }
      outChunks.push(done);
      this.emitted += n;
      this.acc.copyWithin(0, H);
      this.acc.fill(0, N - H);
      this.wsum.copyWithin(0, H);
      this.wsum.fill(0, N - H);
      this.prevPos = pos;
      this.frameIndex++;
    }
    // Drop input no future frame or alignment reference can reach.
    const nextNominal = Math.round(this.frameIndex * this.hopIn);
    const keepFrom = Math.max(0, Math.min(nextNominal - this.seek, this.prevPos < 0 ? 0 : this.prevPos + H) - this.bufStart);
    if (keepFrom > 0) {
      const k = Math.min(keepFrom, this.bufLen);
      this.buf.copyWithin(0, k, this.bufLen);
      this.bufLen -= k;
      this.bufStart += k;
    }
    return outChunks.length === 0 ? new Float32Array(0) : concatFloat32(outChunks);
  }

  /**
   * Offset within +-seek of `nominal` whose first half-frame best matches (normalised cross-correlation)
   * the samples that would naturally follow the previous frame. Coarse search on every 2nd sample and lag,
   * then a full-resolution refinement around the winner, to keep cost ~4x below an exhaustive search.
   */
  private align(nominal: number, natural: number): number {
    const H = this.hopOut;
    const buf = this.buf;
    const ref = natural - this.bufStart;
    const lo = Math.max(nominal - this.seek, this.bufStart);
    const hi = nominal + this.seek;
    const score = (cand: number, step: number): number => {
      const c = cand - this.bufStart;
      let xy = 0;
      let yy = 0;
      for (let i = 0; i < H; i += step) {
        const y = buf[c + i]!;
        xy += buf[ref + i]! * y;
        yy += y * y;
      }
      return yy > 1e-12 ? xy / Math.sqrt(yy) : 0;
    };
    // Start from the nominal position so silence (all scores 0) does not drift the read point.
    let best = nominal;
    let bestScore = score(nominal, 2);
    for (let cand = lo; cand <= hi; cand += 2) {
      const s = score(cand, 2);
      if (s > bestScore) {
        bestScore = s;
        best = cand;
      }
    }
    const coarse = best;
    bestScore = score(coarse, 1);
    for (let cand = Math.max(lo, coarse - 2); cand <= Math.min(hi, coarse + 2); cand++) {
      const s = score(cand, 1);
      if (s > bestScore) {
        bestScore = s;
        best = cand;
      }
    }
    return best;
  }
}
