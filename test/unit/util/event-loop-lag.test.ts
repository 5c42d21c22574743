// The event-loop lag monitor: each second's p99 (less the native monitor's own resolution), the median of the last
// three seconds and no verdict before three are in, measured only from start(); on a histogram and a slice timer the
// test drives, with call admission reading it (start-up lag never sheds); and Node's native monitor seeing a blocked loop.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import { CallAdmission } from '../../../src/telephony/call-admission.js';
import { EventLoopLagMonitor, type DelayHistogram } from '../../../src/util/event-loop-lag.js';

/** A histogram whose p99 the test sets, in ms; records how often it was enabled, reset and disabled. */
class SetHistogram implements DelayHistogram {
  p99Ms: number | undefined;
  enabled = 0;
  resets = 0;
  disabled = false;
  get count(): number {
    return this.p99Ms === undefined ? 0 : 1;
  }
  percentile(): number {
    return (this.p99Ms ?? 0) * 1e6;
  }
  enable(): void {
    this.enabled++;
  }
  reset(): void {
    this.p99Ms = undefined;
    this.resets++;
  }
  disable(): void {
    this.disabled = true;
  }
}

/** A loop's delays as the native monitor records them: each timer tick's whole interval (10 ms idle), in ns. */
class LoopHistogram implements DelayHistogram {
  #delaysMs: number[] = [];
  get count(): number {
    return this.#delaysMs.length;
  }
  /** The loop was busy for `ms` at once: the 10 ms tick came that much late. */
  blocked(ms: number): void {
    this.#delaysMs.push(10 + ms);
  }
  /** A second of 100 ticks: quiet ones and `blocks` blocks of `blockedMs` (two of 100 make the p99 the block). */
  second(blockedMs: number, blocks = 2): void {
    for (let tick = 0; tick < 100 - blocks; tick++) this.#delaysMs.push(10);
    for (let block = 0; block < blocks; block++) this.blocked(blockedMs);
  }
  percentile(percentile: number): number {
    const sorted = [...this.#delaysMs].sort((a, b) => a - b);
    return sorted[Math.max(0, Math.ceil((percentile / 100) * sorted.length) - 1)]! * 1e6;
  }
  enable(): void {}
  reset(): void {
    this.#delaysMs = [];
  }
  disable(): void {}
}

function manualMonitor(histogram?: DelayHistogram) {
  let slice: (() => void) | undefined;
  let stopped = 0;
  const monitor = new EventLoopLagMonitor({
    ...(histogram ? { histogram } : {}),
    everySlice: (next) => {
      slice = next;
      return () => {
        slice = undefined;
        stopped++;
      };
    },
  });
  return {
    monitor,
    slicing: () => slice !== undefined,
    slice: () => {
      if (!slice) throw new Error('the monitor is not slicing');
      slice();
    },
    stopped: () => stopped,
  };
}

it('reads each second`s p99 less the 10 ms resolution, as the median of the last three seconds, from start() on', () => {
  const histogram = new SetHistogram();
  const { monitor, slice, slicing, stopped } = manualMonitor(histogram);
  expect(monitor.p99Ms()).toBeUndefined();
  expect(slicing()).toBe(false); // nothing is measured before start()
  histogram.p99Ms = 500;
  monitor.start();
  expect([histogram.enabled, histogram.resets, histogram.p99Ms]).toEqual([1, 1, undefined]); // what came before is gone
  const second = (p99Ms: number | undefined) => {
    histogram.p99Ms = p99Ms;
    slice();
    return monitor.p99Ms();
  };
  expect(second(150)).toBeUndefined(); // one slice: no verdict
  expect(second(undefined)).toBeUndefined(); // an idle second reads 0; two slices: still none
  expect(second(12.34)).toBe(2.3); // 140, 0, 2.3: the median, rounded to 0.1 ms
  expect(second(5)).toBe(0); // the resolution itself is no lag: 0, 2.3, 0
  expect(histogram.resets).toBe(5);
  // A second start discards the window and the histogram, and replaces the slice timer.
  histogram.p99Ms = 300;
  monitor.start();
  expect([stopped(), histogram.resets, histogram.p99Ms, monitor.p99Ms()]).toEqual([1, 6, undefined, undefined]);
  monitor.close();
  expect(stopped()).toBe(2);
  expect(slicing()).toBe(false);
  expect(histogram.disabled).toBe(true);
});

it('start-up lag never sheds a call: 500 ms blocked before listen, the first call is admitted; served lag sheds, with hysteresis', () => {
  const histogram = new LoopHistogram();
  const { monitor, slice } = manualMonitor(histogram);
  const lines: string[] = [];
  const admission = new CallAdmission({
    config: parseConfig({ TELEPHONY_SHED_LAG_MS: '40' }).telephony.admission,
    lag: monitor,
    now: () => 0,
    log: (_level, _fields, message) => lines.push(message),
  });
  // Start-up: the loop blocked for 500 ms (building the app, compiling schemas) before the server listens.
  histogram.blocked(500);
  histogram.second(500);
  expect(admission.shedding).toBe(false);
  monitor.start();
  const first = admission.tryAdmit('twilio');
  expect(first.ok).toBe(true);
  expect(admission.check('twilio')).toBeUndefined();
  // The served loop lags 100 ms (p99 = 110 ms ticks less the resolution): no verdict until three seconds are in.
  const served = (blockedMs: number) => {
    histogram.second(blockedMs);
    slice();
    return { lagMs: monitor.p99Ms(), refused: admission.check('twilio') };
  };
  expect(served(100)).toEqual({ lagMs: undefined, refused: undefined });
  expect(served(100)).toEqual({ lagMs: undefined, refused: undefined });
  expect(served(100)).toEqual({ lagMs: 100, refused: 'event_loop_lag' });
  expect(admission.tryAdmit('twilio')).toEqual({ ok: false, reason: 'event_loop_lag' });
  // Under the threshold but not under half of it (20 ms): still shedding.
  expect(served(30)).toEqual({ lagMs: 100, refused: 'event_loop_lag' });
  expect(served(30)).toEqual({ lagMs: 30, refused: 'event_loop_lag' });
  expect(served(5)).toEqual({ lagMs: 30, refused: 'event_loop_lag' });
  expect(served(5)).toEqual({ lagMs: 5, refused: undefined });
  // One bad second alone does not start it again.
  expect(served(500)).toEqual({ lagMs: 5, refused: undefined });
  expect(lines.filter((line) => !line.startsWith('new calls refused'))).toEqual([
    'shedding load: new calls refused while the event loop lags',
    'load shedding over: new calls accepted again',
  ]);
  // A restart of the monitor is a fresh start: what it measured before gives no verdict.
  expect(served(500)).toEqual({ lagMs: 500, refused: 'event_loop_lag' });
  monitor.start();
  expect(admission.check('twilio')).toBeUndefined();
  monitor.close();
});

it('sees a loop blocked by Atomics.wait in Node`s own monitor', async () => {
  const { monitor, slice } = manualMonitor();
  monitor.start();
  const blocker = new Int32Array(new SharedArrayBuffer(4));
  try {
    // Blocks this thread for 150 ms, twice: the native monitor's next 10 ms tick comes late by about that much, and the
    // first tick after enabling or a reset (each slice resets) only sets its starting point, so the second one counts.
    // Until the monitor has seen it in two of three slices: a tick that has not run yet by the slice is seen later.
    for (let tries = 1; !((monitor.p99Ms() ?? 0) > 0); tries++) {
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
