// G.711 mu-law (the Twilio media-stream and US/India PSTN codec), via alawmulaw; 1 byte per sample.
import alawmulaw from 'alawmulaw';

export function pcm16ToMulaw(pcm: Int16Array): Uint8Array {
  return alawmulaw.mulaw.encode(pcm);
}

export function mulawToPcm16(bytes: Uint8Array): Int16Array {
  return alawmulaw.mulaw.decode(bytes);
}
