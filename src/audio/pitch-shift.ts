// Pitch shift for custom (vc_) voices on engines without pitch control, by the resampling trick: the model speaks `ratio` times
// longer (length_scale x ratio), then the samples are read as if recorded at rate x ratio and resampled back to
// rate. Pitch (and formants) rise by `ratio`, duration is unchanged. VITS has no pitch control of its own.

import { concatFloat32 } from './bytes.js';
import { Resampler } from './resampler.js';

/** Shifts are rounded to a tenth of a semitone (inaudible) so the resampler's per-rate-pair filter cache stays small. */
const STEP_SEMITONES = 0.1;
const MAX_SEMITONES = 12;

export function pitchRatio(semitones: number): number {
  const clamped = Math.max(-MAX_SEMITONES, Math.min(MAX_SEMITONES, semitones));
  const rounded = Math.round(clamped / STEP_SEMITONES) * STEP_SEMITONES;
  return rounded === 0 ? 1 : 2 ** (rounded / 12);
}

/** Samples synthesized with length_scale x ratio, brought back to `rateHz` with their pitch raised by `ratio`. */
export function shiftPitch(samples: Float32Array, rateHz: number, ratio: number): Float32Array {
  if (ratio === 1) return samples;
  const resampler = new Resampler(Math.round(rateHz * ratio), rateHz);
  return concatFloat32([resampler.process(samples), resampler.flush()]);
}
