// The caller's track: clips placed on the stream's time line and cut into 20 ms mu-law frames, and the converters.

import { describe, expect, it } from 'vitest';
import { encodeWav } from '../../../src/audio/wav.js';
import { CallerTrack, onsetOffsetMs, samplesToMulaw, wavToMulaw } from '../../../src/sim/caller-audio.js';

describe('CallerTrack', () => {
  it('is silence (0xFF) where no clip plays, and places clips at their time', () => {
    const clip = new Uint8Array(240).fill(0x00);
    const track = new CallerTrack([{ atMs: 30, mulaw: clip, label: 'loud' }]);
    expect([...track.frame(0)].every((b) => b === 0xff)).toBe(true);
    const second = track.frame(1);
    expect(second.length).toBe(160);
    expect(second[79]).toBe(0xff);
    expect(second[80]).toBe(0x00);
    expect([...track.frame(2)].every((b) => b === 0x00)).toBe(true);
    expect([...track.frame(3)].every((b) => b === 0xff)).toBe(true);
    expect(track.endMs()).toBe(60);
  });

  it('finds where speech begins in each clip', () => {
    const clip = new Uint8Array(800).fill(0xff);
    clip.fill(0x10, 400);
    expect(onsetOffsetMs(clip)).toBe(50);
    expect(onsetOffsetMs(new Uint8Array(80).fill(0xff))).toBeUndefined();
    const track = new CallerTrack([{ atMs: 1000, mulaw: clip, label: 'x' }]);
    expect(track.onsets()).toEqual([{ atMs: 1050, label: 'x' }]);
  });
});

describe('converters', () => {
  it('resamples float audio to 8 kHz mu-law and reads WAV files of any rate and channel count', () => {
    const tone = new Float32Array(16000).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    expect(samplesToMulaw(tone, 16000).length).toBe(8000);
    const stereo = new Int16Array(2 * 24000);
    for (let i = 0; i < 24000; i++) stereo[2 * i] = stereo[2 * i + 1] = Math.round(16000 * Math.sin((2 * Math.PI * 300 * i) / 24000));
    const wav = encodeWav(stereo, 24000);
    // encodeWav writes mono headers; patch channels = 2 (and block align / byte rate) to make a stereo file.
    const view = new DataView(wav.buffer);
    view.setUint16(22, 2, true);
    view.setUint32(28, 24000 * 4, true);
    view.setUint16(32, 4, true);
    const mulaw = wavToMulaw(wav);
    expect(mulaw.length).toBe(8000);
    expect(onsetOffsetMs(mulaw)).toBeLessThan(5);
  });
});
