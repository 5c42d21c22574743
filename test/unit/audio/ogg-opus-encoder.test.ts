// Ogg/Opus as RFC 7845 lays it out, judged by an independent decoder (ogg-opus-decoder) and by reading the pages:
// the decoded length is exactly the input's (pre-skip dropped, the end trimmed to the final granule), the level and
// pitch survive, the audio is not shifted, and every page is well formed.
import { describe, expect, it } from 'vitest';
import { oggCrc32 } from '../../../src/audio/ogg-crc.js';
import { OGG_BEGINNING_OF_STREAM, OGG_END_OF_STREAM, splitOggPages } from '../../../src/audio/ogg-page.js';
import { OggOpusStreamEncoder, OPUS_FRAME_MS, OPUS_PACKETS_PER_PAGE } from '../../../src/audio/ogg-opus-encoder.js';
import { floatToPcm16 } from '../../../src/audio/pcm.js';
import { concatBytes, db, decodeOggOpus, dominantFrequency, rms, tone } from './signal-helpers.js';

const RATES = [8000, 16000, 24000, 48000] as const;
const DECODED_HZ = 48000;

interface Page {
  readonly headerType: number;
  readonly granule: bigint;
  readonly serial: number;
  readonly sequence: number;
  readonly packets: Uint8Array[];
  readonly crcHolds: boolean;
}

function readPage(page: Uint8Array): Page {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  const segments = page[26]!;
  const packets: Uint8Array[] = [];
  let offset = 27 + segments;
  let length = 0;
  for (let i = 0; i < segments; i++) {
    const lace = page[27 + i]!;
    length += lace;
    if (lace < 255) {
      packets.push(page.subarray(offset, offset + length));
      offset += length;
      length = 0;
    }
  }
  const zeroed = page.slice();
  zeroed.fill(0, 22, 26);
  return {
    headerType: page[5]!,
    granule: view.getBigUint64(6, true),
    serial: view.getUint32(14, true),
    sequence: view.getUint32(18, true),
    packets,
    crcHolds: oggCrc32(zeroed) === view.getUint32(22, true),
  };
}

/** Feeds `pcm` in uneven chunks (the encoder re-frames), keeping each call's output apart. */
function encodeInChunks(encoder: OggOpusStreamEncoder, pcm: Int16Array): Uint8Array[] {
  const outputs = [encoder.header()];
  const sizes = [1, 37, 1000, 5000, 77, 960];
  for (let offset = 0, k = 0; offset < pcm.length; k++) {
    const n = sizes[k % sizes.length]!;
    outputs.push(encoder.encode(pcm.subarray(offset, offset + n)));
    offset += n;
  }
  outputs.push(encoder.flush());
  return outputs;
}

