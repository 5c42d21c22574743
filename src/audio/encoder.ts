// Output formats of the API and one encoder per stream that turns PCM16 chunks into wire bytes.
// 'streaming' emits bytes as they come (WAV with an unknown-length header); 'complete' buffers and
// returns the whole file from flush() so WAV gets exact sizes.
import { concatBytes, EMPTY_BYTES } from './bytes.js';
import { Mp3StreamEncoder } from './mp3-encoder.js';
import { pcm16ToMulaw } from './mulaw.js';
import { pcm16ToBytesLE } from './pcm.js';
import type { OutputFormat } from './formats.js';
import { WAV_HEADER_BYTES, wavHeader } from './wav.js';

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
      if (format === 'mulaw') return concatBytes(chunks.map((c) => pcm16ToMulaw(c)));
      // One allocation for the whole file (header included) and one copy of each chunk into it: a 3-minute 48 kHz
      // utterance is 17 MB, and copying it twice more would hold the event loop for no reason.
      const headerBytes = format === 'wav' ? WAV_HEADER_BYTES : 0;
      const out = new Uint8Array(headerBytes + total * 2);
      if (format === 'wav') out.set(wavHeader({ sampleRateHz, channels: 1, bitsPerSample: 16, dataBytes: total * 2 }), 0);
      let offset = headerBytes;
      for (const c of chunks) {
        out.set(pcm16ToBytesLE(c), offset);
        offset += c.byteLength;
      }
      return out;
    },
  };
}
