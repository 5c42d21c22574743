// Decoding RedisStore's script and hash replies into Store types (kept apart from redis-store.ts, the ioredis home,
// to keep that file near 400 lines). Pure functions: no I/O.

import { StoreSnapshotSchema } from '../store-snapshot.js';
import {
  AccountNotFoundError,
  type Account,
  type AdmissionRequest,
  type AdmissionResult,
  type CustomVoice,
  type Plan,
  type RateInfo,
  type UsageDetails,
  type UsageRecord,
} from '../store.js';
import { ADMIT_RESULT } from './lua-scripts.js';

const PLANS: readonly Plan[] = ['free', 'developer', 'growth'];
const VoiceSchema = StoreSnapshotSchema.shape.voices.element;

/** ADMIT_LUA's reply {code, now, windowCount, resetAtMs, a, b} as the Store contract's AdmissionResult. */
export function decodeAdmitReply(reply: readonly number[], request: AdmissionRequest): AdmissionResult {
  const { limits } = request;
  const [code, , count = 0, resetAtMs = 0, a = 0, b = 0] = reply;
  const rate: RateInfo = { limit: limits.requestsPerMinute, remaining: Math.max(0, limits.requestsPerMinute - count), resetAtMs };
  switch (code) {
    case ADMIT_RESULT.ok:
      return { ok: true, rate };
    case ADMIT_RESULT.rateLimited:
      return { ok: false, reason: 'rate_limited', rate, retryAfterMs: a };
    case ADMIT_RESULT.concurrency:
      return { ok: false, reason: 'concurrency', rate, inFlight: a };
    case ADMIT_RESULT.insufficientCredits:
      return { ok: false, reason: 'insufficient_credits', rate, available: a, required: b };
    case ADMIT_RESULT.noAccount:
      throw new AccountNotFoundError(request.accountId);
    case ADMIT_RESULT.reservationLive:
      throw new Error(`reservation ${request.reservation?.id} is already live for account ${request.accountId}`);
  }
  throw new Error(`unexpected admission reply ${String(code)}`);
}

/** An account hash (from HGETALL, or a flat field/value list from a script); null when the record is missing. */
export function parseAccount(record: Readonly<Record<string, string>> | readonly string[]): Account | null {
  const fields: Record<string, string> = {};
  if (Array.isArray(record)) {
    for (let i = 0; i + 1 < record.length; i += 2) fields[record[i] as string] = record[i + 1] as string;
  } else {
    Object.assign(fields, record);
  }
  const { id, plan, credits, createdAtMs } = fields;
  if (id === undefined || plan === undefined || credits === undefined || createdAtMs === undefined) return null;
  if (!(PLANS as readonly string[]).includes(plan)) throw new Error(`account ${id} has an unknown plan in Redis`);
  return { id, plan: plan as Plan, credits: Number(credits), createdAtMs: Number(createdAtMs) };
}

/** Voices are stored as JSON; validated with the same schema as the embedded store's file. */
export function parseVoice(json: string): CustomVoice {
  return VoiceSchema.parse(JSON.parse(json));
}

/** The URL for messages and logs, with any password masked. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable REDIS_URL)';
  }
}

/** A usage record as the stream fields SETTLE_LUA appends after `characters` (flat field/value list). */
export function usageFields(usage: UsageDetails): string[] {
  const fields = ['keyId', usage.keyId ?? '', 'endpoint', usage.endpoint, 'voice', usage.voice, 'language', usage.language];
  fields.push('engine', usage.engine, 'audioSeconds', String(usage.audioSeconds), 'outcome', usage.outcome);
  if (usage.callId !== undefined) fields.push('callId', usage.callId);
  return fields;
}

/** One XRANGE entry `[id, [field, value, …]]` of an account's usage stream as a UsageRecord. */
export function parseUsageEntry(accountId: string, entry: readonly [string, readonly string[]]): UsageRecord {
  const [id, flat] = entry;
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) f[flat[i] as string] = flat[i + 1] as string;
  return {
    id,
    atMs: Number(id.split('-')[0]),
    accountId,
    keyId: f.keyId ? f.keyId : null,
    endpoint: f.endpoint as UsageRecord['endpoint'],
    ...(f.callId === undefined ? {} : { callId: f.callId }),
    voice: f.voice ?? '',
    language: f.language ?? '',
    engine: f.engine as UsageRecord['engine'],
    characters: Number(f.characters),
    audioSeconds: Number(f.audioSeconds),
    outcome: f.outcome as UsageRecord['outcome'],
  };
}
