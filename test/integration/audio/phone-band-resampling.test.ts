// The phone-band resampler against the transparent one on real speech (eSpeak NG at 22.05 kHz, every language),
// as a caller hears it: both brought down to 8 kHz, through mu-law and decoded. Inside the telephone band what the
// cheaper filter adds to the noise must stay under what mu-law itself adds; what it changes above the band stays small.

import { describe, expect, it } from 'vitest';
import { shapeClause } from '../../../src/audio/clause-delivery.js';
import { mulawToPcm16, pcm16ToMulaw } from '../../../src/audio/mulaw.js';
import { floatToPcm16 } from '../../../src/audio/pcm.js';
import { PHONE_BAND, Resampler, TRANSPARENT, type FilterDesign } from '../../../src/audio/resampler.js';
import { LANGUAGE_CODES } from '../../../src/languages.js';
import { useEspeakEngine } from '../../helpers/espeak-engine.js';
import { SENTENCES } from '../engine/sentences.js';

const espeak = useEspeakEngine();

function toPhone(samples: Float32Array, fromHz: number, design: FilterDesign): Float32Array {
  const resampler = new Resampler(fromHz, 8000, design);
  const head = resampler.process(samples);
  const tail = resampler.flush();
  const out = new Float32Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/** What the caller's handset decodes. */
const heard = (samples: Float32Array): Int16Array => mulawToPcm16(pcm16ToMulaw(floatToPcm16(samples)));

const energy = (x: ArrayLike<number>): number => {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i]! ** 2;
  return sum;
};

const difference = (a: ArrayLike<number>, b: ArrayLike<number>): Float64Array => Float64Array.from({ length: a.length }, (_, i) => a[i]! - b[i]!);

/** Energy of `x` between two frequencies (DFT of 20 ms frames at 8 kHz), in dB relative to `reference`'s whole energy. */
function bandDb(x: ArrayLike<number>, reference: number, lowHz: number, highHz: number): number {
  const n = 160;
  let band = 0;
  for (let start = 0; start + n <= x.length; start += n) {
    for (let k = Math.ceil((lowHz * n) / 8000); k <= Math.floor((highHz * n) / 8000); k++) {
      let re = 0;
      let im = 0;
      for (let i = 0; i < n; i++) {
        const w = (2 * Math.PI * k * i) / n;
        re += x[start + i]! * Math.cos(w);
        im -= x[start + i]! * Math.sin(w);
      }
      // Parseval for a real frame: bins k and n-k each carry |X|^2 / n.
      band += (2 * (re * re + im * im)) / n;
    }
  }
  return 10 * Math.log10(band / reference);
}

describe('phone-band resampling on real speech', () => {
  it.each(LANGUAGE_CODES)('differs from the transparent filter by less than mu-law inside 300-3400 Hz (%s)', async (language) => {
    const clip = await espeak.engine.synthesize(
      { text: SENTENCES[language], language, voiceName: 'priya', speed: 1, pitchShiftSemitones: 0 },
      new AbortController().signal,
    );
    expect(clip.sampleRateHz).toBe(22050);
    const shaped = shapeClause(clip.samples, clip.sampleRateHz).samples;
    const exact = floatToPcm16(toPhone(shaped, clip.sampleRateHz, TRANSPARENT));
    const transparent = heard(toPhone(shaped, clip.sampleRateHz, TRANSPARENT));
    const phone = heard(toPhone(shaped, clip.sampleRateHz, PHONE_BAND));
    expect(phone.length).toBe(exact.length);
    const signal = energy(exact);

    // Inside the band, against the transparent filter's exact output: mu-law's own noise, then the phone filter's
    // output through mu-law, which adds the filters' difference to it.
    const mulawNoiseDb = bandDb(difference(exact, transparent), signal, 300, 3400);
    const phoneNoiseDb = bandDb(difference(exact, phone), signal, 300, 3400);
    const wholeDifferenceDb = 10 * Math.log10(energy(difference(exact, floatToPcm16(toPhone(shaped, clip.sampleRateHz, PHONE_BAND)))) / signal);
    // Measured: mu-law -38.2 to -38.7 dB; the phone filter through mu-law 0.3-1.5 dB more.
    expect(mulawNoiseDb).toBeLessThan(-35);
    expect(phoneNoiseDb).toBeLessThan(mulawNoiseDb + 2);
    // Above the band (3.4-4 kHz) they differ more, but the whole difference stays far under the speech.
    expect(wholeDifferenceDb).toBeLessThan(-25);
  });
});
