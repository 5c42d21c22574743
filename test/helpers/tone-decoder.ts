// Reads back what the generated tone voices (fixtures/voices/) encode: the phoneme ids, speaker, segment length
// and tail of a raw engine clip, or the id runs of finished audio (shaped, resampled, with pauses between clauses).

import type { ToneEncoding } from '../../fixtures/voices/lib/tone-voice.js';

/**
 * Frequency of a (near-)pure tone in samples[start, end): for x[n] = A sin(wn + p), x[n-k] + x[n+k] = 2 cos(kw) x[n].
 * A first estimate with k = 1 picks the lag that puts kw near pi/2, where the cosine is best conditioned (at k = 1 a
 * low tone at a high rate has cos(w) ~ 1, and quantization noise moves the estimate by many hertz).
 */
export function toneFrequencyHz(samples: Float32Array, start: number, end: number, rateHz: number): number {
  const from = Math.max(0, start);
  const to = Math.min(end, samples.length);
  const omegaAt = (lag: number): number => {
    let num = 0;
    let den = 0;
    for (let n = from + lag; n < to - lag; n++) {
      const x = samples[n] as number;
      num += x * ((samples[n - lag] as number) + (samples[n + lag] as number));
      den += 2 * x * x;
    }
    return Math.acos(Math.max(-1, Math.min(1, num / den))) / lag;
  };
  const coarse = omegaAt(1);
  const lag = Math.max(1, Math.min(Math.floor((to - from) / 4), Math.round(Math.PI / 2 / coarse)));
  return ((lag === 1 ? coarse : omegaAt(lag)) * rateHz) / (2 * Math.PI);
}

export interface DecodedClip {
  readonly ids: number[];
  /** Speaker of every segment (all equal for a sane model). */
  readonly speakers: number[];
  readonly segmentSamples: number;
  readonly tailSamples: number;
  readonly amplitude: number;
}

/** Decodes an engine clip at the voice's own rate, given the length_scale and noise_w the model was run with. */
export function decodeClip(samples: Float32Array, rateHz: number, encoding: ToneEncoding, run: { lengthScale: number; noiseW: number }): DecodedClip {
  const segment = Math.max(1, Math.round(run.lengthScale * encoding.samples_per_id));
  const tail = Math.round(run.noiseW * encoding.tail_samples_per_noise_w);
  const body = samples.length - tail;
  if (body < 0 || body % segment !== 0) throw new Error(`clip of ${samples.length} samples is not n x ${segment} + ${tail}`);
  const ids: number[] = [];
  const speakers: number[] = [];
  let amplitude = 0;
  for (let start = 0; start < body; start += segment) {
    const { id, speaker } = idOf(toneFrequencyHz(samples, start + 1, start + segment - 1, rateHz), encoding);
    ids.push(id);
    speakers.push(speaker);
    for (let i = start; i < start + segment; i++) amplitude = Math.max(amplitude, Math.abs(samples[i] as number));
  }
  for (let i = body; i < samples.length; i++) if (samples[i] !== 0) throw new Error('tail is not silent');
  return { ids, speakers, segmentSamples: segment, tailSamples: tail, amplitude };
}

function idOf(frequencyHz: number, encoding: ToneEncoding): { id: number; speaker: number } {
  const above = frequencyHz - encoding.f0_hz;
  // `+ 0` turns the -0 that rounding a tiny negative gives into 0.
  if (encoding.speaker_step_hz === 0) return { id: Math.round(above / encoding.step_hz) + 0, speaker: 0 };
  const slots = Math.round(above / encoding.speaker_step_hz) + 0;
  const perId = Math.round(encoding.step_hz / encoding.speaker_step_hz);
  return { id: Math.floor(slots / perId), speaker: slots % perId };
}

export interface DecodedStream {
  /** Id runs of each stretch of sound, split at silences (the pauses the pipeline puts between clauses). */
  readonly clauses: number[][];
  readonly speakers: Set<number>;
}

/**
 * Decodes finished audio by tracking the tone frequency in short windows: consecutive ids always differ (PAD sits
 * between phonemes), so a change of id is a new segment; window estimates straddling a boundary are discarded.
 */
export function decodeStream(samples: Float32Array, rateHz: number, encoding: ToneEncoding, options: { window?: number; minRun?: number } = {}): DecodedStream {
  const window = options.window ?? Math.round(rateHz / 200);
  const hop = Math.max(1, Math.floor(window / 4));
  const minRun = options.minRun ?? 3;
  const clauses: number[][] = [];
  const speakers = new Set<number>();
  let current: number[] = [];
  let candidate: { id: number; speaker: number; run: number } | undefined;
  let silentWindows = 0;
  const silenceBreak = Math.ceil((0.06 * rateHz) / hop); // pauses are >= 120 ms; segments never have 60 ms of silence
  for (let start = 0; start + window < samples.length; start += hop) {
    let energy = 0;
    for (let i = start; i < start + window; i++) energy += (samples[i] as number) ** 2;
    if (Math.sqrt(energy / window) < 0.01) {
      silentWindows++;
      if (silentWindows >= silenceBreak && current.length > 0) {
        clauses.push(current);
        current = [];
      }
      candidate = undefined;
      continue;
    }
    silentWindows = 0;
    const decoded = idOf(toneFrequencyHz(samples, start, start + window, rateHz), encoding);
    if (candidate !== undefined && candidate.id === decoded.id && candidate.speaker === decoded.speaker) candidate.run++;
    else candidate = { ...decoded, run: 1 };
    if (candidate.run === minRun && current[current.length - 1] !== candidate.id) {
      current.push(candidate.id);
      speakers.add(candidate.speaker);
    }
  }
  if (current.length > 0) clauses.push(current);
  return { clauses, speakers };
}
