// The simulated network: each message arrives delay ± jitter after it was sent, and never overtakes an earlier one.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { NetworkDelay } from '../../../../src/telephony/peer/network-delay.js';
import { seeded } from '../../../helpers/seeded-random.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('NetworkDelay', () => {
  it('delivers within delay ± jitter, in the order sent', async () => {
    vi.useFakeTimers();
    const start = Date.now();
    const delay = new NetworkDelay(20, 10, seeded(3), () => Date.now());
    const arrivals: { i: number; sentAt: number; at: number }[] = [];
    for (let i = 0; i < 50; i++) {
      const sentAt = Date.now();
      delay.carry(() => arrivals.push({ i, sentAt, at: Date.now() }));
      await vi.advanceTimersByTimeAsync(3);
    }
    await vi.advanceTimersByTimeAsync(100);
    expect(arrivals.map((a) => a.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    for (const a of arrivals) {
      expect(a.at - a.sentAt).toBeGreaterThanOrEqual(10);
      // Later than delay + jitter only when an earlier message held it back (order kept).
      const previous = arrivals[a.i - 1];
      if (a.at - a.sentAt > 30) expect(a.at).toBe(previous?.at);
    }
    expect(arrivals.at(-1)!.at - start).toBeLessThanOrEqual(49 * 3 + 30);
    expect(() => new NetworkDelay(5, 10, Math.random, Date.now)).toThrow(RangeError);
  });
});
