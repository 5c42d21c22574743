// Conversions between float samples in [-1, 1], PCM16 and little-endian PCM16 bytes.
// Every encoder and the WAV writer goes through here so scaling and clipping live in one place.

/** Scale 32767 (not 32768) so +1.0 and -1.0 map symmetrically and never wrap. */
const PCM16_SCALE = 32767;

// Typed arrays use host byte order; the wire format is little-endian, so check once.
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function floatToPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    let s = samples[i]!;
    // NaN from an upstream bug must not become a full-scale click: treat it as silence.
    if (!(s === s)) s = 0;
    else if (s > 1) s = 1;
    else if (s < -1) s = -1;
    out[i] = Math.round(s * PCM16_SCALE);
  }
  return out;
}

/**
 * One PCM16 sample as a float, the way decoders and level meters read it: / 32768, so [-32768, 32767] maps into
 * [-1, 1) (what VAD models are trained on); writers use PCM16_SCALE instead, so they never wrap.
 */
export function pcm16Sample(value: number): number {
  return value / 32768;
}

export function pcm16ToFloat(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  // -32768 would map slightly below -1; clamp so the [-1, 1] contract holds.
  for (let i = 0; i < pcm.length; i++) out[i] = Math.max(-1, pcm[i]! / PCM16_SCALE);
  return out;
}

/** Little-endian bytes of `pcm`. On little-endian hosts this is a view over the same memory (no copy). */
export function pcm16ToBytesLE(pcm: Int16Array): Uint8Array {
  if (HOST_IS_LITTLE_ENDIAN) return new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const out = new Uint8Array(pcm.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i]!, true);
  return out;
}

/** Inverse of pcm16ToBytesLE; an odd trailing byte is ignored. Always copies. */
export function bytesLEToPcm16(bytes: Uint8Array): Int16Array {
  const count = bytes.length >> 1;
  const out = new Int16Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  for (let i = 0; i < count; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}
