// Decodes what the API returns, format by format, into samples the tests can count and measure.

import { MPEGDecoder } from 'mpg123-decoder';
import { OggOpusDecoder } from 'ogg-opus-decoder';
import { alawToPcm16 } from '../../src/audio/alaw.js';
import { mulawToPcm16 } from '../../src/audio/mulaw.js';
import { pcm16ToFloat } from '../../src/audio/pcm.js';
import { parseWav } from '../../src/audio/wav.js';

export interface Decoded {
  readonly sampleRateHz: number;
  readonly samples: Float32Array;
}

export async function decodeAudio(bytes: Uint8Array, format: string, sampleRateHz: number): Promise<Decoded> {
  switch (format) {
    case 'pcm': {
      if (bytes.byteLength % 2 !== 0) throw new Error(`pcm body has an odd length ${bytes.byteLength}`);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const pcm = new Int16Array(bytes.byteLength / 2);
      for (let i = 0; i < pcm.length; i++) pcm[i] = view.getInt16(i * 2, true);
      return { sampleRateHz, samples: pcm16ToFloat(pcm) };
    }
    case 'mulaw':
      return { sampleRateHz, samples: pcm16ToFloat(mulawToPcm16(bytes)) };
    case 'alaw':
      return { sampleRateHz, samples: pcm16ToFloat(alawToPcm16(bytes)) };
    case 'opus': {
      // An independent decoder; it always decodes at 48 kHz, pre-skip dropped and the end trimmed (RFC 7845).
      const decoder = new OggOpusDecoder();
      await decoder.ready;
      try {
        const decoded = await decoder.decodeFile(bytes);
        if (decoded.errors.length > 0) throw new Error(`opus decode errors: ${decoded.errors.length}`);
        return { sampleRateHz: decoded.sampleRate, samples: decoded.channelData[0] ?? new Float32Array(0) };
      } finally {
        decoder.free();
      }
    }
    case 'wav': {
      const wav = parseWav(bytes);
      return { sampleRateHz: wav.sampleRateHz, samples: pcm16ToFloat(wav.samples) };
    }
    case 'mp3': {
      const decoder = new MPEGDecoder();
      await decoder.ready;
      try {
        const decoded = decoder.decode(bytes);
        if (decoded.errors.length > 0) throw new Error(`mp3 decode errors: ${decoded.errors.length}`);
        return { sampleRateHz: decoded.sampleRate, samples: decoded.channelData[0] ?? new Float32Array(0) };
      } finally {
        decoder.free();
      }
    }
    default:
      throw new Error(`unknown format ${format}`);
  }
}

export function rmsDbfs(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return 10 * Math.log10(sum / Math.max(1, samples.length) + 1e-12);
}
