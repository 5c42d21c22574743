// The simulated line's echo: the audio the caller heard, attenuated and smeared by a short decaying impulse response
// (taps 1 ms apart), added to what the caller sends, in mu-law as a real line would carry it.

import { mulawToPcm16, pcm16ToMulaw } from '../audio/mulaw.js';

/** Taps of the echo's impulse response are 1 ms apart. */
export const SAMPLES_PER_TAP = 8;

/**
 * The line's echo response: deterministic decaying taps (a hybrid's few milliseconds of dispersion, or a small
 * room's), the first at `erlDb` below what was played.
 */
export function echoImpulseResponse(erlDb: number, taps: number): number[] {
  const gain = 10 ** (-Math.abs(erlDb) / 20);
  return Array.from({ length: Math.max(1, taps) }, (_, k) => gain * (k === 0 ? 1 : (k % 2 === 0 ? 0.5 : -0.4) * Math.exp(-k / 3)));
}

export class EchoPath {
  readonly #ir: number[];
  /** Heard audio needed before the frame's delayed window, for the response's tail. */
  readonly spanMs: number;

  constructor(
    readonly delayMs: number,
    erlDb: number,
    taps: number,
  ) {
    this.#ir = echoImpulseResponse(erlDb, taps);
    this.spanMs = ((this.#ir.length - 1) * SAMPLES_PER_TAP) / 8;
  }

  /** `own` (one caller frame) plus the echo of `heard`, which ends where the frame's delayed window ends. */
  mix(own: Uint8Array, heard: Uint8Array): Uint8Array {
    const caller = mulawToPcm16(own);
    const past = mulawToPcm16(heard);
    const offset = past.length - caller.length;
    const out = new Int16Array(caller.length);
    for (let i = 0; i < caller.length; i++) {
      let echo = 0;
      for (let k = 0; k < this.#ir.length; k++) {
        const j = offset + i - k * SAMPLES_PER_TAP;
        if (j >= 0) echo += this.#ir[k]! * past[j]!;
      }
      out[i] = Math.max(-32768, Math.min(32767, Math.round(caller[i]! + echo)));
    }
    return pcm16ToMulaw(out);
  }
}
