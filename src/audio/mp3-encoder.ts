// Streaming mono MP3 encoder over lamejs, fed in 1152-sample blocks so callers can push any chunk size.
// Bitrates are chosen per rate for speech; only MPEG rates 8/16/24/48 kHz are accepted.
import { Mp3Encoder } from '@breezystack/lamejs';
import { concatBytes } from './bytes.js';

const MP3_BLOCK_SAMPLES = 1152;

/** Speech-oriented CBR per sample rate; all are legal bitrates for the matching MPEG version. */
export const MP3_KBPS: Readonly<Record<number, number>> = { 8000: 32, 16000: 48, 24000: 64, 48000: 96 };

export class Mp3StreamEncoder {
  private readonly encoder: Mp3Encoder;
  private readonly block = new Int16Array(MP3_BLOCK_SAMPLES);
  private blockFill = 0;

  constructor(readonly sampleRateHz: number) {
    const kbps = MP3_KBPS[sampleRateHz];
    if (kbps === undefined) throw new RangeError(`MP3 output supports 8000/16000/24000/48000 Hz, got ${sampleRateHz}`);
    this.encoder = new Mp3Encoder(1, sampleRateHz, kbps);
  }

  encode(pcm: Int16Array): Uint8Array {
    const parts: Uint8Array[] = [];
    let i = 0;
    while (i < pcm.length) {
      const n = Math.min(MP3_BLOCK_SAMPLES - this.blockFill, pcm.length - i);
      this.block.set(pcm.subarray(i, i + n), this.blockFill);
      this.blockFill += n;
      i += n;
      if (this.blockFill === MP3_BLOCK_SAMPLES) {
        parts.push(toBytes(this.encoder.encodeBuffer(this.block)));
        this.blockFill = 0;
      }
    }
    return concatBytes(parts);
  }

  /** Encodes the partial block and lame's buffered frames. The encoder must not be used afterwards. */
  flush(): Uint8Array {
    const parts: Uint8Array[] = [];
    if (this.blockFill > 0) {
      parts.push(toBytes(this.encoder.encodeBuffer(this.block.slice(0, this.blockFill))));
      this.blockFill = 0;
    }
    parts.push(toBytes(this.encoder.flush()));
    return concatBytes(parts);
  }
}

// lamejs returns fresh Int8Arrays; view them as bytes without copying.
function toBytes(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}
