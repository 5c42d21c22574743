// Frame sizes per format and the audio time each frame carries.

import { describe, expect, it } from 'vitest';
import { OggOpusStreamEncoder } from '../../../src/audio/ogg-opus-encoder.js';
import { splitOggPages } from '../../../src/audio/ogg-page.js';
import { FRAME_MS, framePlanFor, framesOf, toSeconds } from '../../../src/session/frame-plan.js';
import { concatBytes, decodeOggOpus } from '../audio/signal-helpers.js';

describe('frame plan', () => {
  it('40 ms frames for sample formats, 2048 bytes for mp3', () => {
    expect(FRAME_MS).toBe(40);
    expect(framePlanFor('pcm', 24000)).toEqual({ frameBytes: 1920, bytesPerSample: 2 });
    expect(framePlanFor('pcm', 8000)).toEqual({ frameBytes: 640, bytesPerSample: 2 });
    expect(framePlanFor('wav', 48000)).toEqual({ frameBytes: 3840, bytesPerSample: 2 });
    expect(framePlanFor('mulaw', 8000)).toEqual({ frameBytes: 320, bytesPerSample: 1 });
    expect(framePlanFor('mp3', 24000)).toEqual({ frameBytes: 2048, bytesPerSample: 1 });
    expect(framePlanFor('alaw', 16000)).toEqual({ frameBytes: 640, bytesPerSample: 1 });
    expect(framePlanFor('opus', 24000)).toEqual({ frameBytes: 0, bytesPerSample: 1, oggPages: true });
  });

  it('sends opus one whole Ogg page per frame, sharing the piece duration by bytes; the frames decode as they came', async () => {
    const encoder = new OggOpusStreamEncoder(24000);
    // 1.3 s in one clause: more than two full pages of 25 packets.
    const pcm = Int16Array.from({ length: 31200 }, (_, i) => Math.round(9000 * Math.sin(i / 9)));
    const piece = concatBytes([encoder.header(), encoder.encode(pcm)]);
    const plan = framePlanFor('opus', 24000);
    const frames = framesOf(piece, 1300, plan);
    const pages = splitOggPages(piece);
    expect(frames.map((f) => f.bytes.length)).toEqual(pages.map((p) => p.length));
    expect(frames.length).toBe(2 + 3); // OpusHead, OpusTags, then 25 + 25 + 15 packets
    expect(frames.every((f) => String.fromCharCode(...f.bytes.subarray(0, 4)) === 'OggS')).toBe(true);
    expect(frames.reduce((sum, f) => sum + f.ms, 0)).toBeCloseTo(1300, 6);
    const decoded = await decodeOggOpus(concatBytes([...frames.map((f) => f.bytes), encoder.flush()]));
    expect(decoded.samples.length).toBe(31200 * 2);
  });

  it('splits a piece into frames sharing its duration by bytes', () => {
    const plan = framePlanFor('pcm', 24000);
    const piece = new Uint8Array(1920 * 2 + 100); // 82.08 ms of 24 kHz PCM16
    const frames = framesOf(piece, 82.083333, plan);
    expect(frames.map((f) => f.bytes.length)).toEqual([1920, 1920, 100]);
    expect(frames[0]!.ms).toBeCloseTo(40, 3);
    expect(frames.reduce((sum, f) => sum + f.ms, 0)).toBeCloseTo(82.083333, 6);
    expect(framesOf(new Uint8Array(0), 0, plan)).toEqual([]);
  });

  it('duration_seconds has six decimals and is never negative', () => {
    expect(toSeconds(1722.9583333)).toBe(1.722958);
    expect(toSeconds(-1)).toBe(0);
  });
});
