// Where the far end's playback is, estimated on a monotonic clock: audio sent runs at real time from the moment
// it is sent (or from the end of what was already queued). Calls send only a bounded window ahead of it, so a
// `clear` discards little and a jittery network or a slow chunk does not starve the caller. A held call (barge-in
// suspected) sends nothing until it is released, rewound to where the caller stopped hearing it.

import { sleep, type Clock } from './clock.js';

/** Wake-ups refill at least this much, so a paced call costs ~16 timer callbacks per second, not 50. */
const REFILL_MS = 60;

export class PlayoutClock {
  /** Monotonic time at which everything sent so far will have played; undefined before any audio or after a reset. */
  #endMs: number | undefined;
  /** Audio ms sent since the last reset: the axis utterances are placed on. */
  #sentMs = 0;
  #underruns = 0;
  /** Set while held: resolves when released. */
  #held: { readonly released: Promise<void>; readonly release: () => void } | undefined;

  constructor(
    private readonly clock: Clock,
    /** How far audio may run ahead of real time (TELEPHONY_PLAYOUT_AHEAD_MS). */
    readonly aheadMs: number,
  ) {}

  /** Audio sent and (by the estimate) not yet played. */
  bufferedMs(): number {
    return this.#endMs === undefined ? 0 : Math.max(0, this.#endMs - this.clock.now());
  }

  /** When audio sent now would start playing (monotonic): after what is buffered, or now. */
  nextStartMs(): number {
    const now = this.clock.now();
    return this.#endMs === undefined || this.#endMs < now ? now : this.#endMs;
  }

  get held(): boolean {
    return this.#held !== undefined;
  }

  /** Audio ms sent since the last reset. */
  get sentMs(): number {
    return this.#sentMs;
  }

  /** Estimated audio ms played since the last reset. */
  playedMs(): number {
    return this.#sentMs - this.bufferedMs();
  }

  /** Times the caller heard a gap inside an utterance (the buffer ran dry between two of its frames). */
  get underruns(): number {
    return this.#underruns;
  }

  /** `ms` of audio left now; `continuing` when it follows audio of the same utterance. */
  push(ms: number, continuing: boolean): void {
    if (this.#held) {
      // Taped, not sent (it slipped in as the hold began): it leaves with the replay.
      this.#sentMs += ms;
      return;
    }
    const now = this.clock.now();
    if (this.#endMs === undefined || this.#endMs < now) {
      if (continuing && this.#endMs !== undefined) this.#underruns++;
      this.#endMs = now + ms;
    } else {
      this.#endMs += ms;
    }
    this.#sentMs += ms;
  }

  /** Resolves when `ms` more fits in the window (at once if it does, or when `signal` aborts). */
  async waitForRoom(ms: number, signal: AbortSignal): Promise<void> {
    for (;;) {
      // A hold that began while this waited: nothing leaves until it is released (or the turn is aborted).
      while (this.#held && !signal.aborted) await untilReleasedOrAborted(this.#held.released, signal);
      const room = this.aheadMs - this.bufferedMs();
      if (room >= ms || signal.aborted) return;
      // Sleep until a batch fits, never past the point where less than one frame would be left buffered.
      const target = Math.max(ms, Math.min(REFILL_MS, this.aheadMs - ms));
      await sleep(this.clock, Math.max(1, target - room), signal);
      if (!this.#held) return;
    }
  }

  /** After a `clear` that holds the call: the far end's buffer is empty, and nothing may be sent until release. */
  hold(): void {
    this.#endMs = undefined;
    if (this.#held) return;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.#held = { released, release };
  }

  /** Sending may go on from axis position `positionMs` (where the caller stopped hearing), nothing buffered. */
  release(positionMs: number): void {
    this.#endMs = undefined;
    this.#sentMs = positionMs;
    this.#held?.release();
    this.#held = undefined;
  }

  /** After a `clear`: the far end's buffer is empty and a new axis starts (a hold ends with it). */
  reset(): void {
    this.release(0);
  }
}

function untilReleasedOrAborted(released: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void released.then(done);
  });
}
