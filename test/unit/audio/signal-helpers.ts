// Test-only signal generators and measurements shared by the audio unit tests.
import { MPEGDecoder } from 'mpg123-decoder';
import { OggOpusDecoder } from 'ogg-opus-decoder';

export function tone(freqHz: number, sampleRateHz: number, length: number, amplitude = 0.5, phase = 0): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * freqHz * i) / sampleRateHz + phase);
  return out;
}

export function rms(x: ArrayLike<number>, start = 0, end = x.length): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += x[i]! * x[i]!;
  return Math.sqrt(sum / Math.max(1, end - start));
}

export function db(ratio: number): number {
  return 20 * Math.log10(ratio);
}

export function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Hann-windowed DFT magnitude at one frequency. */
function magnitudeAt(x: Float32Array, sampleRateHz: number, freqHz: number): number {
  const w = (2 * Math.PI * freqHz) / sampleRateHz;
  let re = 0;
  let im = 0;
  const n = x.length;
  for (let i = 0; i < n; i++) {
    const win = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
    re += x[i]! * win * Math.cos(w * i);
    im -= x[i]! * win * Math.sin(w * i);
  }
  return Math.hypot(re, im);
}

/** Frequency with the largest DFT magnitude: 5 Hz grid search, then 0.25 Hz refinement. */
export function dominantFrequency(x: Float32Array, sampleRateHz: number, minHz = 50, maxHz = sampleRateHz / 2): number {
  // A 4096-sample excerpt keeps the O(n * bins) search fast and resolution well under 1%.
  const seg = x.length > 4096 ? x.subarray((x.length - 4096) >> 1, ((x.length - 4096) >> 1) + 4096) : x;
  let best = minHz;
  let bestMag = -1;
  for (let f = minHz; f <= maxHz; f += 5) {
    const m = magnitudeAt(seg, sampleRateHz, f);
    if (m > bestMag) [best, bestMag] = [f, m];
  }
  const coarse = best;
  for (let f = coarse - 5; f <= coarse + 5; f += 0.25) {
    const m = magnitudeAt(seg, sampleRateHz, f);
    if (m > bestMag) [best, bestMag] = [f, m];
  }
  return best;
}

export function maxAbsDiff(x: ArrayLike<number>, start = 0, end = x.length): number {
  let m = 0;
  for (let i = Math.max(1, start); i < end; i++) m = Math.max(m, Math.abs(x[i]! - x[i - 1]!));
  return m;
}

export async function decodeMp3(bytes: Uint8Array): Promise<{ samples: Float32Array; sampleRate: number; errors: number }> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const d = decoder.decode(bytes);
    return { samples: d.channelData[0] ?? new Float32Array(0), sampleRate: d.sampleRate, errors: d.errors.length };
  } finally {
    decoder.free();
  }
}

/**
 * Ogg/Opus through an independent decoder (ogg-opus-decoder: codec-parser's Ogg demuxer and libopus), at 48 kHz: it
 * drops the pre-skip the OpusHead names and trims the end to the last page's granule position (RFC 7845 §4).
 */
export async function decodeOggOpus(bytes: Uint8Array): Promise<{ samples: Float32Array; sampleRate: number; errors: number }> {
  const decoder = new OggOpusDecoder();
  await decoder.ready;
  try {
    const d = await decoder.decodeFile(bytes);
    return { samples: d.channelData[0] ?? new Float32Array(0), sampleRate: d.sampleRate, errors: d.errors.length };
  } finally {
    decoder.free();
  }
}
