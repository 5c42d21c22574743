// The time source of sessions: `now` plus one-shot timers, injected so idle timeouts, backpressure stalls
// and playout pacing are testable without real waiting.

/** An opaque handle for a pending timer. */
export interface ClockTimer {
  readonly __clockTimer: true;
}

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer): void;
}

/**
 * Timers set on systemClock or monotonicClock and not yet fired nor cleared. Unref'd timers are invisible to the
 * process's active handles, so this is how /metrics shows them (raaga_clock_timers_pending): with no call up it
 * stays at its idle level, and a count that grows with calls ended is a leak.
 */
const pendingTimers = new Set<NodeJS.Timeout>();

export function pendingClockTimers(): number {
  return pendingTimers.size;
}

/** Wall-clock timers; unref'd so a forgotten session timer never holds the process open. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const handle = setTimeout(() => {
      pendingTimers.delete(handle);
      callback();
    }, ms);
    handle.unref();
    pendingTimers.add(handle);
    return handle as unknown as ClockTimer;
  },
  clearTimeout(timer) {
    clearTimeout(timer as unknown as NodeJS.Timeout);
    pendingTimers.delete(timer as unknown as NodeJS.Timeout);
  },
};

/**
 * Same timers, but `now` is monotonic (performance.now(), ms since process start): call playout is paced on it,
 * so a wall-clock step (NTP) can never make a call burst or stall its audio.
 */
export const monotonicClock: Clock = {
  now: () => performance.now(),
  setTimeout: systemClock.setTimeout,
  clearTimeout: systemClock.clearTimeout,
};

/** Resolves after `ms` on `clock`, or at once when `signal` aborts (never rejects). */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
