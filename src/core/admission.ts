// Admission use case: turns the store's atomic admit (rate window → slot → credits) into a Ticket the caller
// holds while synthesizing, and turns refusals and store failures into the spec's errors.

import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors.js';
import { PLAN_LIMITS, type Account, type AdmissionLedger, type RateInfo, type UsageDetails } from '../store/store.js';
import { storeCall } from './store-call.js';

export interface AdmissionOptions {
  readonly slotLeaseMs: number;
  readonly reservationTtlMs: number;
  /** Told the credits of each settlement the store accepted (the credits-consumed metric). */
  readonly onCreditsDebited?: (credits: number) => void;
}

export interface AdmitRequest {
  readonly account: Account;
  /** Counts toward the sliding window (HTTP synthesis, WebSocket `text`). */
  readonly countRate: boolean;
  /** Take a concurrency slot for the ticket's life. */
  readonly takeSlot: boolean;
  /** Credits to reserve (the request's code points); 0 reserves nothing. */
  readonly credits: number;
  /** Who spends and through what, for the usage ledger; required when `credits` > 0. */
  readonly usage?: UsageSource;
}

/** The part of a usage record known at admission: who (the key's fingerprint, null for calls), where, which voice. */
export type UsageSource = Pick<UsageDetails, 'keyId' | 'endpoint' | 'callId' | 'voice' | 'language'>;

/** The part of a usage record known when the utterance ends. */
export type UsageReport = Pick<UsageDetails, 'engine' | 'audioSeconds' | 'outcome'>;

/**
 * What this process's tickets hold now: slot leases not yet released and credit reservations not yet settled. Each
 * call or session gives its own back as it ends, so with nothing in flight both are zero (raaga_admission_held).
 */
export interface AdmissionHeld {
  slots: number;
  reservations: number;
}

/** What an admitted caller holds: a slot lease (renewed in the background) and/or a credit reservation. */
export class Ticket {
  /** The slot lease holder id when the ticket holds a slot. */
  readonly id: string;
  readonly rate: RateInfo;
  /** Fires when the slot lease could not be renewed: the holder has lost its slot (close with 1011 on WebSocket). */
  readonly lost: AbortSignal;
  #lostController = new AbortController();
  #heartbeat: NodeJS.Timeout | undefined;
  #settled = false;
  #released = false;
  private readonly holdsSlot: boolean;

  constructor(
    private readonly store: AdmissionLedger,
    private readonly account: Account,
    rate: RateInfo,
    slotHolderId: string | undefined,
    private readonly reservationId: string | undefined,
    leaseMs: number,
    private readonly onCreditsDebited?: (credits: number) => void,
    private readonly usage?: UsageSource,
    private readonly held: AdmissionHeld = { slots: 0, reservations: 0 },
  ) {
    this.id = slotHolderId ?? randomUUID();
    this.holdsSlot = slotHolderId !== undefined;
    this.rate = rate;
    this.lost = this.#lostController.signal;
    if (reservationId !== undefined) held.reservations++;
    if (this.holdsSlot) {
      held.slots++;
      // Renew at a third of the lease so two missed beats still leave the lease alive.
      this.#heartbeat = setInterval(() => void this.#renew(leaseMs), Math.max(250, Math.floor(leaseMs / 3)));
      this.#heartbeat.unref();
    }
  }

