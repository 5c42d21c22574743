// Caller audio from the wire to the call, and bot audio from the call to the wire. The call speaks and listens in
// 20 ms frames of 8 kHz mu-law; providers send any amount per message (Exotel ~100 ms of PCM16, Smartflo ~100 ms
// of mu-law, Twilio 20 ms), so inbound audio is re-framed with a remainder kept, never dropped (a partial frame
// waits for the next message), and PCM16
// or wideband wire audio is transcoded here, once, for every provider.

import { bytesLEToPcm16, floatToPcm16, pcm16ToBytesLE, pcm16ToFloat } from '../audio/pcm.js';
import { concatBytes } from '../audio/bytes.js';
import { MULAW_BYTES_PER_MS, MULAW_SILENCE, mulawToPcm16, pcm16ToMulaw, PHONE_FRAME_BYTES, PHONE_FRAME_MS } from '../audio/mulaw.js';
import { Resampler } from '../audio/resampler.js';
import type { WireEncoding } from './stream-events.js';

export const CALL_SAMPLE_RATE_HZ = 8000;

export interface WireFormat {
  readonly encoding: WireEncoding;
  readonly sampleRateHz: number;
}

/** Wire formats a stream may use: mu-law at 8 kHz, linear PCM16 (little-endian) at 8, 16 or 24 kHz. */
export function isSupportedWireFormat(format: WireFormat): boolean {
  if (format.encoding === 'mulaw') return format.sampleRateHz === CALL_SAMPLE_RATE_HZ;
  return [8000, 16000, 24000].includes(format.sampleRateHz);
}

export interface InboundFrame {
  /** 160 bytes: 20 ms of 8 kHz mu-law. */
  readonly mulaw: Uint8Array;
  /** When the frame's last sample was spoken, ms since the stream began (the detector's time axis). */
  readonly endMs: number;
}

/** Turns wire audio of any size into whole call frames, keeping the remainder for the next message. */
export class InboundFramer {
  readonly #format: WireFormat;
  readonly #resampler: Resampler | undefined;
  /** Odd trailing byte of PCM16 input, kept for the next message. */
  #oddByte: number | undefined;
  #pending = new Uint8Array(0);
  /** Stream time (ms) at the end of the audio received so far. */
  #clockMs = 0;

  constructor(format: WireFormat) {
    this.#format = format;
    this.#resampler = format.encoding === 'pcm16' && format.sampleRateHz !== CALL_SAMPLE_RATE_HZ ? new Resampler(format.sampleRateHz, CALL_SAMPLE_RATE_HZ) : undefined;
  }

  /** Audio of one message; `atMs` (when it starts, if the provider says) re-anchors the clock after a gap. */
  push(audio: Uint8Array, atMs: number | undefined): InboundFrame[] {
    const mulaw = this.#toMulaw(audio);
    const bufferedMs = this.#pending.length / MULAW_BYTES_PER_MS;
    // The provider's timestamp marks where this message begins; the buffered remainder sits just before it.
    if (atMs !== undefined && atMs > this.#clockMs) this.#clockMs = atMs;
    // The common case (whole 20 ms messages, nothing pending) skips the copy.
    const joined = this.#pending.length === 0 ? mulaw : concatBytes([this.#pending, mulaw]);
    const whole = joined.length - (joined.length % PHONE_FRAME_BYTES);
    const frames: InboundFrame[] = [];
    let startMs = this.#clockMs - bufferedMs;
    for (let offset = 0; offset < whole; offset += PHONE_FRAME_BYTES) {
      startMs += PHONE_FRAME_MS;
      frames.push({ mulaw: joined.slice(offset, offset + PHONE_FRAME_BYTES), endMs: startMs });
    }
    this.#pending = joined.slice(whole);
    this.#clockMs += mulaw.length / MULAW_BYTES_PER_MS;
    return frames;
  }

  #toMulaw(audio: Uint8Array): Uint8Array {
    if (this.#format.encoding === 'mulaw') return audio;
    let bytes = audio;
    if (this.#oddByte !== undefined) {
      bytes = concatBytes([Uint8Array.of(this.#oddByte), audio]);
      this.#oddByte = undefined;
    }
    if (bytes.length % 2 === 1) {
      this.#oddByte = bytes[bytes.length - 1];
      bytes = bytes.subarray(0, bytes.length - 1);
    }
    let pcm = bytesLEToPcm16(bytes);
    if (this.#resampler) pcm = floatToPcm16(this.#resampler.process(pcm16ToFloat(pcm)));
    return pcm16ToMulaw(pcm);
  }
}

/** Bot audio (8 kHz mu-law) in the wire's format; stateful only for wideband (the resampler's history). */
export class OutboundTranscoder {
  readonly #format: WireFormat;
  readonly #resampler: Resampler | undefined;

  constructor(format: WireFormat) {
    this.#format = format;
    this.#resampler = format.encoding === 'pcm16' && format.sampleRateHz !== CALL_SAMPLE_RATE_HZ ? new Resampler(CALL_SAMPLE_RATE_HZ, format.sampleRateHz) : undefined;
  }

  /** Bytes of the wire format per 20 ms frame. */
  get frameBytes(): number {
    return this.#format.encoding === 'mulaw' ? PHONE_FRAME_BYTES : (this.#format.sampleRateHz / 1000) * PHONE_FRAME_MS * 2;
  }

  encode(mulaw: Uint8Array): Uint8Array {
    if (this.#format.encoding === 'mulaw') return mulaw;
    let pcm = mulawToPcm16(mulaw);
    if (this.#resampler) pcm = floatToPcm16(this.#resampler.process(pcm16ToFloat(pcm)));
    return pcm16ToBytesLE(pcm).slice();
  }

  /** Silence of `bytes` length in the wire format (mu-law 0xFF, PCM zeros). */
  silence(bytes: number): Uint8Array {
    return this.#format.encoding === 'mulaw' ? new Uint8Array(bytes).fill(MULAW_SILENCE) : new Uint8Array(bytes);
  }
}

