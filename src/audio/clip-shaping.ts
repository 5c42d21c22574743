// Per-clause shaping before clauses are joined: DC removal, silence trimming, loudness normalisation
// with a peak limiter, and raised-cosine edge fades. Goal: every sentence equally loud, no clicks at joins.

/** trimSilence's defaults: quieter than -50 dBFS is silence; 20 ms of it kept at each end. */
const TRIM_THRESHOLD_DBFS = -50;
const TRIM_KEEP_MS = 20;

export interface TrimOptions {
  /** Samples quieter than this (peak, dBFS) count as silence. */
  thresholdDbfs?: number;
  /** Silence kept before the first and after the last loud sample, so soft onsets are not cut. */
  keepMs?: number;
}

/** Subarray (no copy) without leading/trailing silence; empty if the whole clip is silent. */
export function trimSilence(samples: Float32Array, sampleRateHz: number, opts: TrimOptions = {}): Float32Array {
  const range = audibleRange(samples, 0, sampleRateHz, opts);
  return range === undefined ? samples.subarray(0, 0) : samples.subarray(range.start, range.end);
}

/**
 * Where `samples` minus `offset` (each difference rounded to float32, as removeDc stores it) is louder than the
 * threshold, widened by keepMs on each side: [start, end); undefined when it is silent throughout.
 */
function audibleRange(samples: Float32Array, offset: number, sampleRateHz: number, opts: TrimOptions): { start: number; end: number } | undefined {
  const threshold = 10 ** ((opts.thresholdDbfs ?? TRIM_THRESHOLD_DBFS) / 20);
  const keepMs = opts.keepMs ?? TRIM_KEEP_MS;
  const loud = (i: number): boolean => Math.abs(offset === 0 ? samples[i]! : Math.fround(samples[i]! - offset)) > threshold;
  let first = 0;
  while (first < samples.length && !loud(first)) first++;
  if (first === samples.length) return undefined;
  let last = samples.length - 1;
  while (last > first && !loud(last)) last--;
  const keep = Math.round((keepMs * sampleRateHz) / 1000);
  return { start: Math.max(0, first - keep), end: Math.min(samples.length, last + 1 + keep) };
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
  const mean = meanOf(samples);
  if (mean === 0) return samples;
  for (let i = 0; i < samples.length; i++) samples[i] = samples[i]! - mean;
  return samples;
}

function meanOf(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]!;
  return sum / samples.length;
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
  const frameLen = loudnessFrameLength(sampleRateHz);
  const energy = new Float64Array(Math.ceil(samples.length / frameLen));
  for (let f = 0; f < energy.length; f++) {
    const end = Math.min(samples.length, (f + 1) * frameLen);
    let e = 0;
    for (let i = f * frameLen; i < end; i++) e += samples[i]! * samples[i]!;
    energy[f] = e;
  }
  return applyLoudness(samples, sampleRateHz, energy, targetDbfs);
}

function loudnessFrameLength(sampleRateHz: number): number {
  return Math.max(1, Math.round((FRAME_MS * sampleRateHz) / 1000));
}

/** normalizeLoudness once the energy of every frame is known: the gain applied, then the limiter. */
function applyLoudness(samples: Float32Array, sampleRateHz: number, energy: Float64Array, targetDbfs: number): number {
  const frameLen = loudnessFrameLength(sampleRateHz);
  const frames = energy.length;
  if (frames === 0) return 1;
  const frameLength = (f: number): number => Math.min(samples.length, (f + 1) * frameLen) - f * frameLen;
  let maxMeanSq = 0;
  for (let f = 0; f < frames; f++) maxMeanSq = Math.max(maxMeanSq, energy[f]! / frameLength(f));
  if (maxMeanSq <= 10 ** (SILENCE_FLOOR_DBFS / 10)) return 1;
  const activeFloor = maxMeanSq * 10 ** (-ACTIVE_RANGE_DB / 10);
  let activeEnergy = 0;
  let activeCount = 0;
  for (let f = 0; f < frames; f++) {
    const len = frameLength(f);
    if (energy[f]! / len >= activeFloor) {
      activeEnergy += energy[f]!;
      activeCount += len;
    }
  }
  const activeRms = Math.sqrt(activeEnergy / activeCount);
  const gain = Math.min(10 ** (targetDbfs / 20) / activeRms, 10 ** (MAX_GAIN_DB / 20));
  // The gain applied and the first sample over the limiter's target found in one pass.
  let firstOver = -1;
  for (let i = 0; i < samples.length; i++) {
    const y = Math.fround(samples[i]! * gain);
    samples[i] = y;
    if (firstOver < 0 && Math.abs(y) > LIMIT_TARGET) firstOver = i;
  }
  if (firstOver >= 0) limitFrom(samples, sampleRateHz, firstOver);
  return gain;
}

/** What shapeCopy does to a clause, after removeDc and trimSilence: loudness (normalizeLoudness), then edge fades. */
export interface ShapeOptions {
  readonly targetDbfs: number;
  readonly fadeMs: number;
}

