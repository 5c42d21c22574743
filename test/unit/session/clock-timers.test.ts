// The census of the server's clock timers (raaga_clock_timers_pending): a timer counts from set until it fires or is
// cleared, on the system and the monotonic clock alike, and the gauge reads it at scrape time.

import { describe, expect, it } from 'vitest';
import { PrometheusMetrics } from '../../../src/metrics/prometheus-metrics.js';
import { monotonicClock, pendingClockTimers, systemClock } from '../../../src/session/clock.js';
import { sampleValue } from '../../helpers/metrics.js';

describe('pendingClockTimers', () => {
  it('counts a timer until it is cleared', () => {
    const before = pendingClockTimers();
    const a = systemClock.setTimeout(() => undefined, 60_000);
    const b = monotonicClock.setTimeout(() => undefined, 60_000);
    expect(pendingClockTimers()).toBe(before + 2);
    systemClock.clearTimeout(a);
    monotonicClock.clearTimeout(b);
    // Clearing twice, or a timer already gone, changes nothing.
    systemClock.clearTimeout(a);
    expect(pendingClockTimers()).toBe(before);
  });

  it('counts a timer until it fires', async () => {
    const before = pendingClockTimers();
    const fired = new Promise<number>((resolve) => monotonicClock.setTimeout(() => resolve(pendingClockTimers()), 0));
    expect(pendingClockTimers()).toBe(before + 1);
    // Already uncounted while its callback runs (a watchdog that re-arms itself counts once).
    expect(await fired).toBe(before);
  });

  it('is raaga_clock_timers_pending on /metrics', async () => {
    const metrics = new PrometheusMetrics({ clockTimers: pendingClockTimers });
    const timer = systemClock.setTimeout(() => undefined, 60_000);
    expect(sampleValue((await metrics.render()).body, 'raaga_clock_timers_pending')).toBe(pendingClockTimers());
    systemClock.clearTimeout(timer);
  });
});
