// Reads back what the Kokoro tone model (fixtures/voices/lib/kokoro-tone-voice.ts) was given: per run the speed,
// the padded ids and the style row, from its raw 24 kHz output or from several runs' outputs back to back.

import { KOKORO_TONE_ENCODING } from '../../fixtures/voices/lib/kokoro-tone-voice.js';
import { toneFrequencyHz } from './tone-decoder.js';

export interface DecodedKokoroRun {
  readonly speed: number;
  readonly ids: number[];
  readonly style: Float32Array;
  readonly blockSamples: number;
}

/** Decodes back-to-back runs; throws when the samples do not have the tone model's layout. */
export function decodeKokoroTone(samples: Float32Array): DecodedKokoroRun[] {
  const e = KOKORO_TONE_ENCODING;
  const runs: DecodedKokoroRun[] = [];
  let at = 0;
  while (at < samples.length) {
    const speed = samples[at] as number;
    const count = samples[at + 1] as number;
    if (!(speed > 0) || !Number.isInteger(count) || count < 1) throw new Error(`no run header at sample ${at}`);
    const style = samples.slice(at + 2, at + e.headerSamples);
    // The graph divides in float32; so does this.
    const blockSamples = Math.max(1, Math.round(Math.fround(e.samplesPerId / speed)));
    const body = at + e.headerSamples;
    const end = body + count * blockSamples;
    if (end > samples.length) throw new Error(`run at sample ${at} claims ${count} ids of ${blockSamples} samples, past the end`);
    const ids: number[] = [];
    for (let start = body; start < end; start += blockSamples) {
      const frequency = toneFrequencyHz(samples, start + 1, start + blockSamples - 1, e.sampleRateHz);
      ids.push(Math.round((frequency - e.f0Hz) / e.stepHz) + 0);
    }
    runs.push({ speed, ids, style, blockSamples });
    at = end;
  }
  return runs;
}
