// Output formats of the API and one encoder per stream that turns PCM16 chunks into wire bytes.
// 'streaming' emits bytes as they come (WAV with an unknown-length header); 'complete' buffers and
// returns the whole file from flush() so WAV gets exact sizes.
import { concatBytes, EMPTY_BYTES } from './bytes.js';
import { Mp3StreamEncoder } from './mp3-encoder.js';
import { pcm16ToMulaw } from './mulaw.js';
import { pcm16ToBytesLE } from './pcm.js';
import type { OutputFormat } from './formats.js';
import { encodeWav, wavHeader } from './wav.js';

export type { OutputFormat } from './formats.js';
export type EncoderMode = 'complete' | 'streaming';

export interface AudioEncoder {
  readonly format: OutputFormat;
  readonly mode: EncoderMode;
  /** Bytes to send before any encode() output: the 0xFFFFFFFF WAV header for streaming WAV, else empty. */
  header(): Uint8Array;
  /** Streaming: bytes ready now (may share memory with `pcm`). Complete: always empty (buffered). */
  encode(pcm: Int16Array): Uint8Array;
  /** Streaming: encoder tail (MP3 only). Complete: the whole file. Call once, at the end. */
  flush(): Uint8Array;
}

export function createEncoder(format: OutputFormat, sampleRateHz: number, mode: EncoderMode): AudioEncoder {
  return mode === 'streaming' ? streamingEncoder(format, sampleRateHz) : completeEncoder(format, sampleRateHz);
}

function streamingEncoder(format: OutputFormat, sampleRateHz: number): AudioEncoder {
  const mode = 'streaming';
  switch (format) {
    case 'pcm':
    case 'wav': {
      const header = format === 'wav' ? wavHeader({ sampleRateHz, channels: 1, bitsPerSample: 16, dataBytes: 'streaming' }) : EMPTY_BYTES;
      return { format, mode, header: () => header, encode: (pcm) => pcm16ToBytesLE(pcm), flush: () => EMPTY_BYTES };
    }
    case 'mulaw':
      return { format, mode, header: () => EMPTY_BYTES, encode: (pcm) => pcm16ToMulaw(pcm), flush: () => EMPTY_BYTES };
    case 'mp3': {
      const mp3 = new Mp3StreamEncoder(sampleRateHz);
      return { format, mode, header: () => EMPTY_BYTES, encode: (pcm) => mp3.encode(pcm), flush: () => mp3.flush() };
    }
  }
}

function completeEncoder(format: OutputFormat, sampleRateHz: number): AudioEncoder {
  const mode = 'complete';
  if (format === 'mp3') {
    const mp3 = new Mp3StreamEncoder(sampleRateHz);
    const parts: Uint8Array[] = [];
    return {
      format,
      mode,
      header: () => EMPTY_BYTES,
      encode: (pcm) => {
        parts.push(mp3.encode(pcm));
        return EMPTY_BYTES;
      },
      flush: () => {
        parts.push(mp3.flush());
        return concatBytes(parts);
      },
    };
  }
  // pcm, wav, mulaw: keep the PCM (copied: callers may reuse their arrays) and encode once at the end.
  const chunks: Int16Array[] = [];
  let total = 0;
  return {
    format,
    mode,
    header: () => EMPTY_BYTES,
    encode: (pcm) => {
      chunks.push(pcm.slice());
      total += pcm.length;
      return EMPTY_BYTES;
    },
    flush: () => {
      const all = new Int16Array(total);
      let offset = 0;
      for (const c of chunks) {
        all.set(c, offset);
        offset += c.length;
      }
      if (format === 'wav') return encodeWav(all, sampleRateHz);
      if (format === 'mulaw') return pcm16ToMulaw(all);
      return pcm16ToBytesLE(all);
    },
  };
}
