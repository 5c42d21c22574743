import { describe, expect, it } from 'vitest';
import { Mp3StreamEncoder } from '../../../src/audio/mp3-encoder.js';
import { floatToPcm16 } from '../../../src/audio/pcm.js';
import { concatBytes, decodeMp3, dominantFrequency, tone } from './signal-helpers.js';

// MPEG-1 (48 kHz) frames hold 1152 samples, MPEG-2/2.5 (8-24 kHz) 576; allow two of the larger.
const TWO_FRAMES = 2 * 1152;

describe('Mp3StreamEncoder', () => {
  it.each([8000, 16000, 24000, 48000])('encodes decodable mono MP3 at %i Hz', async (rate) => {
    const pcm = floatToPcm16(tone(440, rate, rate, 0.4));
    const enc = new Mp3StreamEncoder(rate);
    const parts: Uint8Array[] = [];
    // Odd chunk sizes: the encoder must re-block internally.
    const sizes = [1, 37, 1000, 1151, 1152, 1153, 5000];
    let o = 0;
    for (let k = 0; o < pcm.length; k++) {
      const n = sizes[k % sizes.length]!;
      parts.push(enc.encode(pcm.subarray(o, o + n)));
      o += n;
    }
    parts.push(enc.flush());
    const bytes = concatBytes(parts);
    const decoded = await decodeMp3(bytes);
    expect(decoded.errors).toBe(0);
    expect(decoded.sampleRate).toBe(rate);
    // Decoders without a LAME tag keep the encoder delay and padding: output is longer, never shorter.
    expect(decoded.samples.length).toBeGreaterThanOrEqual(pcm.length);
    expect(decoded.samples.length - pcm.length).toBeLessThanOrEqual(TWO_FRAMES);
    expect(Math.abs(dominantFrequency(decoded.samples, rate, 50, Math.min(4000, rate / 2)) - 440)).toBeLessThan(440 * 0.02);
  });

  it('rejects sample rates MP3 output does not offer', () => {
    expect(() => new Mp3StreamEncoder(22050)).toThrow(RangeError);
  });
});
