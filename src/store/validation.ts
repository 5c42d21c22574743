// Argument checks shared by every Store implementation, so MemoryStore and RedisStore refuse exactly the same inputs.

import { DEFAULT_SLOT_LEASE_MS, USAGE_ENDPOINTS, USAGE_OUTCOMES, type AdmissionRequest, type CustomVoice, type UsageDetails } from './store.js';

export const KEY_HASH_PATTERN = /^[0-9a-f]{64}$/;

export function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}

export function assertPositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number of ms, got ${value}`);
}

export function assertKeyHash(keyHash: string): void {
  if (!KEY_HASH_PATTERN.test(keyHash)) throw new Error('key hash must be 64 lowercase hex characters (SHA-256)');
}

export function assertCustomVoice(voice: CustomVoice): void {
  if (!voice.id.startsWith('vc_')) throw new Error(`custom voice id must start with vc_: ${voice.id}`);
  if (!(voice.pitchShiftSemitones >= -12 && voice.pitchShiftSemitones <= 12)) {
    throw new RangeError('pitchShiftSemitones must be within -12..12');
  }
  if (!(voice.rateMultiplier >= 0.8 && voice.rateMultiplier <= 1.25)) {
    throw new RangeError('rateMultiplier must be within 0.8..1.25');
  }
}

/** A settlement's credits and usage record: a debit without a record would leave the ledger short of the balance. */
export function assertSettlement(usedCredits: number, usage: UsageDetails | null): void {
  assertCount('usedCredits', usedCredits);
  if (usage === null) {
    if (usedCredits > 0) throw new Error('a settlement that debits credits must carry its usage record');
    return;
  }
  if (!USAGE_ENDPOINTS.includes(usage.endpoint)) throw new Error(`unknown usage endpoint ${String(usage.endpoint)}`);
  if (!USAGE_OUTCOMES.includes(usage.outcome)) throw new Error(`unknown usage outcome ${String(usage.outcome)}`);
  if (typeof usage.engine !== 'string' || !ENGINE_KIND_PATTERN.test(usage.engine)) throw new Error(`unknown usage engine ${String(usage.engine)}`);
  if (!(Number.isFinite(usage.audioSeconds) && usage.audioSeconds >= 0)) throw new RangeError('audioSeconds must be a non-negative number');
}

/** An engine kind as the ledger records it (`espeak`, `piper`, …). */
const ENGINE_KIND_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** Usage ranges are `[fromMs, toMs)` in epoch ms. */
export function assertTimeRange(fromMs: number, toMs: number): void {
  if (!Number.isSafeInteger(fromMs) || !Number.isSafeInteger(toMs) || fromMs > toMs) {
    throw new RangeError(`usage range must be integer epoch ms with from ≤ to, got ${fromMs}..${toMs}`);
  }
}

/** Checks an admission's reservation and lease; returns the lease length it asks for (DEFAULT_SLOT_LEASE_MS if none). */
export function admissionLeaseMs(request: AdmissionRequest): number {
  const { reservation } = request;
  if (reservation) {
    assertCount('reservation credits', reservation.credits);
    assertPositive('reservation ttlMs', reservation.ttlMs);
  }
  const leaseMs = request.slotLeaseMs ?? DEFAULT_SLOT_LEASE_MS;
  assertPositive('slotLeaseMs', leaseMs);
  return leaseMs;
}
