// The event-loop lag monitor: each second's p99 (less the native monitor's own resolution), the median of the last
// three seconds, on a histogram and a slice timer the test drives; and Node's native monitor seeing a blocked loop.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { EventLoopLagMonitor, type DelayHistogram } from '../../../src/util/event-loop-lag.js';

/** A histogram whose p99 the test sets, in ms; records how often it was reset and disabled. */
class SetHistogram implements DelayHistogram {
  p99Ms: number | undefined;
  resets = 0;
  disabled = false;
  get count(): number {
    return this.p99Ms === undefined ? 0 : 1;
  }
  percentile(): number {
    return (this.p99Ms ?? 0) * 1e6;
  }
  reset(): void {
    this.p99Ms = undefined;
    this.resets++;
  }
  disable(): void {
    this.disabled = true;
  }
}

function manualMonitor(histogram?: DelayHistogram) {
  let slice: () => void = () => undefined;
  let stopped = false;
  const monitor = new EventLoopLagMonitor({
    ...(histogram ? { histogram } : {}),
    everySlice: (next) => {
      slice = next;
      return () => (stopped = true);
    },
  });
  return { monitor, slice: () => slice(), stopped: () => stopped };
}

it('reads each second`s p99 less the 10 ms resolution, as the median of the last three seconds', () => {
  const histogram = new SetHistogram();
  const { monitor, slice, stopped } = manualMonitor(histogram);
  expect(monitor.p99Ms()).toBe(0);
  const second = (p99Ms: number | undefined) => {
    histogram.p99Ms = p99Ms;
    slice();
    return monitor.p99Ms();
  };
  expect(second(150)).toBe(140); // one slice: itself
  expect(second(undefined)).toBe(140); // an idle second reads 0; two slices: the larger middle one
  expect(second(12.34)).toBe(2.3); // 0, 2.3, 140: the median, rounded to 0.1 ms
  expect(second(5)).toBe(0); // the resolution itself is no lag: 0, 2.3, 0
  expect(histogram.resets).toBe(4);
  monitor.close();
  expect(stopped()).toBe(true);
  expect(histogram.disabled).toBe(true);
});

it('sees a loop blocked by Atomics.wait in Node`s own monitor', async () => {
  const { monitor, slice } = manualMonitor();
  const blocker = new Int32Array(new SharedArrayBuffer(4));
  try {
    // Blocks this thread for 150 ms, twice: the native monitor's next 10 ms tick comes late by about that much, and the
    // first tick after enabling or a reset (each slice resets) only sets its starting point, so the second one counts.
    // Until the monitor has seen it: a tick that has not run yet by the slice is seen on the next try.
    for (let tries = 1; monitor.p99Ms() === 0; tries++) {
      expect(tries, 'the native monitor saw no lag after 20 blocked tries').toBeLessThanOrEqual(20);
      for (let block = 0; block < 2; block++) {
        Atomics.wait(blocker, 0, 0, 150);
        await nextTurn();
      }
      slice();
    }
  } finally {
    monitor.close();
  }
});
