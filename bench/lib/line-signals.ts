// Non-speech sounds a phone line carries, made here from signal generators (8 kHz float samples), for the barge-in
// corpus: noise bursts, cough and breath proxies, ringback, mains hum, line noise, and the echo of the bot's own voice
// (delayed, attenuated, dispersed). Seeded, so every run hears the same sounds.

import { concatFloat32 } from '../../src/audio/bytes.js';
import { echoImpulseResponse, SAMPLES_PER_TAP } from '../../src/sim/echo-path.js';
import { seeded } from '../../test/helpers/seeded-random.js';

export const RATE_HZ = 8000;

export { seeded };

const samples = (ms: number): number => Math.round((ms * RATE_HZ) / 1000);
const gain = (dbfs: number): number => 10 ** (dbfs / 20);

/** Scales `signal` to an RMS of `dbfs` (full scale 1.0). */
export function atLevel(signal: Float32Array, dbfs: number): Float32Array {
  let sum = 0;
  for (const v of signal) sum += v * v;
  const rms = Math.sqrt(sum / Math.max(1, signal.length));
  const scale = rms > 0 ? gain(dbfs) / rms : 0;
  return signal.map((v) => v * scale);
}

/** White, pink or brown noise for `ms`, with 5 ms ramps so the burst does not click. */
export function noiseBurst(kind: 'white' | 'pink' | 'brown', ms: number, dbfs: number, random: () => number): Float32Array {
  const out = new Float32Array(samples(ms));
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let brown = 0;
  for (let i = 0; i < out.length; i++) {
    const white = random() * 2 - 1;
    if (kind === 'white') out[i] = white;
    else if (kind === 'pink') {
      // Paul Kellet's economy pink filter.
      b0 = 0.99765 * b0 + white * 0.099046;
      b1 = 0.963 * b1 + white * 0.2965164;
      b2 = 0.57 * b2 + white * 1.0526913;
      out[i] = b0 + b1 + b2 + white * 0.1848;
    } else {
      brown = (brown + 0.02 * white) / 1.02;
      out[i] = brown;
    }
  }
  return ramp(atLevel(out, dbfs), samples(5));
}

/** A cough proxy: a broadband explosive, then a noisy tail modulated by a 100-200 Hz pulse train (voiced energy). */
export function cough(random: () => number, dbfs: number): Float32Array {
  const burst = noiseBurst('white', 30 + random() * 30, dbfs + 4, random);
  const tailMs = 150 + random() * 150;
  const pulseHz = 100 + random() * 100;
  const tail = noiseBurst('pink', tailMs, dbfs, random).map((v, i) => {
    const phase = ((i * pulseHz) / RATE_HZ) % 1;
    const decay = Math.exp(-i / samples(tailMs / 2));
    return v * (phase < 0.3 ? 1 : 0.25) * decay;
  });
  return concatFloat32([burst, tail]);
}

/** A breath proxy: low-passed noise, slow attack and release. */
export function breath(random: () => number, ms: number, dbfs: number): Float32Array {
  const noise = noiseBurst('white', ms, 0, random);
  let y = 0;
  const low = noise.map((v) => (y = y + 0.08 * (v - y)));
  const n = low.length;
  return atLevel(low.map((v, i) => v * Math.sin((Math.PI * i) / n)), dbfs);
}

/** Indian ringback tone: 400 Hz modulated by 25 Hz (ITU-T E.180 lists 400×25 for India); `ms` on. */
export function ringback(ms: number, dbfs: number): Float32Array {
  const out = new Float32Array(samples(ms));
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE_HZ;
    out[i] = Math.sin(2 * Math.PI * 400 * t) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 25 * t));
  }
  return ramp(atLevel(out, dbfs), samples(5));
}

/** Mains hum: 50 Hz with its 100/150/250 Hz harmonics. */
export function hum(ms: number, dbfs: number): Float32Array {
  const out = new Float32Array(samples(ms));
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE_HZ;
    out[i] = Math.sin(2 * Math.PI * 50 * t) + 0.6 * Math.sin(2 * Math.PI * 100 * t) + 0.3 * Math.sin(2 * Math.PI * 150 * t) + 0.2 * Math.sin(2 * Math.PI * 250 * t);
  }
  return ramp(atLevel(out, dbfs), samples(10));
}

/** PSTN idle noise under everything: white noise near -60 dBFS. */
export function lineNoise(ms: number, random: () => number): Float32Array {
  return atLevel(
    Float32Array.from({ length: samples(ms) }, () => random() * 2 - 1),
    -60,
  );
}

/**
 * The bot's voice coming back: `sent` (what played to the caller) delayed by `delayMs`, through the same echo response
 * as the simulated provider's closed loop (src/sim/echo-path.ts), on the same timeline.
 */
export function echoOf(sent: Float32Array, delayMs: number, erlDb: number, taps: number): Float32Array {
  const ir = echoImpulseResponse(erlDb, taps);
  const d = samples(delayMs);
  const out = new Float32Array(sent.length);
  for (let i = d; i < out.length; i++) {
    let v = 0;
    for (let k = 0; k < ir.length && i - d - k * SAMPLES_PER_TAP >= 0; k++) v += ir[k]! * sent[i - d - k * SAMPLES_PER_TAP]!;
    out[i] = v;
  }
  return out;
}

/** Adds `signal` into `track` starting at sample `at` (clipped to the track). */
export function mixInto(track: Float32Array, signal: Float32Array, at: number, scale = 1): void {
  for (let i = 0; i < signal.length && at + i < track.length; i++) if (at + i >= 0) track[at + i]! += signal[i]! * scale;
}

/** Linear fade in and out over `n` samples. */
function ramp(signal: Float32Array, n: number): Float32Array {
  const m = Math.min(n, Math.floor(signal.length / 2));
  for (let i = 0; i < m; i++) {
    signal[i]! *= i / m;
    signal[signal.length - 1 - i]! *= i / m;
  }
  return signal;
}
