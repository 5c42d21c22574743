// A one-way network delay with jitter for the simulated provider: each message is delivered `delayMs` ± `jitterMs`
// after it was handed over, never before the one handed over ahead of it (a TCP stream keeps order), so the bench
// can measure reactions as a provider in another city would see them.

import type { Clock } from '../session/clock.js';

export class NetworkDelay {
  #lastDueMs = 0;

  constructor(
    private readonly delayMs: number,
    private readonly jitterMs: number,
    private readonly random: () => number,
    private readonly clock: Clock,
  ) {
    if (!(delayMs >= 0 && jitterMs >= 0 && jitterMs <= delayMs)) throw new RangeError('delay must be >= jitter >= 0');
  }

  /** Runs `deliver` once the message has crossed the network. */
  carry(deliver: () => void): void {
    const now = this.clock.now();
    const dueMs = Math.max(this.#lastDueMs, now + this.delayMs + (this.random() * 2 - 1) * this.jitterMs);
    this.#lastDueMs = dueMs;
    this.clock.setTimeout(deliver, dueMs - now);
  }
}
