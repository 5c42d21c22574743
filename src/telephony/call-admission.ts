// Admission per process, the one place that decides whether this process takes a new call: its own live calls
// against TELEPHONY_MAX_CALLS, and load shedding while the event loop lags (TELEPHONY_SHED_LAG_MS, left only once the
// lag is under half of it, so shedding does not flap). Runs before any store admission: a refusal reserves nothing.

import type { CallAdmissionConfig } from '../config.js';
import { ApiError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import type { EventLoopLag } from '../util/event-loop-lag.js';
import { PendingConnections, type PendingRefusalReason } from './pending-connections.js';

export type CallRefusalReason = 'max_calls' | 'event_loop_lag' | 'draining' | PendingRefusalReason;

/** A live call's place in this process; `release` is idempotent (a socket close and a settled call both call it). */
export interface CallSlot {
  readonly ok: true;
  release(): void;
}

export type CallAdmissionResult = CallSlot | { readonly ok: false; readonly reason: CallRefusalReason };

/**
 * A media connection's place in this process: a pending place until it proves who pays, then a call slot. `release`
 * frees whichever it holds and may be called more than once (the socket's close and the stream's end both call it).
 */
export interface ConnectionTicket {
  readonly ok: true;
  /**
   * The connection authenticated: its pending place becomes a call slot, or the reason there is none (the place is
   * freed either way). `answered`: the call was already accepted before this stream (a call token of our answer
   * webhook or of an outbound call), so a draining server still takes it.
   */
  admit(answered?: boolean): CallRefusalReason | undefined;
  release(): void;
}

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

/** How long after a webhook accepted a call its stream may still be on the way (a drain waits for it). */
export const ANSWERED_STREAM_WINDOW_MS = 5_000;

/** Seconds a refused client should wait (Retry-After): long enough for lag to settle or calls to end. */
export const SERVER_BUSY_RETRY_AFTER_S = 5;

export class CallAdmission {
  readonly #deps: CallAdmissionDeps;
  readonly #pending: PendingConnections;
  #live = 0;
  #shedding = false;
  #draining = false;
  /** When `check` last accepted a call (its stream follows). */
  #lastAcceptedAtMs: number | undefined;
  /** Resolvers waiting for the last call to end (the drain). */
  #idleWaiters: (() => void)[] = [];
  #lastRefusalAtMs: number | undefined;
  #burstReason: CallRefusalReason | undefined;
  #burstRefusals = 0;

  constructor(deps: CallAdmissionDeps) {
    this.#deps = deps;
    const { maxCalls, maxPendingStreams = 2 * maxCalls, maxPendingPerSource = 0 } = deps.config;
    this.#pending = new PendingConnections({ maxPendingStreams, maxPendingPerSource });
  }

  get maxCalls(): number {
    return this.#deps.config.maxCalls;
  }

  /** Calls holding a slot of this process now. */
  get liveCalls(): number {
    return this.#live;
  }

  /**
   * The server drains: from now on new calls are refused (webhooks answer busy, a stream that was not already
   * answered is closed "try again later", POST /v1/calls gets 503), as under overload; calls live go on.
   */
  beginDrain(): void {
    this.#draining = true;
  }

  /**
   * Resolves once no call holds a slot of this process and no media connection is waiting to authenticate (at once
   * if none does): what a drain waits for. A call answered just before (a webhook accepted it) has its stream on the
   * way, so the drain also waits until `answerWindowMs` has passed since the last call was accepted.
   */
  async whenNoCalls(answerWindowMs = ANSWERED_STREAM_WINDOW_MS): Promise<void> {
    for (;;) {
      if (this.#live > 0 || this.#pending.held > 0) await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
      const sinceAccepted = this.#lastAcceptedAtMs === undefined ? Infinity : this.#deps.now() - this.#lastAcceptedAtMs;
      if (sinceAccepted < answerWindowMs) await new Promise((resolve) => setTimeout(resolve, answerWindowMs - sinceAccepted).unref());
      else if (this.#live === 0 && this.#pending.held === 0) return;
    }
  }

  #notifyIfNoCalls(): void {
    if (this.#live === 0 && this.#pending.held === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /** Every slot is held by an authenticated call; /readyz reports not-ready meanwhile. */
  get saturated(): boolean {
    return this.#live >= this.#deps.config.maxCalls;
  }

  /** Media connections that have not authenticated yet (they hold no slot). */
  get pendingConnections(): number {
    return this.#pending.held;
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
   * Takes a slot for a call whose media connection has just authenticated (through `admitConnection`), or says why
   * not. The refusal is counted and, once per burst, logged.
   */
  tryAdmit(provider: string, answered = false): CallAdmissionResult {
    const refused = this.#refusal(answered);
    if (refused !== undefined) return this.#refuse(provider, refused);
    this.#live++;
    let held = true;
    return {
      ok: true,
      release: () => {
        if (!held) return;
        held = false;
        this.#live--;
        this.#notifyIfNoCalls();
      },
    };
  }

  /**
   * A media connection arriving now (a media upgrade, an AudioSocket connection), before it proved anything: refused
   * when no call could be taken now or when the budget of connections not yet authenticated is full (in all, or from
   * this source address); otherwise it holds a pending place, and no call slot until `admit`.
   */
  admitConnection(provider: string, source: string): ConnectionTicket | { readonly ok: false; readonly reason: CallRefusalReason } {
    // A draining server still lets a stream connect: it may be the media of a call answered before the drain, which
    // only its authenticated start can tell (`admit(answered)`).
    const refused = this.#refusal(true) ?? this.#pending.refusal(source);
    if (refused !== undefined) return this.#refuse(provider, refused, source);
    const place = this.#pending.hold(source);
    let slot: CallSlot | undefined;
    return {
      ok: true,
      admit: (answered = false) => {
        place.release();
        if (slot) return undefined;
        const result = this.tryAdmit(provider, answered);
        if (!result.ok) {
          this.#notifyIfNoCalls();
          return result.reason;
        }
        slot = result;
        return undefined;
      },
      release: () => {
        place.release();
        slot?.release();
        this.#notifyIfNoCalls();
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
    else this.#lastAcceptedAtMs = this.#deps.now();
    return refused;
  }

  // Draining first (nothing new is taken however quiet the process is), then lag: while shedding, the lag is what an
  // operator must see, whatever the count. A call answered before the drain is not new.
  #refusal(answered = false): CallRefusalReason | undefined {
    if (this.#draining && !answered) return 'draining';
    if (this.shedding) return 'event_loop_lag';
    if (this.#live >= this.#deps.config.maxCalls) return 'max_calls';
    return undefined;
  }

  #refuse(provider: string, reason: CallRefusalReason, source?: string): { ok: false; reason: CallRefusalReason } {
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
        {
          reason,
          provider,
          liveCalls: this.#live,
          maxCalls: this.#deps.config.maxCalls,
          pendingConnections: this.#pending.held,
          ...(reason === 'pending_per_source' ? { source } : {}),
          lagP99Ms: this.#deps.lag.p99Ms(),
          previousBurstRefusals,
        },
        'new calls refused; the rest of this burst is counted in raaga_call_refusals_total, not logged',
      );
    }
    return { ok: false, reason };
  }
}

/** The HTTP answer of a refused call: 503 server_busy, with Retry-After. */
export function serverBusyError(reason: CallRefusalReason): ApiError {
  const why = {
    max_calls: 'is at its limit of simultaneous calls',
    event_loop_lag: 'is shedding load (its event loop lags)',
    draining: 'is shutting down and takes no new calls',
    pending_streams: 'has too many media connections that have not authenticated yet (TELEPHONY_MAX_PENDING_STREAMS)',
    pending_per_source: 'has too many media connections from this address that have not authenticated yet (TELEPHONY_MAX_PENDING_PER_SOURCE)',
  }[reason];
  return new ApiError('server_busy', `This server ${why}; retry later (behind a load balancer, another instance takes it).`, { retryAfterSeconds: SERVER_BUSY_RETRY_AFTER_S });
}
