// The simulated provider's view of a resumed hold: where the re-sent audio starts in what came before the clear,
// and how much of it the caller hears twice or never.

import { describe, expect, it } from 'vitest';
import { fadeInMulaw } from '../../../src/audio/mulaw.js';
import { ReplayWatch } from '../../../src/sim/replay-watch.js';

/** Frame `i` of a made-up utterance: 160 bytes no other frame has. */
const frame = (i: number) => Uint8Array.from({ length: 160 }, (_, j) => (i * 7 + j * 13) % 251);
const frames = (from: number, to: number) => Buffer.concat(Array.from({ length: to - from }, (_, k) => frame(from + k)));

describe('ReplayWatch', () => {
  it('a replay from before the last played sample: repeated, nothing lost', () => {
    const watch = new ReplayWatch();
    expect(watch.media(frames(0, 10))).toBeUndefined();
    // Seven frames (140 ms) had played at the clear; the server resumes at frame 5.
    watch.clear(7 * 160);
    expect(watch.media(fadeInMulaw(frame(5), 64))).toBeUndefined();
    expect(watch.media(frames(6, 12))).toEqual({ fromMs: 100, repeatedMs: 40, lostMs: 0 });
  });

  it('a replay that starts after what played: that stretch is lost', () => {
    const watch = new ReplayWatch();
    watch.media(frames(0, 10));
    watch.clear(3 * 160);
    expect(watch.media(Buffer.concat([fadeInMulaw(frame(5), 64), frame(6)]))).toBeUndefined();
    expect(watch.media(frame(7))).toEqual({ fromMs: 100, repeatedMs: 0, lostMs: 40 });
  });

  it('silence repeats anywhere: the start is taken from the first stretch with sound', () => {
    const silence = new Uint8Array(160).fill(0xff);
    const watch = new ReplayWatch();
    // Sound, a pause of four silent frames, sound, another pause.
    watch.media(Buffer.concat([frames(0, 3), silence, silence, silence, silence, frames(3, 6), silence, silence]));
    watch.clear(4 * 160);
    // The server resumes at frame 3 (the start of the first pause): silent frames first, then the sound after them.
    expect(watch.media(Buffer.concat([silence, silence, silence]))).toBeUndefined();
    expect(watch.media(Buffer.concat([silence, frame(3), frame(4)]))).toEqual({ fromMs: 60, repeatedMs: 20, lostMs: 0 });
  });

  it('new audio after a clear (a committed barge-in, then the next utterance) is no replay', () => {
    const watch = new ReplayWatch();
    watch.media(frames(0, 10));
    watch.clear(4 * 160);
    expect(watch.media(frames(100, 104))).toBeUndefined();
    // The next clear compares against the audio since this one.
    watch.clear(2 * 160);
    expect(watch.media(frames(101, 104))).toEqual({ fromMs: 20, repeatedMs: 20, lostMs: 0 });
    // Silence alone after a clear decides nothing, and after a second of it the watch gives up.
    watch.media(frames(110, 112));
    watch.clear(2 * 160);
    for (let i = 0; i < 60; i++) expect(watch.media(new Uint8Array(160).fill(0xff))).toBeUndefined();
  });
});