describe('OggOpusStreamEncoder', () => {
  it.each(RATES)('at %i Hz decodes to exactly the input length at 48 kHz, at the input level and pitch', async (rate) => {
    const input = tone(440, rate, Math.round(rate * 1.2345), 0.4);
    const encoder = new OggOpusStreamEncoder(rate);
    const decoded = await decodeOggOpus(concatBytes(encodeInChunks(encoder, floatToPcm16(input))));
    expect(decoded.errors).toBe(0);
    expect(decoded.sampleRate).toBe(DECODED_HZ);
    // The rule: decoded samples = input samples x 48000 / rate, exactly, for a decoder that drops the pre-skip and
    // trims to the last granule (RFC 7845 §4.2, §4.5). One that did neither would return up to pre-skip + a frame more.
    expect(decoded.samples.length).toBe((input.length * DECODED_HZ) / rate);
    expect(Math.abs(db(rms(decoded.samples) / rms(input)))).toBeLessThan(0.5);
    expect(Math.abs(dominantFrequency(decoded.samples, DECODED_HZ, 50, 2000) - 440)).toBeLessThan(440 * 0.02);
    // The last 5 ms are still the tone: the padding covered the encoder's lookahead, so no real sample was lost.
    const tail = Math.round(0.005 * DECODED_HZ);
    expect(Math.abs(db(rms(decoded.samples, decoded.samples.length - tail) / rms(input)))).toBeLessThan(3);
  });

  it('is not shifted in time: after the pre-skip the decoded audio lines up with the input', async () => {
    // A chirp (600 Hz to 3 kHz): its cross-correlation has one sharp peak, and it stays clear of the low end where
    // VOIP mode's high-pass filter turns phase (a low tone would look shifted by a few samples).
    const n = DECODED_HZ;
    const input = Float32Array.from({ length: n }, (_, i) => 0.4 * Math.sin(2 * Math.PI * (600 * (i / DECODED_HZ) + (2400 / 2) * (i / DECODED_HZ) ** 2)));
    const decoded = (await decodeOggOpus(concatBytes(encodeInChunks(new OggOpusStreamEncoder(DECODED_HZ), floatToPcm16(input))))).samples;
    const correlation = (lag: number) => {
      let sum = 0;
      for (let i = 4800; i < n - 4800; i++) sum += input[i]! * decoded[i + lag]!;
      return sum;
    };
    let best = 0;
    for (let lag = -400; lag <= 400; lag++) if (correlation(lag) > correlation(best)) best = lag;
    // A wrong pre-skip is off by hundreds of samples (312, or a lookahead not scaled to 48 kHz). At 32 kbit/s SILK
    // and hybrid modes model the waveform, not copy it: measured 1-3 samples (60 µs) of phase; CELT at 96 kbit/s+ is 0.
    expect(Math.abs(best)).toBeLessThanOrEqual(3);
  });

  it.each(RATES)('at %i Hz writes OpusHead, OpusTags, then audio pages with 48 kHz granules ending in a trimmed EOS page', (rate) => {
    const samples = Math.round(rate * 2.03);
    const encoder = new OggOpusStreamEncoder(rate, { serial: 0x5eed });
    const outputs = encodeInChunks(encoder, floatToPcm16(tone(200, rate, samples, 0.3)));
    // Every call returns whole pages.
    for (const output of outputs) expect(() => splitOggPages(output)).not.toThrow();
    const pages = splitOggPages(concatBytes(outputs)).map(readPage);
    expect(pages.every((page) => page.crcHolds && page.serial === 0x5eed)).toBe(true);
    expect(pages.map((page) => page.sequence)).toEqual(pages.map((_, i) => i));

    const [head, tags, ...audio] = pages as [Page, Page, ...Page[]];
    expect(head.headerType).toBe(OGG_BEGINNING_OF_STREAM);
    expect(head.granule).toBe(0n);
    expect(head.packets.length).toBe(1);
    const id = head.packets[0]!;
    const idView = new DataView(id.buffer, id.byteOffset, id.byteLength);
    expect(String.fromCharCode(...id.subarray(0, 8))).toBe('OpusHead');
    expect([id[8], id[9]]).toEqual([1, 1]); // version 1, mono
    // libopus's lookahead is 2.5 ms + 4 ms at every rate: 312 samples at 48 kHz.
    expect(idView.getUint16(10, true)).toBe(encoder.preSkip);
    expect(encoder.preSkip).toBe(312);
    expect(idView.getUint32(12, true)).toBe(rate);
    expect(idView.getInt16(16, true)).toBe(0);
    expect(id[18]).toBe(0);
    expect(id.length).toBe(19);

    expect(tags.headerType).toBe(0);
    expect(tags.granule).toBe(0n);
    expect(String.fromCharCode(...tags.packets[0]!.subarray(0, 8))).toBe('OpusTags');

    const scale = DECODED_HZ / rate;
    const frame48 = (OPUS_FRAME_MS * DECODED_HZ) / 1000;
    let packets = 0;
    for (const [i, page] of audio.entries()) {
      const last = i === audio.length - 1;
      expect(page.headerType).toBe(last ? OGG_END_OF_STREAM : 0);
      expect(page.packets.length).toBeGreaterThan(0);
      expect(page.packets.length).toBeLessThanOrEqual(OPUS_PACKETS_PER_PAGE);
      packets += page.packets.length;
      if (!last) expect(page.granule).toBe(BigInt(packets * frame48));
    }
    const final = audio[audio.length - 1]!;
    expect(final.granule).toBe(BigInt(encoder.preSkip + samples * scale));
    // The trim stays inside the last page, and the packets cover pre-skip + every sample (by less than one frame).
    const decodedByPackets = packets * frame48;
    expect(decodedByPackets - Number(final.granule)).toBeGreaterThanOrEqual(0);
    expect(decodedByPackets - Number(final.granule)).toBeLessThan(frame48);
    expect(Number(final.granule)).toBeGreaterThan(Number(audio[audio.length - 2]?.granule ?? 0n));
  });

  it('an empty stream is headers and one EOS page whose granule says nothing is to be played', async () => {
    const encoder = new OggOpusStreamEncoder(24000);
    const bytes = concatBytes([encoder.header(), encoder.flush()]);
    const pages = splitOggPages(bytes).map(readPage);
    expect(pages.length).toBe(3);
    expect(pages[2]!.headerType).toBe(OGG_END_OF_STREAM);
    expect(pages[2]!.granule).toBe(BigInt(encoder.preSkip));
    const decoded = await decodeOggOpus(bytes);
    expect(decoded.errors).toBe(0);
    // Playback length is granule - pre-skip = 0. ogg-opus-decoder trims a stream with less than one 20 ms frame of
    // audio only down to the pre-skip (measured: any length under 960 samples gains up to 312); from one frame on
    // it is exact, as the tests above show.
    expect(decoded.samples.length).toBeLessThanOrEqual(encoder.preSkip);
  });

  it('returns nothing until a whole 20 ms frame is in, then whole pages', () => {
    const encoder = new OggOpusStreamEncoder(16000);
    expect(encoder.encode(new Int16Array(319)).length).toBe(0);
    const page = encoder.encode(new Int16Array(1));
    expect(splitOggPages(page).length).toBe(1);
    encoder.close();
  });

  it('is freed by flush() and by close(): no more audio is accepted', () => {
    const flushed = new OggOpusStreamEncoder(8000);
    flushed.encode(new Int16Array(800));
    expect(flushed.flush().length).toBeGreaterThan(0);
    expect(flushed.flush().length).toBe(0);
    expect(() => flushed.encode(new Int16Array(160))).toThrow(/after flush/);
    const closed = new OggOpusStreamEncoder(8000);
    closed.close();
    closed.close();
    expect(() => closed.encode(new Int16Array(160))).toThrow();
    expect(closed.flush().length).toBe(0);
  });

  it('keeps working while hundreds of encoders are open on the thread (the WebAssembly memory grows)', async () => {
    const first = new OggOpusStreamEncoder(48000);
    const sine = tone(440, 48000, 48000, 0.4);
    const input = floatToPcm16(sine);
    const parts = [first.header(), first.encode(input.subarray(0, 24000))];
    const others = Array.from({ length: 400 }, () => new OggOpusStreamEncoder(48000));
    for (const other of others) other.encode(input.subarray(0, 960));
    parts.push(first.encode(input.subarray(24000)), first.flush());
    for (const other of others) other.close();
    const decoded = await decodeOggOpus(concatBytes(parts));
    expect(decoded.errors).toBe(0);
    expect(decoded.samples.length).toBe(48000);
    expect(Math.abs(db(rms(decoded.samples, 24000) / rms(sine, 24000)))).toBeLessThan(0.5);
  });

  it('rejects sample rates the API does not offer', () => {
    expect(() => new OggOpusStreamEncoder(22050)).toThrow(RangeError);
  });
});
