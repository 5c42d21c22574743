// The embedded stores' in-memory admission state: per account (AdmissionBook) the sliding rate window, slot leases and
// credit reservations, with expiry pruning, the RateInfo view and the admission decision itself (the same rules
// RedisStore's admit script applies). Transient by design: never persisted.

import {
  RATE_WINDOW_MS,
  type AdmissionRequest,
  type AdmissionResult,
  type PlanLimits,
  type RateInfo,
} from './store.js';
import { admissionLeaseMs, assertPositive } from './validation.js';

export interface Reservation {
  readonly credits: number;
  readonly expiresAtMs: number;
}

export interface AdmissionState {
  /** Admission timestamps in the last minute, ascending. */
  readonly window: number[];
  /** holderId → lease expiry. */
  readonly leases: Map<string, number>;
  /**
   * reservationId → reservation. An expired reservation is released, not charged: holders settle long
   * before their TTL (the server sets it generously above the longest synthesis), so expiry only cleans up
   * after a holder that died without settling. There is no renew for reservations on purpose.
   * After a crash, live reservations vanish the same way: not charged.
   */
  readonly reservations: Map<string, Reservation>;
}

export function newAdmissionState(): AdmissionState {
  return { window: [], leases: new Map(), reservations: new Map() };
}

/** Drops window entries at or before now − 60 s, and leases and reservations whose expiry is ≤ now. */
export function pruneExpired(state: AdmissionState, now: number): void {
  const cutoff = now - RATE_WINDOW_MS;
  let drop = 0;
  while (drop < state.window.length && (state.window[drop] ?? Infinity) <= cutoff) drop++;
  if (drop > 0) state.window.splice(0, drop);
  for (const [holder, expiresAtMs] of state.leases) if (expiresAtMs <= now) state.leases.delete(holder);
  for (const [id, r] of state.reservations) if (r.expiresAtMs <= now) state.reservations.delete(id);
}

export function rateInfo(state: AdmissionState, limits: PlanLimits, now: number): RateInfo {
  const oldest = state.window[0];
  return {
    limit: limits.requestsPerMinute,
    remaining: Math.max(0, limits.requestsPerMinute - state.window.length),
    resetAtMs: oldest === undefined ? now : oldest + RATE_WINDOW_MS,
  };
}

export function reservedCredits(state: AdmissionState): number {
  let sum = 0;
  for (const r of state.reservations.values()) sum += r.credits;
  return sum;
}

/** Keeps the window ascending even if the wall clock steps back, so trimming from the front stays correct. */
export function insertSorted(window: number[], t: number): void {
  let i = window.length;
  while (i > 0 && (window[i - 1] ?? -Infinity) > t) i--;
  window.splice(i, 0, t);
}

/**
 * The admission step on one account's state (already pruned at `now`) and its balance: rate → slot → credits, and
 * nothing recorded unless all pass.
 */
export function admitInState(state: AdmissionState, balance: number, request: AdmissionRequest, now: number): AdmissionResult {
  const { limits, reservation } = request;
  const leaseMs = admissionLeaseMs(request);

  if (request.countRate && state.window.length >= limits.requestsPerMinute) {
    // With a lowered limit the window may hold more than `limit` entries: a place frees when the entry
    // `length - limit` leaves, which is the oldest one in the usual case.
    const freeing = state.window[state.window.length - limits.requestsPerMinute] ?? now;
    return {
      ok: false,
      reason: 'rate_limited',
      rate: rateInfo(state, limits, now),
      retryAfterMs: Math.max(1, freeing + RATE_WINDOW_MS - now),
    };
  }

  const holderId = request.slotHolderId;
  // A holder that already has a live lease (e.g. a WebSocket session re-admitting) does not need a second slot.
  if (holderId !== undefined && !state.leases.has(holderId) && state.leases.size >= limits.concurrentRequests) {
    return { ok: false, reason: 'concurrency', rate: rateInfo(state, limits, now), inFlight: state.leases.size };
  }

  if (reservation) {
    if (state.reservations.has(reservation.id)) {
      throw new Error(`reservation ${reservation.id} is already live for account ${request.accountId}`);
    }
    const available = balance - reservedCredits(state);
    if (available < reservation.credits) {
      return {
        ok: false,
        reason: 'insufficient_credits',
        rate: rateInfo(state, limits, now),
        available: Math.max(0, available),
        required: reservation.credits,
      };
    }
  }

  if (request.countRate) insertSorted(state.window, now);
  if (holderId !== undefined) state.leases.set(holderId, now + leaseMs);
  if (reservation) state.reservations.set(reservation.id, { credits: reservation.credits, expiresAtMs: now + reservation.ttlMs });
  return { ok: true, rate: rateInfo(state, limits, now) };
}

/** Every account's admission state in this process: what the embedded stores keep in memory. */
export class AdmissionBook {
  private readonly states = new Map<string, AdmissionState>();

  /** The account's state with everything expired at `now` dropped. */
  stateOf(accountId: string, now: number): AdmissionState {
    let state = this.states.get(accountId);
    if (!state) {
      state = newAdmissionState();
      this.states.set(accountId, state);
    }
    pruneExpired(state, now);
    return state;
  }

  /** Admits against the account's state and its `balance` (see admitInState). */
  admit(accountId: string, balance: number, request: AdmissionRequest, now: number): AdmissionResult {
    return admitInState(this.stateOf(accountId, now), balance, request, now);
  }

  rateStatus(accountId: string, limits: PlanLimits, now: number): RateInfo {
    return rateInfo(this.stateOf(accountId, now), limits, now);
  }

  /** Extends a live lease; false when it is gone. */
  renewSlot(accountId: string, holderId: string, leaseMs: number, now: number): boolean {
    assertPositive('leaseMs', leaseMs);
    const state = this.stateOf(accountId, now);
    if (!state.leases.has(holderId)) return false;
    state.leases.set(holderId, now + leaseMs);
    return true;
  }

  releaseSlot(accountId: string, holderId: string): void {
    this.states.get(accountId)?.leases.delete(holderId);
  }
}
