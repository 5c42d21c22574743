// A Clock whose time moves only when a test says so: idle timeouts and stall limits without real waiting.

import type { Clock, ClockTimer } from '../../src/session/clock.js';

interface Pending {
  readonly atMs: number;
  readonly seq: number;
  readonly callback: () => void;
}

export class FakeClock implements Clock {
  #nowMs: number;
  #seq = 0;
  readonly #timers = new Map<ClockTimer, Pending>();

  constructor(startMs = 1_700_000_000_000) {
    this.#nowMs = startMs;
  }

  now(): number {
    return this.#nowMs;
  }

  setTimeout(callback: () => void, ms: number): ClockTimer {
    const timer = { __clockTimer: true } as ClockTimer;
    this.#timers.set(timer, { atMs: this.#nowMs + Math.max(0, ms), seq: this.#seq++, callback });
    return timer;
  }

  clearTimeout(timer: ClockTimer): void {
    this.#timers.delete(timer);
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** How long until the earliest pending timer fires; undefined when none is pending. */
  get nextDueInMs(): number | undefined {
    let earliest: number | undefined;
    for (const { atMs } of this.#timers.values()) earliest = Math.min(earliest ?? atMs, atMs);
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
    let next: [ClockTimer, Pending] | undefined;
    for (const entry of this.#timers) {
      const [, pending] = entry;
      if (pending.atMs <= targetMs && (!next || pending.atMs < next[1].atMs || (pending.atMs === next[1].atMs && pending.seq < next[1].seq))) next = entry;
    }
    if (!next) return false;
    this.#timers.delete(next[0]);
    this.#nowMs = next[1].atMs;
    next[1].callback();
    return true;
  }
}

/** Lets pending promise chains (and I/O callbacks already due) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}
