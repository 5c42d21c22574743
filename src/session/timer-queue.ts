// The timers of a clock whose time is moved by hand (the caller-audio clock of barge-in, the tests' fake clock):
// kept in a map, and taken out earliest first, in the order they were set when they are due together.

import type { ClockTimer } from './clock.js';

export interface DueTimer {
  readonly atMs: number;
  readonly seq: number;
  readonly callback: () => void;
}

export class TimerQueue {
  #seq = 0;
  readonly #timers = new Map<ClockTimer, DueTimer>();

  add(atMs: number, callback: () => void): ClockTimer {
    const timer = { __clockTimer: true } as ClockTimer;
    this.#timers.set(timer, { atMs, seq: this.#seq++, callback });
    return timer;
  }

  delete(timer: ClockTimer): void {
    this.#timers.delete(timer);
  }

  get size(): number {
    return this.#timers.size;
  }

  /** When the earliest pending timer is due; undefined when none is pending. */
  earliestAtMs(): number | undefined {
    let earliest: number | undefined;
    for (const { atMs } of this.#timers.values()) earliest = Math.min(earliest ?? atMs, atMs);
    return earliest;
  }

  /** Takes out the earliest timer due by `atMs` (the first set among equals); undefined when none is due. */
  takeDue(atMs: number): DueTimer | undefined {
    let next: [ClockTimer, DueTimer] | undefined;
    for (const entry of this.#timers) {
      const due = entry[1];
      if (due.atMs <= atMs && (!next || due.atMs < next[1].atMs || (due.atMs === next[1].atMs && due.seq < next[1].seq))) next = entry;
    }
    if (!next) return undefined;
    this.#timers.delete(next[0]);
    return next[1];
  }
}
