// Admission per process, the one place that decides whether this process takes a new call: its own live calls
// against TELEPHONY_MAX_CALLS, and load shedding while the event loop lags (TELEPHONY_SHED_LAG_MS, left only once the
// lag is under half of it, so shedding does not flap). Runs before any store admission: a refusal reserves nothing.

import type { CallAdmissionConfig } from '../config.js';
import { ApiError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import type { EventLoopLag } from '../util/event-loop-lag.js';

export type CallRefusalReason = 'max_calls' | 'event_loop_lag';

/** A live call's place in this process; `release` is idempotent (a socket close and a settled call both call it). */
export interface CallSlot {
  readonly ok: true;
  release(): void;
}

export type CallAdmissionResult = CallSlot | { readonly ok: false; readonly reason: CallRefusalReason };

export interface CallAdmissionDeps {
  readonly config: CallAdmissionConfig;
  readonly lag: EventLoopLag;
  /** Monotonic ms: when a burst of refusals ends. */
  readonly now: () => number;
  readonly metrics?: Pick<Metrics, 'callRefused'> | undefined;
  readonly log: (level: 'info' | 'warn', fields: Record<string, unknown>, message: string) => void;
}

/**
 * Refusals closer together than this are one burst and logged once: a full process refuses every caller of a busy
 * hour, and a line per call would drown the log (the metric counts each one).
 */
export const REFUSAL_BURST_GAP_MS = 10_000;

/** Seconds a refused client should wait (Retry-After): long enough for lag to settle or calls to end. */
export const SERVER_BUSY_RETRY_AFTER_S = 5;

export class CallAdmission {
  readonly #deps: CallAdmissionDeps;
  #live = 0;
  #shedding = false;
  #lastRefusalAtMs: number | undefined;
  #burstReason: CallRefusalReason | undefined;
  #burstRefusals = 0;

  constructor(deps: CallAdmissionDeps) {
    this.#deps = deps;
  }

  get maxCalls(): number {
    return this.#deps.config.maxCalls;
  }

  /** Calls holding a slot of this process now. */
  get liveCalls(): number {
    return this.#live;
  }

  /** Whether new calls are refused for lag now; /readyz reports not-ready meanwhile. */
  get shedding(): boolean {
    const { shedLagMs } = this.#deps.config;
    if (shedLagMs === 0) return false;
    const lagMs = this.#deps.lag.p99Ms();
    const was = this.#shedding;
    // No verdict (less than a full window since the server began listening): start-up work never refuses a call.
    if (lagMs === undefined) this.#shedding = false;
    else if (!was && lagMs >= shedLagMs) this.#shedding = true;
    else if (was && lagMs < shedLagMs / 2) this.#shedding = false;
    if (this.#shedding !== was) {
      this.#deps.log(
        this.#shedding ? 'warn' : 'info',
        { lagP99Ms: lagMs, shedLagMs, liveCalls: this.#live },
        this.#shedding ? 'shedding load: new calls refused while the event loop lags' : 'load shedding over: new calls accepted again',
      );
    }
    return this.#shedding;
  }

  /**
   * Takes a slot for a call arriving now (a media upgrade, an AudioSocket connection), or says why not. The refusal
   * is counted and, once per burst, logged.
   */
  tryAdmit(provider: string): CallAdmissionResult {
    const refused = this.#refusal();
    if (refused !== undefined) return this.#refuse(provider, refused);
    this.#live++;
    let held = true;
    return {
      ok: true,
      release: () => {
        if (!held) return;
        held = false;
        this.#live--;
      },
    };
  }

  /**
   * For a step that comes before the call's media (an answer webhook, POST /v1/calls): refuses when a call could not
   * be taken now, without holding anything (the slot is taken when the media arrives).
   */
  check(provider: string): CallRefusalReason | undefined {
    const refused = this.#refusal();
    if (refused !== undefined) this.#refuse(provider, refused);
    return refused;
  }

  // Lag first: while shedding, the lag is what an operator must see, whatever the count.
  #refusal(): CallRefusalReason | undefined {
    if (this.shedding) return 'event_loop_lag';
    if (this.#live >= this.#deps.config.maxCalls) return 'max_calls';
    return undefined;
  }

  #refuse(provider: string, reason: CallRefusalReason): { ok: false; reason: CallRefusalReason } {
    this.#deps.metrics?.callRefused(provider, reason);
    const now = this.#deps.now();
    const sameBurst = this.#lastRefusalAtMs !== undefined && now - this.#lastRefusalAtMs < REFUSAL_BURST_GAP_MS && this.#burstReason === reason;
    this.#lastRefusalAtMs = now;
    if (sameBurst) {
      this.#burstRefusals++;
    } else {
      const previousBurstRefusals = this.#burstRefusals;
      this.#burstReason = reason;
      this.#burstRefusals = 1;
      this.#deps.log(
        'warn',
        { reason, provider, liveCalls: this.#live, maxCalls: this.#deps.config.maxCalls, lagP99Ms: this.#deps.lag.p99Ms(), previousBurstRefusals },
        'new calls refused; the rest of this burst is counted in raaga_call_refusals_total, not logged',
      );
    }
    return { ok: false, reason };
  }
}

/** The HTTP answer of a refused call: 503 server_busy, with Retry-After. */
export function serverBusyError(reason: CallRefusalReason): ApiError {
  const why = reason === 'max_calls' ? 'is at its limit of simultaneous calls' : 'is shedding load (its event loop lags)';
  return new ApiError('server_busy', `This server ${why}; retry later (behind a load balancer, another instance takes it).`, { retryAfterSeconds: SERVER_BUSY_RETRY_AFTER_S });
}
