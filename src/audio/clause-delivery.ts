// One synthesized clause made ready for the wire's sample rate where it was synthesized (the engine's worker
// thread), so the event loop only appends pauses and encodes: shape it (DC removal, silence trim, loudness,
// 5 ms edge fades) at the engine's rate, then resample the whole clause to the output rate. The same shaping the
// output pipeline applies to clauses that arrive unshaped (output-pipeline.ts).

import { shapeCopy } from './clip-shaping.js';
import { Resampler } from './resampler.js';

const TARGET_LOUDNESS_DBFS = -20;
const EDGE_FADE_MS = 5;

export interface ShapedClause {
  readonly samples: Float32Array;
  /** Silence trimmed from the start: what moves every time in the clause earlier. */
  readonly leadTrimmedMs: number;
}

/** A shaped copy of one clause at its own rate (the input is not modified). */
export function shapeClause(samples: Float32Array, rateHz: number): ShapedClause {
  const { clip, leadTrimmed } = shapeCopy(samples, rateHz, { targetDbfs: TARGET_LOUDNESS_DBFS, fadeMs: EDGE_FADE_MS });
  return { samples: clip, leadTrimmedMs: (leadTrimmed * 1000) / rateHz };
}

/** The clause shaped and resampled on its own (it starts and ends in silence, so no history is needed). */
export function deliverClause(samples: Float32Array, fromHz: number, toHz: number): ShapedClause {
  const shaped = shapeClause(samples, fromHz);
  if (fromHz === toHz) return shaped;
  return { samples: new Resampler(fromHz, toHz).resampleWhole(shaped.samples), leadTrimmedMs: shaped.leadTrimmedMs };
}

/** Times in a clause moved by its lead trim, kept within the clause as delivered (`clipMs` long). */
export function afterTrim<T extends { readonly atMs: number }>(times: readonly T[], leadTrimmedMs: number, clipMs: number): T[] {
  return times.map((time) => ({ ...time, atMs: Math.min(clipMs, Math.max(0, time.atMs - leadTrimmedMs)) }));
}
