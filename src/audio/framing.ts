// Splitting encoded audio into transport frames (e.g. 20 ms media messages) without splitting a sample.
import type { OutputFormat } from './encoder.js';

/** Bytes per sample on the wire; 1 for mp3 and opus means "no alignment", their frames are opaque bytes. */
export function bytesPerSampleOf(format: OutputFormat): number {
  return format === 'pcm' || format === 'wav' ? 2 : 1;
}

/** Fixed MP3 frame size: a few MPEG frames, since MP3 bytes do not map linearly to time. */
const MP3_FRAME_BYTES = 2048;

/**
 * Opus goes out as whole Ogg pages (each at most 500 ms, ogg-opus-encoder.ts), never cut inside one: a client may
 * hand every frame to a streaming Ogg demuxer as it comes.
 */
export function framedByOggPage(format: OutputFormat): boolean {
  return format === 'opus';
}

/** Bytes in a frame of `frameMs` (for wav: of the data after the header); 0 for opus, whose frames are its pages. */
export function frameBytesFor(format: OutputFormat, sampleRateHz: number, frameMs: number): number {
  if (format === 'mp3') return MP3_FRAME_BYTES;
  if (framedByOggPage(format)) return 0;
  const samples = Math.max(1, Math.round((sampleRateHz * frameMs) / 1000));
  return samples * bytesPerSampleOf(format);
}

/**
 * Views (no copies) of at most `maxBytes` each, every one a whole number of samples except possibly the
 * last if `bytes` itself ends mid-sample. `maxBytes` is rounded down to a sample multiple (min one sample).
 */
export function chunkBytes(bytes: Uint8Array, maxBytes: number, bytesPerSample = 1): Uint8Array[] {
  const step = Math.max(bytesPerSample, maxBytes - (maxBytes % bytesPerSample));
  const out: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += step) {
    out.push(bytes.subarray(offset, Math.min(bytes.length, offset + step)));
  }
  return out;
}
