// One synthesized clause made ready for the wire's sample rate where it was synthesized (the engine's worker
// thread), so the event loop only appends pauses and encodes: shape it (DC removal, silence trim, loudness,
// 5 ms edge fades) at the engine's rate, then resample the whole clause to the output rate. The same shaping the
// output pipeline applies to clauses that arrive unshaped (output-pipeline.ts).

import { concatFloat32 } from './bytes.js';
import { applyEdgeFades, normalizeLoudness, removeDc, trimSilence } from './clip-shaping.js';
import { Resampler } from './resampler.js';

const TARGET_LOUDNESS_DBFS = -20;
const EDGE_FADE_MS = 5;

/** A shaped copy of one clause at its own rate (the input is not modified). */
export function shapeClause(samples: Float32Array, rateHz: number): Float32Array {
  const clip = trimSilence(removeDc(samples.slice()), rateHz);
  normalizeLoudness(clip, rateHz, TARGET_LOUDNESS_DBFS);
  applyEdgeFades(clip, rateHz, EDGE_FADE_MS);
  return clip;
}

/** The clause shaped and resampled on its own (it starts and ends in silence, so no history is needed). */
export function deliverClause(samples: Float32Array, fromHz: number, toHz: number): Float32Array {
  const shaped = shapeClause(samples, fromHz);
  if (fromHz === toHz) return shaped;
  const resampler = new Resampler(fromHz, toHz);
  return concatFloat32([resampler.process(shaped), resampler.flush()]);
}
