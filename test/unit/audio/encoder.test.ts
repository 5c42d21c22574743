import { describe, expect, it } from 'vitest';
import { createEncoder } from '../../../src/audio/encoder.js';
import { mulawToPcm16 } from '../../../src/audio/mulaw.js';
import { parseWav } from '../../../src/audio/wav.js';
import { concatBytes, db, decodeMp3, decodeOggOpus, rms } from './signal-helpers.js';

const chunkA = new Int16Array([1, -2, 300, -400]);
const chunkB = new Int16Array([5000, -6000]);

describe('createEncoder', () => {
  it('streams raw PCM16 LE with no header', () => {
    const e = createEncoder('pcm', 8000, 'streaming');
    expect(e.header().length).toBe(0);
    expect(Array.from(e.encode(chunkB))).toEqual([0x88, 0x13, 0x90, 0xe8]);
    expect(e.flush().length).toBe(0);
  });

  it('streams WAV as a 0xFFFFFFFF header followed by PCM', () => {
    const e = createEncoder('wav', 16000, 'streaming');
    const bytes = concatBytes([e.header(), e.encode(chunkA), e.encode(chunkB), e.flush()]);
    expect(new DataView(bytes.buffer).getUint32(40, true)).toBe(0xffffffff);
    const parsed = parseWav(bytes);
    expect(parsed.sampleRateHz).toBe(16000);
    expect(Array.from(parsed.samples)).toEqual([...chunkA, ...chunkB]);
  });

  it('returns a whole WAV file with exact sizes in complete mode', () => {
    const e = createEncoder('wav', 24000, 'complete');
    expect(e.header().length).toBe(0);
    expect(e.encode(chunkA).length).toBe(0);
    expect(e.encode(chunkB).length).toBe(0);
    const file = e.flush();
    const v = new DataView(file.buffer, file.byteOffset);
    expect(file.length).toBe(44 + 12);
    expect(v.getUint32(4, true)).toBe(36 + 12);
    expect(v.getUint32(40, true)).toBe(12);
    expect(Array.from(parseWav(file).samples)).toEqual([...chunkA, ...chunkB]);
  });

  it('does not alias caller buffers in complete mode', () => {
    const e = createEncoder('pcm', 8000, 'complete');
    const reused = new Int16Array([1, 2]);
    e.encode(reused);
    reused[0] = 99;
    e.encode(reused);
    expect(Array.from(e.flush())).toEqual([1, 0, 2, 0, 99, 0, 2, 0]);
  });

  it.each(['streaming', 'complete'] as const)('writes 1 byte per sample for mulaw (%s)', (mode) => {
    const e = createEncoder('mulaw', 8000, mode);
    const bytes = concatBytes([e.header(), e.encode(chunkA), e.encode(chunkB), e.flush()]);
    expect(bytes.length).toBe(6);
    const back = mulawToPcm16(bytes);
    expect(Math.abs(back[4]! - 5000)).toBeLessThan(200);
  });

  it.each(['streaming', 'complete'] as const)('produces decodable mp3 (%s)', async (mode) => {
    const e = createEncoder('mp3', 16000, mode);
    const pcm = Int16Array.from({ length: 16000 }, (_, i) => Math.round(8000 * Math.sin(i / 5)));
    const bytes = concatBytes([e.header(), e.encode(pcm), e.flush()]);
    const d = await decodeMp3(bytes);
    expect(d.sampleRate).toBe(16000);
    expect(d.samples.length).toBeGreaterThanOrEqual(16000);
  });

  it.each(['streaming', 'complete'] as const)('produces a decodable Ogg/Opus stream (%s): headers first, exact length', async (mode) => {
    const e = createEncoder('opus', 16000, mode);
    const pcm = Int16Array.from({ length: 16000 }, (_, i) => Math.round(8000 * Math.sin(i / 5)));
    const header = e.header();
    if (mode === 'streaming') expect(String.fromCharCode(...header.subarray(28, 36))).toBe('OpusHead');
    else expect(header.length).toBe(0);
    const body = e.encode(pcm);
    if (mode === 'complete') expect(body.length).toBe(0);
    const bytes = concatBytes([header, body, e.flush()]);
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('OggS');
    const d = await decodeOggOpus(bytes);
    expect(d.errors).toBe(0);
    expect(d.samples.length).toBe(16000 * 3);
    expect(Math.abs(db(rms(d.samples) / (rms(pcm) / 32768)))).toBeLessThan(0.5);
  });

  it('complete and streaming Opus carry the same packets (only the random serial differs)', async () => {
    const pcm = Int16Array.from({ length: 24000 }, (_, i) => Math.round(6000 * Math.sin(i / 7)));
    const streaming = createEncoder('opus', 24000, 'streaming');
    const complete = createEncoder('opus', 24000, 'complete');
    const a = await decodeOggOpus(concatBytes([streaming.header(), streaming.encode(pcm), streaming.flush()]));
    complete.encode(pcm);
    const b = await decodeOggOpus(complete.flush());
    expect(Array.from(a.samples)).toEqual(Array.from(b.samples));
  });

  it.each(['streaming', 'complete'] as const)('close() before flush frees the Opus encoder: it takes no more audio (%s)', (mode) => {
    const e = createEncoder('opus', 8000, mode);
    e.encode(new Int16Array(400));
    e.close();
    e.close();
    expect(() => e.encode(new Int16Array(160))).toThrow();
  });
});
