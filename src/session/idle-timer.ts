// The session's idle countdown on an injected clock: armed while waiting for the client, off while audio
// streams, restarted by every client message.

import type { Clock, ClockTimer } from './clock.js';

export class IdleTimer {
  #timer: ClockTimer | undefined;

  /** `timeoutMs` null: never expires (a phone call ends with the call, not with silence). */
  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number | null,
    private readonly onExpire: () => void,
  ) {}

  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** Starts (or restarts) the countdown. */
  arm(): void {
    this.disarm();
    if (this.timeoutMs === null) return;
    this.#timer = this.clock.setTimeout(() => {
      this.#timer = undefined;
      this.onExpire();
    }, this.timeoutMs);
  }

  disarm(): void {
    if (this.#timer === undefined) return;
    this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** A client message: restart the countdown if it is running (it is not while speaking). */
  touch(): void {
    if (this.armed) this.arm();
  }
}