  async #renew(leaseMs: number): Promise<void> {
    if (this.#released) return;
    try {
      const alive = await this.store.renewSlot(this.account.id, this.id, leaseMs);
      if (!alive && !this.#released) this.#lostController.abort(new Error('concurrency slot lease lost'));
    } catch {
      // A transient store failure is not a lost lease; the next beat tries again before expiry.
    }
  }

  /**
   * Debits `usedCredits` (≤ reserved), returns the rest of the reservation and writes the usage record with the
   * debit (null `report`: release unused, no record). Idempotent. When the store is down this throws
   * store_unavailable and nothing is debited nor recorded: the reservation expires and is released, not charged.
   */
  async settle(usedCredits: number, report: UsageReport | null): Promise<void> {
    if (this.#settled || this.reservationId === undefined) return;
    this.#settled = true;
    this.held.reservations--;
    const reservationId = this.reservationId;
    const usage = report && this.usage ? { ...this.usage, ...report } : null;
    await storeCall(() => this.store.settle(this.account.id, reservationId, usedCredits, usage));
    this.onCreditsDebited?.(usedCredits);
  }

  /** Frees the slot. Idempotent; safe to call from every close path. If the store is down the lease simply expires. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    if (this.holdsSlot) {
      this.held.slots--;
      await storeCall(() => this.store.releaseSlot(this.account.id, this.id));
    }
  }

  /** Settles (nothing used and nothing recorded if not told otherwise) and releases: the `finally` of every admitted request. */
  async finish(usedCredits = 0, report: UsageReport | null = null): Promise<void> {
    try {
      await this.settle(usedCredits, report);
    } finally {
      await this.release();
    }
  }
}

export class Admission {
  readonly #held: AdmissionHeld = { slots: 0, reservations: 0 };

  constructor(
    private readonly store: AdmissionLedger,
    private readonly options: AdmissionOptions,
  ) {}

  /** Slots and reservations this process's tickets hold now (a leak shows as a count that stays up when idle). */
  held(): Readonly<AdmissionHeld> {
    return { ...this.#held };
  }

  async admit(request: AdmitRequest): Promise<Ticket> {
    const { account } = request;
    if (request.credits > 0 && !request.usage) throw new Error('an admission that reserves credits must name its usage source');
    const limits = PLAN_LIMITS[account.plan];
    const slotHolderId = request.takeSlot ? randomUUID() : undefined;
    const reservationId = request.credits > 0 ? randomUUID() : undefined;
    const result = await storeCall(() =>
      this.store.admit({
        accountId: account.id,
        limits,
        countRate: request.countRate,
        ...(slotHolderId ? { slotHolderId, slotLeaseMs: this.options.slotLeaseMs } : {}),
        ...(reservationId
          ? { reservation: { id: reservationId, credits: request.credits, ttlMs: this.options.reservationTtlMs } }
          : {}),
      }),
    );
    if (result.ok) {
      return new Ticket(this.store, account, result.rate, slotHolderId, reservationId, this.options.slotLeaseMs, this.options.onCreditsDebited, request.usage, this.#held);
    }
    switch (result.reason) {
      case 'rate_limited': {
        const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
        throw new RateLimitedError(
          `Rate limit of ${limits.requestsPerMinute} requests per minute exceeded for this account; retry in ${seconds} s.`,
          seconds,
          result.rate,
        );
      }
      case 'concurrency':
        throw new AdmissionRefusedError(
          'concurrency_limit_exceeded',
          `This account already has ${result.inFlight} of ${limits.concurrentRequests} allowed concurrent synthesis requests in flight; retry when one finishes.`,
          result.rate,
        );
      case 'insufficient_credits':
        throw new AdmissionRefusedError(
          'insufficient_credits',
          `Insufficient credits: ${result.available} remaining, ${result.required} required for this request.`,
          result.rate,
        );
    }
  }

  async rateStatus(account: Account): Promise<RateInfo> {
    return storeCall(() => this.store.rateStatus(account.id, PLAN_LIMITS[account.plan]));
  }
}

/** A refusal that still knows the account's window, so the rate-limit headers go out with the error. */
export class AdmissionRefusedError extends ApiError {
  constructor(
    code: 'concurrency_limit_exceeded' | 'insufficient_credits' | 'rate_limit_exceeded',
    message: string,
    readonly rate: RateInfo,
    retryAfterSeconds?: number,
  ) {
    super(code, message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
  }
}

export class RateLimitedError extends AdmissionRefusedError {
  constructor(message: string, retryAfterSeconds: number, rate: RateInfo) {
    super('rate_limit_exceeded', message, rate, retryAfterSeconds);
  }
}
