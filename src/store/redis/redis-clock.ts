// An estimate of the Redis server clock on this instance's monotonic clock, used to give scripts a deadline in
// Redis time: "my command timeout expires at T". Split from redis-store.ts (the ioredis home) to keep it small.

import { performance } from 'node:perf_hooks';

/** How often the estimate is refreshed (oscillators drift a few ms per minute at most). */
export const CLOCK_SYNC_INTERVAL_MS = 60_000;
/** Scripts must run this much before the client's timeout, so their reply can still arrive in time. */
const MAX_GUARD_MS = 100;

export class RedisClock {
  /** Redis TIME (ms) observed at a local monotonic instant. */
  private sample: { readonly redisMs: number; readonly localMs: number } | undefined;

  /** @param time Redis `TIME`: [seconds, microseconds]. */
  constructor(
    private readonly time: () => Promise<readonly (string | number)[]>,
    private readonly commandTimeoutMs: number,
  ) {}

  async sync(): Promise<void> {
    try {
      const sent = performance.now();
      const [seconds, micros] = await this.time();
      const received = performance.now();
      // Midpoint of the round trip: off by at most half of it.
      this.sample = { redisMs: Number(seconds) * 1000 + Number(micros) / 1000, localMs: (sent + received) / 2 };
    } catch {
      // Keep the previous estimate; the next sync tries again.
    }
  }

  /** Redis time by which a command sent now must run ('' before the first sync: no deadline). */
  deadline(): string {
    if (!this.sample) return '';
    const guard = Math.min(MAX_GUARD_MS, this.commandTimeoutMs / 5);
    return String(Math.floor(this.sample.redisMs + (performance.now() - this.sample.localMs) + this.commandTimeoutMs - guard));
  }
}
