// One account's in-memory admission state for MemoryStore: the sliding rate window, slot leases and credit
// reservations, with expiry pruning and the RateInfo view. Transient by design: never persisted.

import { RATE_WINDOW_MS, type PlanLimits, type RateInfo } from './store.js';

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
