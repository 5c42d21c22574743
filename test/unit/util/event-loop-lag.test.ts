// The real event-loop lag monitor: a loop kept busy in long stretches reads as lag (waited for, never timed).

import { expect, it, vi } from 'vitest';
import { EventLoopLagMonitor } from '../../../src/util/event-loop-lag.js';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Holding the event loop on purpose.
  }
}

it('reports the lag of a loop blocked in 150 ms stretches', async () => {
  const monitor = new EventLoopLagMonitor();
  try {
    await vi.waitFor(
      () => {
        busy(150);
        // A 150 ms block is a 140 ms late timer tick at least, whatever else the machine is doing.
        expect(monitor.p99Ms()).toBeGreaterThan(100);
      },
      { timeout: 30_000, interval: 50 },
    );
  } finally {
    monitor.close();
  }
});
