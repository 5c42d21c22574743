// flite's output WAV read strictly: RIFF/WAVE whose size matches the file, a PCM fmt chunk (mono, 16-bit) before a data
// chunk that fits. flite writes exactly this (cst_wave_save_riff); anything else is a failed or foreign write.

import { pcm16Sample } from '../../audio/pcm.js';

export interface FliteWav {
  /** Mono samples in [-1, 1]. */
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
}

export class MalformedWavError extends Error {
  constructor(source: string, problem: string) {
    super(`${source} is not a WAV flite writes: ${problem}`);
    this.name = 'MalformedWavError';
  }
}

const MIN_RATE_HZ = 8000;
const MAX_RATE_HZ = 48000;

function ascii(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + 4));
}

export function parseFliteWav(bytes: Uint8Array, source: string): FliteWav {
  const fail = (problem: string): never => {
    throw new MalformedWavError(source, problem);
  };
  if (bytes.length < 12 || ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE') fail('no RIFF/WAVE header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffBytes = view.getUint32(4, true);
  if (riffBytes + 8 !== bytes.length) fail(`RIFF size ${riffBytes + 8} bytes, file ${bytes.length} bytes`);
  let sampleRateHz: number | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (body + size > bytes.length) fail(`chunk '${id}' of ${size} bytes runs past the end`);
    if (id === 'fmt ') {
      if (size < 16) fail(`fmt chunk of ${size} bytes`);
      const format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const rateHz = view.getUint32(body + 4, true);
      const byteRate = view.getUint32(body + 8, true);
      const blockAlign = view.getUint16(body + 12, true);
      const bits = view.getUint16(body + 14, true);
      if (format !== 1 || channels !== 1 || bits !== 16) fail(`format ${format}, ${channels} channel(s), ${bits} bits (want PCM, 1, 16)`);
      if (rateHz < MIN_RATE_HZ || rateHz > MAX_RATE_HZ) fail(`sample rate ${rateHz} Hz`);
      if (blockAlign !== 2 || byteRate !== rateHz * 2) fail(`block align ${blockAlign}, byte rate ${byteRate} for 16-bit mono at ${rateHz} Hz`);
      sampleRateHz = rateHz;
    } else if (id === 'data') {
      if (sampleRateHz === undefined) fail('data chunk before fmt chunk');
      if (size % 2 !== 0) fail(`odd data size ${size}`);
      const samples = new Float32Array(size / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = pcm16Sample(view.getInt16(body + i * 2, true));
      return { samples, sampleRateHz: sampleRateHz as number };
    }
    // Chunks are word-aligned: an odd size carries one pad byte.
    offset = body + size + (size & 1);
  }
  return fail('no data chunk');
}
