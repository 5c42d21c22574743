// A shaped clause made ready for a pipeline that is not what its engine delivered for: another gain than the
// normalised loudness (SSML <prosody volume>, <emphasis>), or another rate (an utterance whose <lang> span another
// engine speaks). Both need the clause shaped first, since shaping normalises loudness and would undo a gain.

import { concatFloat32 } from './bytes.js';
import { shapeClause } from './clause-delivery.js';
import { limitPeaks } from './clip-shaping.js';
import { Resampler } from './resampler.js';

export interface AdjustedClause {
  readonly samples: Float32Array;
  /** Shaped here or by the engine: the pipeline only appends the pause and resamples. */
  readonly shaped: boolean;
  /** Silence trimmed from the start when shaped here (0 when it came shaped or is left to the pipeline). */
  readonly leadTrimmedMs: number;
}

/**
 * The clause at `toHz` with `gainDb` applied, or as it is when neither is needed (the pipeline shapes it then). A gain
 * above 0 dB is followed by the shaping's own peak limiter, so no sample clips; -Infinity is silence of the same length.
 */
export function adjustClause(clip: { readonly samples: Float32Array; readonly sampleRateHz: number; readonly shaped?: boolean }, toHz: number, gainDb: number): AdjustedClause {
  const shapedByEngine = clip.shaped === true;
  if (gainDb === 0 && clip.sampleRateHz === toHz) return { samples: clip.samples, shaped: shapedByEngine, leadTrimmedMs: 0 };
  const shaped = shapedByEngine ? { samples: clip.samples.slice(), leadTrimmedMs: 0 } : shapeClause(clip.samples, clip.sampleRateHz);
  let samples = shaped.samples;
  if (clip.sampleRateHz !== toHz) {
    const resampler = new Resampler(clip.sampleRateHz, toHz);
    samples = concatFloat32([resampler.process(samples), resampler.flush()]);
  }
  if (gainDb !== 0) applyGain(samples, toHz, gainDb);
  return { samples, shaped: true, leadTrimmedMs: shaped.leadTrimmedMs };
}

/** In place: `gainDb` on every sample, peaks then limited (a positive gain); -Infinity silences. */
export function applyGain(samples: Float32Array, rateHz: number, gainDb: number): void {
  const gain = gainDb === Number.NEGATIVE_INFINITY ? 0 : 10 ** (gainDb / 20);
  for (let i = 0; i < samples.length; i++) samples[i] = (samples[i] as number) * gain;
  if (gain > 1) limitPeaks(samples, rateHz);
}
