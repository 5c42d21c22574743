// The pacer for providers without a playout buffer (AudioSocket), on a fake clock: one frame per 20 ms, marks
// acknowledged when the frame before them has played, a clear drops frames and marks, a stall does not burst.

import { describe, expect, it } from 'vitest';
import { FramePacer } from '../../../src/telephony/frame-pacer.js';
import { FakeClock } from '../../helpers/fake-clock.js';

function setup() {
  const clock = new FakeClock(0);
  const log: string[] = [];
  const pacer = new FramePacer({ clock, frameMs: 20, send: (frame) => log.push(`${clock.now()}:f${frame[0]}`), played: (name) => log.push(`${clock.now()}:${name}`) });
  const frames = (...ids: number[]) => ids.map((id) => Uint8Array.of(id));
  return { clock, log, pacer, frames };
}

describe('FramePacer', () => {
  it('sends the first frame at once and then one every 20 ms; a mark is acknowledged when the frame before it has played', async () => {
    const { clock, log, pacer, frames } = setup();
    pacer.enqueueFrames(frames(1, 2));
    pacer.enqueueMark('m1');
    pacer.enqueueFrames(frames(3));
    pacer.enqueueMark('m2');
    expect(log).toEqual(['0:f1']);
    await clock.advance(100);
    expect(log).toEqual(['0:f1', '20:f2', '40:m1', '40:f3', '60:m2']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('a mark with nothing before it is acknowledged at once', () => {
    const { log, pacer } = setup();
    pacer.enqueueMark('empty');
    expect(log).toEqual(['0:empty']);
  });

  it('audio enqueued while a frame plays continues the schedule without a gap or a burst', async () => {
    const { clock, log, pacer, frames } = setup();
    pacer.enqueueFrames(frames(1));
    await clock.advance(10);
    pacer.enqueueFrames(frames(2, 3));
    await clock.advance(50);
    expect(log).toEqual(['0:f1', '20:f2', '40:f3']);
  });

  it('a clear drops the waiting frames and marks: they are never sent nor acknowledged', async () => {
    const { clock, log, pacer, frames } = setup();
    pacer.enqueueFrames(frames(1, 2, 3));
    pacer.enqueueMark('cut');
    await clock.advance(25);
    pacer.dropQueued();
    expect(pacer.queuedFrames).toBe(0);
    await clock.advance(100);
    expect(log).toEqual(['0:f1', '20:f2']);
    pacer.enqueueFrames(frames(9));
    expect(log.at(-1)).toBe('125:f9');
  });

  it('after a stall longer than 60 ms the schedule restarts from now instead of bursting the backlog', async () => {
    const clock = new FakeClock(0);
    const sent: number[] = [];
    // A clock whose timers fire late, as on a blocked event loop: the timer for 20 ms fires at 200 ms.
    const lateClock = { ...clock, now: () => clock.now(), setTimeout: (callback: () => void, ms: number) => clock.setTimeout(callback, ms === 20 ? 200 : ms), clearTimeout: (timer: never) => clock.clearTimeout(timer) };
    const pacer = new FramePacer({ clock: lateClock, frameMs: 20, send: () => sent.push(clock.now()), played: () => undefined });
    pacer.enqueueFrames(Array.from({ length: 5 }, () => new Uint8Array(1)));
    await clock.advance(200);
    expect(sent).toEqual([0, 200]);
  });

  it('a played callback that enqueues more does not start a second schedule', async () => {
    const { clock, log, frames } = setup();
    const reentrant = new FramePacer({
      clock,
      frameMs: 20,
      send: (frame) => log.push(`${clock.now()}:f${frame[0]}`),
      played: (name) => {
        log.push(`${clock.now()}:${name}`);
        if (name === 'a') reentrant.enqueueFrames(frames(2));
      },
    });
    reentrant.enqueueFrames(frames(1));
    reentrant.enqueueMark('a');
    await clock.advance(100);
    expect(log).toEqual(['0:f1', '20:a', '20:f2']);
  });

  it('stop: nothing more is sent or acknowledged', async () => {
    const { clock, log, pacer, frames } = setup();
    pacer.enqueueFrames(frames(1, 2));
    pacer.enqueueMark('never');
    pacer.stop();
    pacer.enqueueFrames(frames(3));
    await clock.advance(100);
    expect(log).toEqual(['0:f1']);
    expect(clock.pendingTimers).toBe(0);
  });
});
