// The simulated network on an injected clock: each message arrives delay ± jitter after it was sent, and never
// overtakes an earlier one.

import { describe, expect, it } from 'vitest';
import { NetworkDelay } from '../../../src/sim/network-delay.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { seeded } from '../../helpers/seeded-random.js';

describe('NetworkDelay', () => {
  it('delivers within delay ± jitter, in the order sent', async () => {
    const clock = new FakeClock(0);
    const delay = new NetworkDelay(20, 10, seeded(3), clock);
    const arrivals: { i: number; sentAt: number; at: number }[] = [];
    for (let i = 0; i < 50; i++) {
      const sentAt = clock.now();
      delay.carry(() => arrivals.push({ i, sentAt, at: clock.now() }));
      await clock.advance(3);
    }
    await clock.advance(100);
    expect(arrivals.map((a) => a.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    for (const a of arrivals) {
      expect(a.at - a.sentAt).toBeGreaterThanOrEqual(10);
      // Later than delay + jitter only when an earlier message held it back (order kept).
      if (a.at - a.sentAt > 30) expect(a.at).toBe(arrivals[a.i - 1]?.at);
    }
    expect(arrivals.at(-1)!.at).toBeLessThanOrEqual(49 * 3 + 30);
    expect(() => new NetworkDelay(5, 10, Math.random, clock)).toThrow(RangeError);
  });
});
