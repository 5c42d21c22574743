// Barge-in's clock: it moves with the caller's audio as judged, not with real time; real times map onto it through the
// least delayed frame, so bursts and stalls do not move the map.

import { describe, expect, it } from 'vitest';
import { CallerAudioClock } from '../../../../src/session/barge-in/caller-audio-clock.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

describe('CallerAudioClock', () => {
  it('fires timers as the audio is judged, in order, at their due time; real time alone moves nothing', async () => {
    const real = new FakeClock(10_000);
    const clock = new CallerAudioClock(real);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 300);
    const cancelled = clock.setTimeout(() => fired.push('never'), 100);
    clock.setTimeout(() => {
      fired.push(`a@${clock.now()}`);
      // A timer set from a timer counts from its due time.
      clock.setTimeout(() => fired.push(`c@${clock.now()}`), 50);
    }, 200);
    clock.clearTimeout(cancelled);
    await real.advance(5000);
    expect(fired).toEqual([]);
    clock.advanceTo(180);
    expect(fired).toEqual([]);
    // A burst: 140 ms of audio judged at once.
    clock.advanceTo(320);
    expect(fired).toEqual(['a@200', 'c@250', 'b@300']);
    expect(clock.now()).toBe(320);
    // Never backwards.
    clock.advanceTo(100);
    expect(clock.now()).toBe(320);
  });

  it('maps real time onto the axis by the least delayed frame: a stall and its burst do not move it', async () => {
    const real = new FakeClock(1000);
    const clock = new CallerAudioClock(real);
    // Before any frame: the axis started with the call.
    expect(clock.toAxisMs(1500)).toBe(500);
    // The stream began 50 ms before the call: the first frame (audio up to 80 ms) arrives at real 1030.
    await real.advance(30);
    clock.arrived(80);
    expect(clock.toAxisMs(1030)).toBe(80);
    // Smooth for a while, then nothing for 300 ms, then the stalled audio at once.
    for (let atMs = 100; atMs <= 200; atMs += 20) {
      await real.advance(20);
      clock.arrived(atMs);
    }
    await real.advance(300);
    for (let atMs = 220; atMs <= 500; atMs += 20) clock.arrived(atMs);
    expect(clock.toAxisMs(real.now())).toBe(500);
    expect(clock.quietForMs()).toBe(0);
    await real.advance(700);
    expect(clock.quietForMs()).toBe(700);
    // A later frame with less delay (the network got faster) moves the map.
    clock.arrived(1220);
    expect(clock.toAxisMs(real.now())).toBe(1220);
  });
});
