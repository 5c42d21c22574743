// G.711 mu-law (the Twilio media-stream and US/India PSTN codec), via alawmulaw; 1 byte per sample.
import alawmulaw from 'alawmulaw';

export function pcm16ToMulaw(pcm: Int16Array): Uint8Array {
  return alawmulaw.mulaw.encode(pcm);
}

export function mulawToPcm16(bytes: Uint8Array): Int16Array {
  return alawmulaw.mulaw.decode(bytes);
}

/** 8 kHz mu-law is one byte per sample: 8 bytes per millisecond. */
export const MULAW_BYTES_PER_MS = 8;
/** The phone frame: 20 ms, the cadence every provider's media stream uses. */
export const PHONE_FRAME_MS = 20;
/** One phone frame of 8 kHz mu-law. */
export const PHONE_FRAME_BYTES = PHONE_FRAME_MS * MULAW_BYTES_PER_MS;
/** mu-law for +0: silence, to pad a frame or fill a gap. */
export const MULAW_SILENCE = 0xff;

/** A copy of `frame` whose first `samples` rise linearly from silence: audio that restarts mid-word does not click. */
export function fadeInMulaw(frame: Uint8Array, samples: number): Uint8Array {
  const pcm = mulawToPcm16(frame);
  const ramp = Math.min(samples, pcm.length);
  for (let i = 0; i < ramp; i++) pcm[i] = Math.round((pcm[i]! * i) / ramp);
  return pcm16ToMulaw(pcm);
}
