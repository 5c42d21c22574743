// Turns what the API returns into something an <audio> element plays: base64 decoding, and a WAV header around
// raw pcm (16-bit little-endian) or decoded mu-law or A-law, since browsers play none of them bare (Ogg/Opus and
// MP3 they play as they are).

export function base64ToBytes(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** G.711 mu-law byte → 16-bit sample (ITU-T G.711). */
function mulawToSample(byte) {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((u & 0x0f) << 3) + 0x84;
  const sample = (magnitude << exponent) - 0x84;
  return u & 0x80 ? -sample : sample;
}

/** G.711 A-law byte → 16-bit sample (ITU-T G.711: even bits inverted, sign bit set for positive). */
function alawToSample(byte) {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 0x07;
  let magnitude = ((a & 0x0f) << 4) + 8;
  if (exponent > 0) magnitude = (magnitude + 0x100) << (exponent - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

function g711ToPcm16(bytes, toSample) {
  const out = new Uint8Array(bytes.length * 2);
  const view = new DataView(out.buffer);
  bytes.forEach((byte, i) => view.setInt16(i * 2, toSample(byte), true));
  return out;
}

export function wavFromPcm16(pcm, sampleRateHz) {
  const out = new Uint8Array(44 + pcm.length);
  const view = new DataView(out.buffer);
  const ascii = (offset, text) => [...text].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + pcm.length, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRateHz, true);
  view.setUint32(28, sampleRateHz * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, pcm.length, true);
  out.set(pcm, 44);
  return out;
}

/** A streamed WAV says "until end of stream" (0xFFFFFFFF) in its sizes; once complete, write the real ones. */
function fixStreamedWav(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 44 && view.getUint32(4, true) === 0xffffffff) {
    view.setUint32(4, bytes.length - 8, true);
    view.setUint32(40, bytes.length - 44, true);
  }
  return bytes;
}

export function playableBlob(bytes, format, sampleRateHz) {
  switch (format) {
    case 'mp3':
      return new Blob([bytes], { type: 'audio/mpeg' });
    case 'wav':
      return new Blob([fixStreamedWav(bytes)], { type: 'audio/wav' });
    case 'pcm':
      return new Blob([wavFromPcm16(bytes, sampleRateHz)], { type: 'audio/wav' });
    case 'mulaw':
      return new Blob([wavFromPcm16(g711ToPcm16(bytes, mulawToSample), sampleRateHz)], { type: 'audio/wav' });
    case 'alaw':
      return new Blob([wavFromPcm16(g711ToPcm16(bytes, alawToSample), sampleRateHz)], { type: 'audio/wav' });
    case 'opus':
      return new Blob([bytes], { type: 'audio/ogg; codecs=opus' });
    default:
      throw new Error(`unknown format ${format}`);
  }
}
