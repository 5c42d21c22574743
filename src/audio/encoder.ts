// Output formats of the API and one encoder per stream that turns PCM16 chunks into wire bytes.
// 'streaming' emits bytes as they come (WAV with an unknown-length header); 'complete' buffers and
// returns the whole file from flush() so WAV gets exact sizes.
import { pcm16ToAlaw } from './alaw.js';
import { concatBytes, EMPTY_BYTES } from './bytes.js';
import { Mp3StreamEncoder } from './mp3-encoder.js';
import { pcm16ToMulaw } from './mulaw.js';
import { OggOpusStreamEncoder } from './ogg-opus-encoder.js';
import { pcm16ToBytesLE } from './pcm.js';
import type { OutputFormat } from './formats.js';
import { wavHeader } from './wav.js';

export type { OutputFormat } from './formats.js';
export type EncoderMode = 'complete' | 'streaming';

export interface AudioEncoder {
  readonly format: OutputFormat;
  readonly mode: EncoderMode;
  /**
   * Bytes to send before any encode() output: the 0xFFFFFFFF WAV header for streaming WAV, the OpusHead and
   * OpusTags pages for streaming Opus, else empty.
   */
  header(): Uint8Array;
  /** Streaming: bytes ready now (may share memory with `pcm`; whole Ogg pages for Opus). Complete: always empty (buffered). */
  encode(pcm: Int16Array): Uint8Array;
  /** Streaming: encoder tail (MP3, Opus). Complete: the whole file. Call once, at the end (or flushPieces). */
  flush(): Uint8Array;
  /**
   * The same bytes as `flush`, as consecutive pieces: a complete file of PCM, WAV, mu-law or A-law is its header and
   * each chunk as encoded, never copied into one buffer (17 MB for three minutes at 48 kHz) on the caller's thread.
   */
  flushPieces(): Uint8Array[];
  /**
   * Frees what the encoder holds outside the JavaScript heap (an Opus encoder's WebAssembly memory) when the stream
   * stops before its flush; idempotent, harmless after flush (which frees it too).
   */
  close(): void;
}

/** The encoders that keep state between chunks (frames, lookahead) and have a tail to flush. */
interface StatefulEncoder {
  header(): Uint8Array;
  encode(pcm: Int16Array): Uint8Array;
  flush(): Uint8Array;
  close(): void;
}

function statefulEncoder(format: 'mp3' | 'opus', sampleRateHz: number): StatefulEncoder {
  if (format === 'opus') return new OggOpusStreamEncoder(sampleRateHz);
  const mp3 = new Mp3StreamEncoder(sampleRateHz);
  return { header: () => EMPTY_BYTES, encode: (pcm) => mp3.encode(pcm), flush: () => mp3.flush(), close: () => undefined };
}

/** A copy or a table lookup per sample: mu-law and A-law make new arrays, PCM a view (the complete mode copies). */
function sampleCodec(format: 'pcm' | 'wav' | 'mulaw' | 'alaw'): (pcm: Int16Array) => Uint8Array {
  if (format === 'mulaw') return pcm16ToMulaw;
  if (format === 'alaw') return pcm16ToAlaw;
  return pcm16ToBytesLE;
}

export function createEncoder(format: OutputFormat, sampleRateHz: number, mode: EncoderMode): AudioEncoder {
  return mode === 'streaming' ? streamingEncoder(format, sampleRateHz) : completeEncoder(format, sampleRateHz);
}

function streamingEncoder(format: OutputFormat, sampleRateHz: number): AudioEncoder {
  const mode = 'streaming';
  switch (format) {
    case 'pcm':
    case 'wav':
    case 'mulaw':
    case 'alaw': {
      const header = format === 'wav' ? wavHeader({ sampleRateHz, channels: 1, bitsPerSample: 16, dataBytes: 'streaming' }) : EMPTY_BYTES;
      return { format, mode, header: () => header, encode: sampleCodec(format), flush: () => EMPTY_BYTES, flushPieces: () => [], close: () => undefined };
    }
    case 'mp3':
    case 'opus': {
      const encoder = statefulEncoder(format, sampleRateHz);
      const flush = () => encoder.flush();
      return {
        format,
        mode,
        header: () => encoder.header(),
        encode: (pcm) => encoder.encode(pcm),
        flush,
        flushPieces: () => [flush()],
        close: () => encoder.close(),
      };
    }
  }
}

function completeEncoder(format: OutputFormat, sampleRateHz: number): AudioEncoder {
  const mode = 'complete';
  if (format === 'mp3' || format === 'opus') {
    const encoder = statefulEncoder(format, sampleRateHz);
    const parts: Uint8Array[] = [encoder.header()];
    const flushPieces = (): Uint8Array[] => {
      parts.push(encoder.flush());
      return parts.filter((part) => part.length > 0);
    };
    return {
      format,
      mode,
      header: () => EMPTY_BYTES,
      encode: (pcm) => {
        parts.push(encoder.encode(pcm));
        return EMPTY_BYTES;
      },
      flush: () => concatBytes(flushPieces()),
      flushPieces,
      close: () => encoder.close(),
    };
  }
  // pcm, wav, mulaw, alaw: each chunk encoded as it comes (a copy: callers may reuse their arrays), so the end only
  // adds the WAV header, whose sizes are known then.
  const codec = sampleCodec(format);
  const pieces: Uint8Array[] = [];
  let dataBytes = 0;
  const flushPieces = (): Uint8Array[] =>
    format === 'wav' ? [wavHeader({ sampleRateHz, channels: 1, bitsPerSample: 16, dataBytes }), ...pieces] : pieces;
  return {
    format,
    mode,
    header: () => EMPTY_BYTES,
    encode: (pcm) => {
      const bytes = codec === pcm16ToBytesLE ? pcm16ToBytesLE(pcm.slice()) : codec(pcm);
      pieces.push(bytes);
      dataBytes += bytes.length;
      return EMPTY_BYTES;
    },
    flush: () => concatBytes(flushPieces()),
    flushPieces,
    close: () => undefined,
  };
}
