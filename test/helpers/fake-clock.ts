// A Clock whose time moves only when a test says so: idle timeouts and stall limits without real waiting.

import type { Clock, ClockTimer } from '../../src/session/clock.js';
import { TimerQueue } from '../../src/session/timer-queue.js';

export class FakeClock implements Clock {
  #nowMs: number;
  readonly #timers = new TimerQueue();

  constructor(startMs = 1_700_000_000_000) {
    this.#nowMs = startMs;
  }

  now(): number {
    return this.#nowMs;
  }

  setTimeout(callback: () => void, ms: number): ClockTimer {
    return this.#timers.add(this.#nowMs + Math.max(0, ms), callback);
  }

  clearTimeout(timer: ClockTimer): void {
    this.#timers.delete(timer);
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** How long until the earliest pending timer fires; undefined when none is pending. */
  get nextDueInMs(): number | undefined {
    const earliest = this.#timers.earliestAtMs();
    return earliest === undefined ? undefined : earliest - this.#nowMs;
  }

  /** Moves time forward, firing due timers in order (also ones they schedule) and letting promises settle. */
  async advance(ms: number): Promise<void> {
    const targetMs = this.#nowMs + ms;
    while (this.#fireNext(targetMs)) await settle();
    this.#nowMs = targetMs;
    await settle();
  }

  /** The same without letting promises run in between: for code driven synchronously (the barge-in policy bench). */
  advanceSync(ms: number): void {
    const targetMs = this.#nowMs + ms;
    while (this.#fireNext(targetMs));
    this.#nowMs = targetMs;
  }

  /** Fires the earliest timer due by `targetMs`, moving time to it; false when none is due. */
  #fireNext(targetMs: number): boolean {
    const due = this.#timers.takeDue(targetMs);
    if (due === undefined) return false;
    this.#nowMs = due.atMs;
    due.callback();
    return true;
  }
}

/** Lets pending promise chains (and I/O callbacks already due) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}
