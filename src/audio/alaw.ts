// G.711 A-law (PCMA: the law of E1 trunks, as in India and Europe), via alawmulaw; 1 byte per sample.
import alawmulaw from 'alawmulaw';

export function pcm16ToAlaw(pcm: Int16Array): Uint8Array {
  return alawmulaw.alaw.encode(pcm);
}

export function alawToPcm16(bytes: Uint8Array): Int16Array {
  return alawmulaw.alaw.decode(bytes);
}
