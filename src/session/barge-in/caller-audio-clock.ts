// The time of barge-in: the caller's audio, counted as it is judged. Every barge-in rule measures the caller's sound
// (how long it lasted, how long the line has been quiet since, when a hold began), so its timers (the verdict
// deadline, the hold limit, the continuation window) run on this clock, not on the wall: a burst of frames moves it by
// the audio the burst carries, a stall moves it not at all, and a VAD that lags behind the audio holds it back. The
// same audio then gives the same decisions however it arrived (test/integration/session/barge-in-arrival.test.ts).
// It also maps real (monotonic) times onto that axis, for what happens in real time: what the bot plays, a clear.

import type { Clock, ClockTimer } from '../clock.js';
import { TimerQueue } from '../timer-queue.js';

/** Lags are kept over two blocks of this much audio: the axis follows a drifting provider clock within ~10 s. */
const LAG_BLOCK_MS = 5000;

export class CallerAudioClock implements Clock {
  #nowMs = 0;
  readonly #timers = new TimerQueue();
  #lastArrivalRealMs: number;
  /** Real time minus axis time of the least delayed frame, over this block and the one before. */
  #lagMs: number | undefined;
  #blockLagMs = Infinity;
  #previousBlockLagMs = Infinity;
  #blockStartMs = 0;
  /** Before any frame: the axis started when the call did (the stream began a moment earlier). */
  readonly #startRealMs: number;

  constructor(private readonly real: Clock) {
    this.#startRealMs = real.now();
    this.#lastArrivalRealMs = this.#startRealMs;
  }

  /** Caller audio judged so far, in ms since the stream began. */
  now(): number {
    return this.#nowMs;
  }

  /** Fires once the caller audio `ms` from now has been judged. */
  setTimeout(callback: () => void, ms: number): ClockTimer {
    return this.#timers.add(this.#nowMs + Math.max(0, ms), callback);
  }

  clearTimeout(timer: ClockTimer): void {
    this.#timers.delete(timer);
  }

  /** The caller's audio up to `atMs` has been judged (the detector's every window of it): due timers fire, in order. */
  advanceTo(atMs: number): void {
    for (let due = this.#timers.takeDue(atMs); due !== undefined; due = this.#timers.takeDue(atMs)) {
      this.#nowMs = Math.max(this.#nowMs, due.atMs);
      due.callback();
    }
    this.#nowMs = Math.max(this.#nowMs, atMs);
  }

  /** A caller frame whose audio ends at `atMs` on the axis arrived now (real time). */
  arrived(atMs: number): void {
    const realMs = this.real.now();
    this.#lastArrivalRealMs = realMs;
    // A frame is never early, only late (a burst, a stall, the network): the least delayed one places the axis.
    if (atMs - this.#blockStartMs >= LAG_BLOCK_MS) {
      this.#previousBlockLagMs = this.#blockLagMs;
      this.#blockLagMs = Infinity;
      this.#blockStartMs = atMs;
    }
    this.#blockLagMs = Math.min(this.#blockLagMs, realMs - atMs);
    this.#lagMs = Math.min(this.#blockLagMs, this.#previousBlockLagMs);
  }

  /** The axis time of real (monotonic) time `realMs`: the caller audio being spoken then. */
  toAxisMs(realMs: number): number {
    return realMs - (this.#lagMs ?? this.#startRealMs);
  }

  /**
   * Real ms since a caller frame last arrived. Providers send caller audio every 20 ms for the whole call, silence
   * included, so a long quiet here is a stalled or dead line, not a quiet caller: the axis stands still then.
   */
  quietForMs(): number {
    return this.real.now() - this.#lastArrivalRealMs;
  }

  /** The real-time side, for the one barge-in rule that must run when no audio comes at all (a dead line). */
  get line(): { readonly clock: Clock; quietForMs(): number } {
    return { clock: this.real, quietForMs: () => this.quietForMs() };
  }
}
