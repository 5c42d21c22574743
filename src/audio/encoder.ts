// Output formats of the API and one encoder per stream that turns PCM16 chunks into wire bytes.
// 'streaming' emits bytes as they come (WAV with an unknown-length header); 'complete' buffers and
// returns the whole file from flush() so WAV gets exact sizes.
import { concatBytes, EMPTY_BYTES } from './bytes.js';
import { Mp3StreamEncoder } from './mp3-encoder.js';
import { pcm16ToMulaw } from './mulaw.js';
import { pcm16ToBytesLE } from './pcm.js';
import type { OutputFormat } from './formats.js';
import { wavHeader } from './wav.js';

export type { OutputFormat } from './formats.js';
export type EncoderMode = 'complete' | 'streaming';

export interface AudioEncoder {
  readonly format: OutputFormat;
  readonly mode: EncoderMode;
  /** Bytes to send before any encode() output: the 0xFFFFFFFF WAV header for streaming WAV, else empty. */
  header(): Uint8Array;
  /** Streaming: bytes ready now (may share memory with `pcm`). Complete: always empty (buffered). */
  encode(pcm: Int16Array): Uint8Array;
  /** Streaming: encoder tail (MP3 only). Complete: the whole file. Call once, at the end (or flushPieces). */
  flush(): Uint8Array;
  /**
   * The same bytes as `flush`, as consecutive pieces: a complete file of PCM, WAV or mu-law is its header and each
   * chunk as encoded, never copied into one buffer (17 MB for three minutes at 48 kHz) on the caller's thread.
   */
  flushPieces(): Uint8Array[];
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
      return { format, mode, header: () => header, encode: (pcm) => pcm16ToBytesLE(pcm), flush: () => EMPTY_BYTES, flushPieces: () => [] };
    }
    case 'mulaw':
      return { format, mode, header: () => EMPTY_BYTES, encode: (pcm) => pcm16ToMulaw(pcm), flush: () => EMPTY_BYTES, flushPieces: () => [] };
    case 'mp3': {
      const mp3 = new Mp3StreamEncoder(sampleRateHz);
      const flush = () => mp3.flush();
      return { format, mode, header: () => EMPTY_BYTES, encode: (pcm) => mp3.encode(pcm), flush, flushPieces: () => [flush()] };
    }
  }
}

function completeEncoder(format: OutputFormat, sampleRateHz: number): AudioEncoder {
  const mode = 'complete';
  if (format === 'mp3') {
    const mp3 = new Mp3StreamEncoder(sampleRateHz);
    const parts: Uint8Array[] = [];
    const flushPieces = (): Uint8Array[] => {
      parts.push(mp3.flush());
      return parts;
    };
    return {
      format,
      mode,
      header: () => EMPTY_BYTES,
      encode: (pcm) => {
        parts.push(mp3.encode(pcm));
        return EMPTY_BYTES;
      },
      flush: () => concatBytes(flushPieces()),
      flushPieces,
    };
  }
  // pcm, wav, mulaw: each chunk encoded as it comes (a copy: callers may reuse their arrays), so the end only adds
  // the WAV header, whose sizes are known then.
  const pieces: Uint8Array[] = [];
  let dataBytes = 0;
  const flushPieces = (): Uint8Array[] =>
    format === 'wav' ? [wavHeader({ sampleRateHz, channels: 1, bitsPerSample: 16, dataBytes }), ...pieces] : pieces;
  return {
    format,
    mode,
    header: () => EMPTY_BYTES,
    encode: (pcm) => {
      const bytes = format === 'mulaw' ? pcm16ToMulaw(pcm) : pcm16ToBytesLE(pcm.slice());
      pieces.push(bytes);
      dataBytes += bytes.length;
      return EMPTY_BYTES;
    },
    flush: () => concatBytes(flushPieces()),
    flushPieces,
  };
}
