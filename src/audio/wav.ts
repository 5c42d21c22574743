// RIFF/WAVE PCM headers and whole-file encode/parse for mono 16-bit audio.
// Streaming headers use 0xFFFFFFFF sizes because the length is unknown when the first byte is sent.
import { bytesLEToPcm16, pcm16ToBytesLE } from './pcm.js';

export const WAV_HEADER_BYTES = 44;
/** Size field value meaning "unknown length, read to end of stream" (the ffmpeg/sox convention for piped WAV). */
export const WAV_STREAMING_SIZE = 0xffffffff;

export interface WavFormat {
  sampleRateHz: number;
  channels: 1;
  bitsPerSample: 16;
  /** Byte length of the data chunk, or 'streaming' when it is not known up front. */
  dataBytes: number | 'streaming';
}

export interface ParsedWav {
  sampleRateHz: number;
  channels: number;
  bitsPerSample: number;
  samples: Int16Array;
}

function writeAscii(view: DataView, offset: number, text: string): void {
  for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
}

function readAscii(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset]!, bytes[offset + 1]!, bytes[offset + 2]!, bytes[offset + 3]!);
}

export function wavHeader(format: WavFormat): Uint8Array {
  const { sampleRateHz, channels, bitsPerSample, dataBytes } = format;
  const out = new Uint8Array(WAV_HEADER_BYTES);
  const view = new DataView(out.buffer);
  const blockAlign = (channels * bitsPerSample) / 8;
  const streaming = dataBytes === 'streaming';
  // RIFF size = everything after the 8-byte RIFF preamble: 36 header bytes + data.
  const riffSize = streaming ? WAV_STREAMING_SIZE : Math.min(36 + dataBytes, WAV_STREAMING_SIZE);
  const dataSize = streaming ? WAV_STREAMING_SIZE : dataBytes;
  writeAscii(view, 0, 'RIFF');
  view.setUint32(4, riffSize, true);
  writeAscii(view, 8, 'WAVE');
  writeAscii(view, 12, 'fmt ');
  view.setUint32(16, 16, true); // PCM fmt chunk size
  view.setUint16(20, 1, true); // WAVE_FORMAT_PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRateHz, true);
  view.setUint32(28, sampleRateHz * blockAlign, true); // byte rate
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, bitsPerSample, true);
  writeAscii(view, 36, 'data');
  view.setUint32(40, dataSize, true);
  return out;
}

export function encodeWav(pcm: Int16Array, sampleRateHz: number): Uint8Array {
  const data = pcm16ToBytesLE(pcm);
  const out = new Uint8Array(WAV_HEADER_BYTES + data.length);
  out.set(wavHeader({ sampleRateHz, channels: 1, bitsPerSample: 16, dataBytes: data.length }), 0);
  out.set(data, WAV_HEADER_BYTES);
  return out;
}

/** Parses a 16-bit PCM WAV. A data size of 0xFFFFFFFF (or one past the buffer end) reads to the end. */
export function parseWav(bytes: Uint8Array): ParsedWav {
  if (bytes.length < 12 || readAscii(bytes, 0) !== 'RIFF' || readAscii(bytes, 8) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let fmt: { channels: number; sampleRateHz: number; bitsPerSample: number } | undefined;
  while (offset + 8 <= bytes.length) {
    const id = readAscii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      const audioFormat = view.getUint16(body, true);
      // 0xFFFE is WAVE_FORMAT_EXTENSIBLE; accept it when it carries plain 16-bit PCM.
      if (audioFormat !== 1 && audioFormat !== 0xfffe) throw new Error(`unsupported WAV format ${audioFormat}`);
      fmt = {
        channels: view.getUint16(body + 2, true),
        sampleRateHz: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
      if (fmt.bitsPerSample !== 16) throw new Error(`unsupported WAV bit depth ${fmt.bitsPerSample}`);
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAV data chunk before fmt chunk');
      const end = size === WAV_STREAMING_SIZE || body + size > bytes.length ? bytes.length : body + size;
      return { ...fmt, samples: bytesLEToPcm16(bytes.subarray(body, end)) };
    }
    // Chunks are word-aligned: odd sizes carry one pad byte.
    offset = body + size + (size & 1);
  }
  throw new Error('WAV has no data chunk');
}
