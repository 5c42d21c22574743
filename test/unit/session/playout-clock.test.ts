// The playout clock on a fake monotonic clock: audio runs at real time from when it is sent, the window bounds how
// far ahead sending may run, a gap inside an utterance counts as an underrun, and a clear resets the axis.

import { describe, expect, it } from 'vitest';
import { PlayoutClock } from '../../../src/session/playout-clock.js';
import { FakeClock } from '../../helpers/fake-clock.js';

describe('PlayoutClock', () => {
  it('buffers what is sent and drains it in real time', async () => {
    const clock = new FakeClock();
    const playout = new PlayoutClock(clock, 300);
    for (let i = 0; i < 10; i++) playout.push(20, i > 0);
    expect(playout.bufferedMs()).toBe(200);
    await clock.advance(150);
    expect(playout.bufferedMs()).toBe(50);
    expect(playout.playedMs()).toBe(150);
    await clock.advance(100);
    expect(playout.bufferedMs()).toBe(0);
    playout.push(20, true);
    expect(playout.underruns).toBe(1);
    playout.push(20, false);
    expect(playout.underruns).toBe(1);
  });

  it('waitForRoom returns at once within the window and sleeps until a batch fits beyond it', async () => {
    const clock = new FakeClock();
    const playout = new PlayoutClock(clock, 300);
    const signal = new AbortController().signal;
    let sent = 0;
    const pump = (async () => {
      for (let i = 0; i < 40; i++) {
        await playout.waitForRoom(20, signal);
        playout.push(20, i > 0);
        sent++;
        expect(playout.bufferedMs()).toBeLessThanOrEqual(300);
      }
    })();
    await clock.advance(0);
    expect(sent).toBe(15); // 300 ms at once
    await clock.advance(60);
    expect(sent).toBe(18);
    await clock.advance(1000);
    await pump;
    expect(sent).toBe(40);
    expect(playout.underruns).toBe(0);
  });

  it('an abort ends the wait at once; reset empties the buffer and restarts the axis', async () => {
    const clock = new FakeClock();
    const playout = new PlayoutClock(clock, 100);
    for (let i = 0; i < 5; i++) playout.push(20, i > 0);
    const controller = new AbortController();
    const waiting = playout.waitForRoom(20, controller.signal);
    controller.abort();
    await waiting;
    playout.reset();
    expect(playout.bufferedMs()).toBe(0);
    expect(playout.sentMs).toBe(0);
  });

  it('a hold stops all sending until release, which rewinds the axis; an abort still ends the wait', async () => {
    const clock = new FakeClock();
    const playout = new PlayoutClock(clock, 100);
    for (let i = 0; i < 5; i++) playout.push(20, i > 0);
    expect(playout.sentMs).toBe(100);
    playout.hold();
    expect(playout.held).toBe(true);
    expect(playout.bufferedMs()).toBe(0);
    let released = false;
    const waiting = playout.waitForRoom(20, new AbortController().signal).then(() => (released = true));
    await clock.advance(10_000);
    expect(released).toBe(false);
    // A frame that slipped in as the hold began moves the axis, not the buffer.
    playout.push(20, true);
    expect([playout.sentMs, playout.bufferedMs()]).toEqual([120, 0]);
    playout.release(60);
    await waiting;
    expect(released).toBe(true);
    expect([playout.held, playout.sentMs, playout.bufferedMs()]).toEqual([false, 60, 0]);

    playout.hold();
    const controller = new AbortController();
    const aborted = playout.waitForRoom(20, controller.signal);
    controller.abort();
    await aborted;
    // A hold that begins while a turn sleeps for room keeps it waiting past the sleep.
    playout.reset();
    for (let i = 0; i < 5; i++) playout.push(20, i > 0);
    let woke = false;
    const sleeping = playout.waitForRoom(20, new AbortController().signal).then(() => (woke = true));
    playout.hold();
    await clock.advance(1000);
    expect(woke).toBe(false);
    playout.release(100);
    await sleeping;
    expect(woke).toBe(true);
  });
});