/**
 * removeDc, trimSilence, normalizeLoudness and applyEdgeFades in that order, on a copy of the audible part only:
 * the same samples bit for bit as those four on `samples.slice()`, in four passes over the clause instead of seven
 * (the copy, the DC removal and the frame energies are one loop). The input is not modified; `leadTrimmed` is the
 * number of samples trimmed from the start.
 */
export function shapeCopy(samples: Float32Array, sampleRateHz: number, options: ShapeOptions): { clip: Float32Array; leadTrimmed: number } {
  const mean = meanOf(samples);
  const range = audibleRange(samples, mean, sampleRateHz, {});
  if (range === undefined) return { clip: new Float32Array(0), leadTrimmed: 0 };
  const clip = new Float32Array(range.end - range.start);
  const frameLen = loudnessFrameLength(sampleRateHz);
  const energy = new Float64Array(Math.ceil(clip.length / frameLen));
  for (let f = 0; f < energy.length; f++) {
    const end = Math.min(clip.length, (f + 1) * frameLen);
    let e = 0;
    for (let i = f * frameLen; i < end; i++) {
      // The sample as removeDc stores it (x - 0 is x): squared from the local, not read back (twice as fast).
      const y = Math.fround(samples[range.start + i]! - mean);
      clip[i] = y;
      e += y * y;
    }
    energy[f] = e;
  }
  applyLoudness(clip, sampleRateHz, energy, options.targetDbfs);
  applyEdgeFades(clip, sampleRateHz, options.fadeMs);
  return { clip, leadTrimmed: range.start };
}

/**
 * Look-ahead limiter: per-sample required gain, a moving minimum over +-W, then a moving average of
 * width W+1. Every sample in the averaging window has min-gain <= the centre's required gain, so the
 * result never exceeds LIMIT_TARGET, and the gain changes over ~2 ms instead of clipping the waveform.
 * In place; also what keeps an SSML volume gain from clipping (clause-gain.ts).
 * The gain is exactly 1 farther than W + W/2 from every sample over the target, so only the stretches around such
 * samples are computed: their sums of min-gains are exact in float64 (float32 gains, fewer than 2^21 of them), so
 * the result does not depend on where a stretch starts.
 */
export function limitPeaks(samples: Float32Array, sampleRateHz: number): void {
  limitFrom(samples, sampleRateHz, 0);
}

/** limitPeaks when no sample before `first` is over the target. */
function limitFrom(samples: Float32Array, sampleRateHz: number, first: number): void {
  const n = samples.length;
  const w = Math.max(1, Math.round((LIMIT_WINDOW_MS * sampleRateHz) / 1000));
  const half = w >> 1;
  const reach = w + half;
  let i = first;
  while (i < n) {
    if (!(Math.abs(samples[i]!) > LIMIT_TARGET)) {
      i++;
      continue;
    }
    // One stretch: over-target samples closer than 2 * reach + 1 apart share it, so no two stretches change a
    // sample the other reads as over the target (what a stretch changes stays at or below it).
    let last = i;
    for (let j = i + 1; j < n && j <= last + 2 * reach + 1; j++) if (Math.abs(samples[j]!) > LIMIT_TARGET) last = j;
    limitStretch(samples, Math.max(0, i - reach), Math.min(n - 1, last + reach), w, half);
    i = last + 1;
  }
}

/** The limiter's output for samples[from..to] (inclusive), from the required gains around them. */
function limitStretch(samples: Float32Array, from: number, to: number, w: number, half: number): void {
  const n = samples.length;
  // Min-gains are needed over [from - half, to + half]; each reads required gains w further.
  const minFrom = Math.max(0, from - half);
  const minTo = Math.min(n - 1, to + half);
  const reqFrom = Math.max(0, minFrom - w);
  const reqTo = Math.min(n - 1, minTo + w);
  const required = new Float32Array(reqTo - reqFrom + 1);
  for (let k = 0; k < required.length; k++) {
    const a = Math.abs(samples[reqFrom + k]!);
    required[k] = a > LIMIT_TARGET ? LIMIT_TARGET / a : 1;
  }
  const minGain = movingMin(required, w);
  // Prefix sums over min-gains from minFrom on (index k - reqFrom in minGain).
  const prefix = new Float64Array(minTo - minFrom + 2);
  for (let k = minFrom; k <= minTo; k++) prefix[k - minFrom + 1] = prefix[k - minFrom]! + minGain[k - reqFrom]!;
  for (let k = from; k <= to; k++) {
    const lo = Math.max(0, k - half);
    const hi = Math.min(n - 1, k + half);
    const g = (prefix[hi - minFrom + 1]! - prefix[lo - minFrom]!) / (hi - lo + 1);
    let y = samples[k]! * g;
    // Float rounding guard only; the construction above already keeps |y| <= LIMIT_TARGET.
    if (y > LIMIT_CEILING) y = LIMIT_CEILING;
    else if (y < -LIMIT_CEILING) y = -LIMIT_CEILING;
    samples[k] = y;
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
