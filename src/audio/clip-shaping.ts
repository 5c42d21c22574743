// Per-clause shaping before clauses are joined: DC removal, silence trimming, loudness normalisation
// with a peak limiter, and raised-cosine edge fades. Goal: every sentence equally loud, no clicks at joins.

export interface TrimOptions {
  /** Samples quieter than this (peak, dBFS) count as silence. */
  thresholdDbfs?: number;
  /** Silence kept before the first and after the last loud sample, so soft onsets are not cut. */
  keepMs?: number;
}

/** Subarray (no copy) without leading/trailing silence; empty if the whole clip is silent. */
export function trimSilence(samples: Float32Array, sampleRateHz: number, opts: TrimOptions = {}): Float32Array {
  const thresholdDbfs = opts.thresholdDbfs ?? -50;
  const keepMs = opts.keepMs ?? 20;
  const threshold = 10 ** (thresholdDbfs / 20);
  let first = -1;
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i]!) > threshold) {
      first = i;
      break;
    }
  }
  if (first < 0) return samples.subarray(0, 0);
  let last = first;
  for (let i = samples.length - 1; i > first; i--) {
    if (Math.abs(samples[i]!) > threshold) {
      last = i;
      break;
    }
  }
  const keep = Math.round((keepMs * sampleRateHz) / 1000);
  return samples.subarray(Math.max(0, first - keep), Math.min(samples.length, last + 1 + keep));
}

/** Raised-cosine fade-in and fade-out, in place; fades shrink to half the clip if it is short. Returns `samples`. */
export function applyEdgeFades(samples: Float32Array, sampleRateHz: number, fadeMs = 5): Float32Array {
  const n = Math.min(Math.round((fadeMs * sampleRateHz) / 1000), samples.length >> 1);
  const last = samples.length - 1;
  for (let i = 0; i < n; i++) {
    // (i + 0.5) so neither the first nor the last sample of the ramp is exactly the clip edge value.
    const g = 0.5 - 0.5 * Math.cos((Math.PI * (i + 0.5)) / n);
    samples[i] = samples[i]! * g;
    samples[last - i] = samples[last - i]! * g;
  }
  return samples;
}

/** Subtracts the mean, in place. Formant synthesizers can leave an offset that clicks when clauses butt together. */
export function removeDc(samples: Float32Array): Float32Array {
  if (samples.length === 0) return samples;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]!;
  const mean = sum / samples.length;
  if (mean === 0) return samples;
  for (let i = 0; i < samples.length; i++) samples[i] = samples[i]! - mean;
  return samples;
}

const FRAME_MS = 20;
/** Frames this far below the loudest frame are pauses or breath, not speech. */
const ACTIVE_RANGE_DB = 30;
/** Below this the clip is treated as silence and left alone (no point amplifying noise). */
const SILENCE_FLOOR_DBFS = -70;
/** Gain cap so a near-silent clause is not pumped up by 50 dB. */
const MAX_GAIN_DB = 30;
const LIMIT_CEILING = 0.97;
/** Limiter gain is built against a lower target so the smoothed gain cannot overshoot the ceiling. */
const LIMIT_TARGET = 0.95;
const LIMIT_WINDOW_MS = 2;

/**
 * In place: scales so the RMS of speech-active 20 ms frames equals `targetDbfs`, then limits peaks softly
 * (smoothed look-ahead gain) so no |sample| exceeds 0.97. Returns the normalisation gain (linear; 1 if silent).
 */
export function normalizeLoudness(samples: Float32Array, sampleRateHz: number, targetDbfs = -20): number {
  const frameLen = Math.max(1, Math.round((FRAME_MS * sampleRateHz) / 1000));
  const frames = Math.ceil(samples.length / frameLen);
  if (frames === 0) return 1;
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
  if (maxMeanSq <= 10 ** (SILENCE_FLOOR_DBFS / 10)) return 1;
  const activeFloor = maxMeanSq * 10 ** (-ACTIVE_RANGE_DB / 10);
  let activeEnergy = 0;
  let activeCount = 0;
  for (let f = 0; f < frames; f++) {
    const len = Math.min(samples.length, (f + 1) * frameLen) - f * frameLen;
    if (energy[f]! / len >= activeFloor) {
      activeEnergy += energy[f]!;
      activeCount += len;
    }
  }
  const activeRms = Math.sqrt(activeEnergy / activeCount);
  const gain = Math.min(10 ** (targetDbfs / 20) / activeRms, 10 ** (MAX_GAIN_DB / 20));
  for (let i = 0; i < samples.length; i++) samples[i] = samples[i]! * gain;
  limitPeaks(samples, sampleRateHz);
  return gain;
}

/**
 * Look-ahead limiter: per-sample required gain, a moving minimum over +-W, then a moving average of
 * width W+1. Every sample in the averaging window has min-gain <= the centre's required gain, so the
 * result never exceeds LIMIT_TARGET, and the gain changes over ~2 ms instead of clipping the waveform.
 * In place; also what keeps an SSML volume gain from clipping (clause-gain.ts).
 */
export function limitPeaks(samples: Float32Array, sampleRateHz: number): void {
  let peak = 0;
  for (let i = 0; i < samples.length; i++) peak = Math.max(peak, Math.abs(samples[i]!));
  if (peak <= LIMIT_TARGET) return;
  const n = samples.length;
  const w = Math.max(1, Math.round((LIMIT_WINDOW_MS * sampleRateHz) / 1000));
  const required = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.abs(samples[i]!);
    required[i] = a > LIMIT_TARGET ? LIMIT_TARGET / a : 1;
  }
  const minGain = movingMin(required, w);
  // Moving average of width 2*half+1 <= w+1 via prefix sums.
  const half = w >> 1;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + minGain[i]!;
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - half);
    const hi = Math.min(n - 1, i + half);
    const g = (prefix[hi + 1]! - prefix[lo]!) / (hi - lo + 1);
    let y = samples[i]! * g;
    // Float rounding guard only; the construction above already keeps |y| <= LIMIT_TARGET.
    if (y > LIMIT_CEILING) y = LIMIT_CEILING;
    else if (y < -LIMIT_CEILING) y = -LIMIT_CEILING;
    samples[i] = y;
  }
}

/** min(x[i-w .. i+w]) for every i, O(n) with a monotonic deque. */
function movingMin(x: Float32Array, w: number): Float32Array {
  const n = x.length;
  const out = new Float32Array(n);
  const deque = new Int32Array(n);
  let head = 0;
  let tail = 0;
  let next = 0; // next index to push
  for (let i = 0; i < n; i++) {
    const right = Math.min(n - 1, i + w);
    while (next <= right) {
      while (tail > head && x[deque[tail - 1]!]! >= x[next]!) tail--;
      deque[tail++] = next++;
    }
    while (deque[head]! < i - w) head++;
    out[i] = x[deque[head]!]!;
  }
  return out;
}
