// The Store contract: accounts, hashed keys, custom voices, and the atomic admission step
// (sliding rate window + concurrency slot lease + credit reservation) shared by every instance.
// SqliteStore implements it for one machine; RedisStore for many. Both pass test/helpers/store-contract.ts.
// Every settlement writes its usage record in the same atomic step as the debit, so ledger and balance agree.

import type { LexiconEdit, LexiconEntry, LexiconSummary, StoredLexicon } from './lexicon.js';
import type { NewOutboundCallEvent, OutboundCall, OutboundCallEvent, OutboundCallState, WebhookBacklogEntry } from './outbound-call.js';

export type Plan = 'free' | 'developer' | 'growth';

export interface PlanLimits {
  readonly requestsPerMinute: number;
  readonly concurrentRequests: number;
}

/** The spec's "Limits by plan" table. */
export const PLAN_LIMITS: Readonly<Record<Plan, PlanLimits>> = {
  free: { requestsPerMinute: 15, concurrentRequests: 1 },
  developer: { requestsPerMinute: 60, concurrentRequests: 3 },
  growth: { requestsPerMinute: 300, concurrentRequests: 10 },
};

export const RATE_WINDOW_MS = 60_000;

/** Account ids: operator-chosen (`acct_1`) or generated (`acct_` + 12 base32); safe in URLs, logs and shells. */
export const ACCOUNT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Lease length used when an admission asks for a slot without `slotLeaseMs`. */
export const DEFAULT_SLOT_LEASE_MS = 30_000;

export interface Account {
  readonly id: string;
  readonly plan: Plan;
  /** Spendable balance in characters, already net of nothing: reservations are tracked separately. */
  readonly credits: number;
  readonly createdAtMs: number;
}

/** A custom (`vc_`) voice: an operator-made variation of a preset voice, owned by one account. */
export interface CustomVoice {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly baseVoice: string;
  /** Semitones relative to the base voice, -12..12. */
  readonly pitchShiftSemitones: number;
  /** Tempo multiplier applied on top of the request's speed, 0.8..1.25. */
  readonly rateMultiplier: number;
  readonly createdAtMs: number;
}

export interface RateInfo {
  /** Requests per minute allowed by the plan. */
  readonly limit: number;
  /** Requests left in the window after this admission (or now, for a status read). */
  readonly remaining: number;
  /** Epoch ms when the oldest counted request leaves the window (now when the window is empty). */
  readonly resetAtMs: number;
}

export interface AdmissionRequest {
  readonly accountId: string;
  readonly limits: PlanLimits;
  /** Add one entry to the sliding window (HTTP synthesis, each WebSocket `text`). */
  readonly countRate: boolean;
  /** Take a concurrency slot lease with this holder id (HTTP request, WebSocket session). */
  readonly slotHolderId?: string;
  /** Lease length (default DEFAULT_SLOT_LEASE_MS); the holder renews it with `renewSlot` while alive. */
  readonly slotLeaseMs?: number;
  /** Reserve this many credits under this reservation id; settled or released later. */
  readonly reservation?: { readonly id: string; readonly credits: number; readonly ttlMs: number };
}

export type AdmissionResult =
  | { readonly ok: true; readonly rate: RateInfo }
  | { readonly ok: false; readonly reason: 'rate_limited'; readonly rate: RateInfo; readonly retryAfterMs: number }
  | { readonly ok: false; readonly reason: 'concurrency'; readonly rate: RateInfo; readonly inFlight: number }
  | {
      readonly ok: false;
      readonly reason: 'insufficient_credits';
      readonly rate: RateInfo;
      /** Balance minus other live reservations: what this request could have used. */
      readonly available: number;
      readonly required: number;
    };

export interface NewAccount {
  readonly id?: string;
  readonly plan: Plan;
  readonly credits: number;
  /** Kept from another store by `raaga store import` and the store.json migration; default now. */
  readonly createdAtMs?: number;
}

/** How a billed utterance or request ended. */
export type UsageOutcome = 'completed' | 'cancelled' | 'truncated' | 'failed';
export const USAGE_OUTCOMES: readonly UsageOutcome[] = ['completed', 'cancelled', 'truncated', 'failed'];

/**
 * The surface that spent the credits: an HTTP endpoint, a WebSocket session, a phone call, the playground's simulated
 * caller, OpenAI's POST /v1/audio/speech (`openai_speech`, api/openai/), or ElevenLabs' HTTP stream and streaming-input
 * sockets (`elevenlabs_stream`, `elevenlabs_stream_input`, api/elevenlabs/).
 */
export type UsageEndpoint = 'generate' | 'stream' | 'websocket' | 'call' | 'playground' | 'openai_speech' | 'elevenlabs_stream' | 'elevenlabs_stream_input';
export const USAGE_ENDPOINTS: readonly UsageEndpoint[] = [
  'generate',
  'stream',
  'websocket',
  'call',
  'playground',
  'openai_speech',
  'elevenlabs_stream',
  'elevenlabs_stream_input',
];

/** What the caller of `settle` knows about the settled utterance; the store adds time, account and the debit. */
export interface UsageDetails {
  /** The API key's fingerprint (`sha256:` + 12 hex, never the key); null for phone calls, which no key opened. */
  readonly keyId: string | null;
  readonly endpoint: UsageEndpoint;
  /** The call's id when `endpoint` is `call`. */
  readonly callId?: string;
  /** The voice as requested: a preset name or a `vc_` id. */
  readonly voice: string;
  readonly language: string;
  /**
   * The engine kind that spoke: `espeak` (embedded), or a pack's engine (`piper`, `flite`, `kokoro`). Records written
   * before engines plugged in say `embedded` or `pack`.
   */
  readonly engine: string;
  /** Seconds of audio produced. */
  readonly audioSeconds: number;
  readonly outcome: UsageOutcome;
}

/** One ledger line: one settled utterance or request. */
export interface UsageRecord extends UsageDetails {
  /** Unique within the account, ascending with time. */
  readonly id: string;
  readonly atMs: number;
  readonly accountId: string;
  /** Credits actually debited (the spec bills characters, i.e. code points). */
  readonly characters: number;
}

/** `[fromMs, toMs)` in epoch ms. */
export interface TimeRange {
  readonly fromMs: number;
  readonly toMs: number;
}

/** What usage totals are grouped by inside each interval of `aggregateUsage` (null: one total per interval). */
export type UsageDimension = 'voice' | 'language' | 'key';

/** Totals of the usage records of one group in one interval. */
export interface UsageAggregate {
  /** The voice, language or key fingerprint (null for `key` on phone calls); null for every total without a dimension. */
  readonly group: string | null;
  readonly characters: number;
  readonly requests: number;
  /** The plain sum, not rounded. */
  readonly audioSeconds: number;
  readonly outcomes: Readonly<Record<UsageOutcome, number>>;
}

/** Most records `listUsagePage` returns at once. */
export const MAX_USAGE_PAGE = 10_000;

export interface UsagePage {
  /** Oldest first (by time, then by id). */
  readonly records: readonly UsageRecord[];
  /** Pass as `after` for the next page; null when this page holds the last record of the range. */
  readonly next: string | null;
}

/** `GET /v1/usage`'s own window: reports an account may ask for per RATE_WINDOW_MS, apart from synthesis. */
export type UsageReportAdmission =
  | { readonly ok: true; readonly rate: RateInfo }
  | { readonly ok: false; readonly rate: RateInfo; readonly retryAfterMs: number };

/** What the store knows about one key hash; revoked hashes are kept so a revoked key never matches again. */
export interface KeyHashRecord {
  readonly accountId: string;
  readonly revoked: boolean;
}

/**
 * An account's phone settings: the account-wide rules and defaults, and its providers' credentials as one map. The
 * store keeps credentials as opaque strings under the names the provider modules give them
 * (src/telephony/<provider>/, e.g. `twilioAuthToken`); what each must look like, and which go together, is the
 * module's to say (telephony/telephony-settings-check.ts). Secrets are stored as given, not hashed (validating
 * X-Twilio-Signature is an HMAC keyed with the auth token): stores keep them like key hashes (0600 file, or Redis
 * behind its ACL); they are never logged.
 */
export interface TelephonySettings {
  readonly accountId: string;
  /** Each provider's credentials by field name (`twilioAuthToken`, `plivoAuthId`, …); absent when none is stored. */
  readonly credentials?: Readonly<Record<string, string>>;
  /** Keys the `Raaga-Signature` of this account's call status webhooks (HMAC-SHA256); required to set a webhook. */
  readonly webhookSecret?: string;
  /** Comma-separated E.164 numbers POST /v1/calls may use as `from`; unset: any (the provider still checks). */
  readonly allowedCallerIds?: string;
  /** `HH:MM-HH:MM` in `callingTimeZone`: POST /v1/calls is refused outside it; unset: any time. */
  readonly callingHours?: string;
  /** IANA time zone of `callingHours` (default Asia/Kolkata). */
  readonly callingTimeZone?: string;
  /** An https URL asked before each outbound call whether the number may be called (do-not-call check). */
  readonly dncWebhookUrl?: string;
  /** Calls this account may place per second through each provider (default: the provider's own default rate). */
  readonly dialCallsPerSecond?: string;
  /**
   * Accept this account's webhooks and media streams without provider credentials (local development only):
   * without it, an account with no credentials for a provider refuses that provider's requests.
   */
  readonly allowUnsigned?: boolean;
  /** Default call parameters (voice, language, agent_url, greeting, …) under the webhook's query. */
  readonly defaults?: Readonly<Record<string, string>>;
  readonly updatedAtMs: number;
}

/** Thrown by any operation naming an account that does not exist. */
export class AccountNotFoundError extends Error {
  readonly accountId: string;
  constructor(accountId: string) {
    super(`account ${accountId} does not exist`);
    this.name = 'AccountNotFoundError';
    this.accountId = accountId;
  }
}

/** Thrown by `createAccount` when the id is taken. */
export class AccountExistsError extends Error {
  readonly accountId: string;
  constructor(accountId: string) {
    super(`account ${accountId} already exists`);
    this.name = 'AccountExistsError';
    this.accountId = accountId;
  }
}

/**
 * What `holdKey` keeps unique: see telephony/call-assembly.ts, stream-authentication.ts, outbound/outbound-calls.ts
 * and twilio/twilio-webhooks.ts ('twilio-answer': the call token a CallSid's voice webhook was answered with).
 */
export const HELD_KEY_NAMESPACES = ['call-id', 'call-token', 'plivo-nonce', 'outbound-answer', 'twilio-answer'] as const;
export type HeldKeyNamespace = (typeof HELD_KEY_NAMESPACES)[number];

/**
 * The atomic admission step and its settlement: rate window, slot leases, credit reservations, and the usage ledger
 * the settlement appends to. Everything that lets a caller spend credits goes through it.
 */
export interface AdmissionLedger {
  /**
   * Checks are in order rate → slot → credits; nothing is recorded unless all pass (one atomic step).
   * Throws AccountNotFoundError for an unknown account (callers admit only authenticated accounts).
   */
  admit(request: AdmissionRequest): Promise<AdmissionResult>;
  /** Current window without counting: for `GET /v1/voices` and other uncounted authenticated responses. */
  rateStatus(accountId: string, limits: PlanLimits): Promise<RateInfo>;
  /** Extends a live lease; false when the lease is gone (expired or never held): the holder has lost its slot. */
  renewSlot(accountId: string, holderId: string, leaseMs: number): Promise<boolean>;
  releaseSlot(accountId: string, holderId: string): Promise<void>;
  /**
   * Ends a reservation: debits `usedCredits` (≤ reserved) and returns the rest, and, when `usage` is given, appends
   * its usage record in the same atomic step (so the ledger always sums to the credits spent). Idempotent: settling
   * an already settled or expired reservation changes nothing and records nothing. Returns the balance after
   * settlement. `usage` may be null only to release a reservation unused (`usedCredits` 0).
   */
  settle(accountId: string, reservationId: string, usedCredits: number, usage: UsageDetails | null): Promise<number>;
  /** The account's usage records with `fromMs ≤ atMs < toMs`, oldest first (none for an unknown account). */
  listUsage(accountId: string, range: TimeRange): Promise<readonly UsageRecord[]>;
  /**
   * Totals of the account's records in each interval (`fromMs ≤ atMs < toMs`), per group of `dimension`: one array
   * per interval, groups in order of value (null last), only groups with records. Reads rollup buckets written with
   * each record (src/store/usage-rollup.ts), never every record: the cost follows the period and the groups, not the
   * number of records, and it yields to the event loop between pieces. At most MAX_USAGE_INTERVALS intervals.
   */
  aggregateUsage(accountId: string, intervals: readonly TimeRange[], dimension: UsageDimension | null): Promise<readonly (readonly UsageAggregate[])[]>;
  /**
   * At most `limit` (≤ MAX_USAGE_PAGE) of the account's records in the range, oldest first, starting after the
   * cursor `after` (a previous page's `next`). listUsage reads a whole range at once: tests and tools only.
   */
  listUsagePage(accountId: string, range: TimeRange, page: { readonly after?: string | undefined; readonly limit: number }): Promise<UsagePage>;
  /** Counts one usage report in the account's report window (`limit` per RATE_WINDOW_MS), unless it is full. */
  admitUsageReport(accountId: string, limit: number): Promise<UsageReportAdmission>;
}

/** Accounts and their API key hashes (keys themselves are never stored). */
export interface AccountDirectory {
  findAccountByKeyHash(keyHash: string): Promise<Account | null>;
  getAccount(accountId: string): Promise<Account | null>;
  listAccounts(): Promise<readonly Account[]>;
  createAccount(account: NewAccount): Promise<Account>;
  setPlan(accountId: string, plan: Plan): Promise<Account>;
  addCredits(accountId: string, credits: number): Promise<Account>;
  /**
   * Idempotent for the same account (a revoked hash stays revoked); throws when the hash belongs to
   * another account.
   */
  addKeyHash(accountId: string, keyHash: string): Promise<void>;
  /** Returns false when no such key exists. */
  revokeKeyHash(keyHash: string): Promise<boolean>;
  /** Live (not revoked) key hashes of the account. */
  listKeyHashes(accountId: string): Promise<readonly string[]>;
  /** Every key hash of the account, revoked ones included (for `raaga store export`). */
  listKeyHashRecords(accountId: string): Promise<readonly { readonly hash: string; readonly revoked: boolean }[]>;
  /** Owner and revoked flag of a hash, or null when never added: lets provisioning skip revoked keys. */
  getKeyHashRecord(keyHash: string): Promise<KeyHashRecord | null>;
}

/** An account's `vc_` voices. */
export interface CustomVoiceCatalog {
  putCustomVoice(voice: CustomVoice): Promise<void>;
  getCustomVoice(voiceId: string): Promise<CustomVoice | null>;
  listCustomVoices(accountId: string): Promise<readonly CustomVoice[]>;
}

/** An account's phone settings, replaced whole. */
export interface TelephonySettingsStore {
  /** Replaces the account's telephony settings whole; throws AccountNotFoundError for an unknown account. */
  putTelephonySettings(settings: TelephonySettings): Promise<void>;
  /** Null when the account has none (or does not exist). */
  getTelephonySettings(accountId: string): Promise<TelephonySettings | null>;
}

/** Outbound calls: their events, the dial pacing across instances, and the status webhooks they still owe. */
export interface OutboundCallLog {
  /**
   * Stores a new outbound call with its `queued` event, unless the account already has a call with the same
   * idempotency key: then that call comes back unchanged (`created: false`). Throws AccountNotFoundError.
   */
  createOutboundCall(call: OutboundCall): Promise<{ readonly created: boolean; readonly state: OutboundCallState }>;
  /** Null for an unknown id, one of another account, or one older than OUTBOUND_CALL_RETENTION_MS. */
  getOutboundCall(accountId: string, callId: string): Promise<OutboundCallState | null>;
  /**
   * Appends the event with the next sequence number, unless the call already has an event with this status (a
   * provider repeating a callback): null then, and for an unknown call.
   */
  recordOutboundCallEvent(accountId: string, callId: string, event: NewOutboundCallEvent): Promise<OutboundCallEvent | null>;
  /**
   * Books the account's next slot to place a call through `provider`, one every `intervalMs` across every
   * instance: returns how long to wait before placing it, or null (nothing booked) when that exceeds `maxWaitMs`.
   */
  reserveDialSlot(accountId: string, provider: string, intervalMs: number, maxWaitMs: number): Promise<number | null>;
  /**
   * Counts one more outbound call of the account on the store clock's UTC day, unless the day has `maxPerDay`
   * already: returns the day's count with this one, or null (nothing counted). Each UTC day starts from 0.
   */
  claimOutboundCallOfDay(accountId: string, maxPerDay: number): Promise<number | null>;
  /** Records that the call's status events up to `sequence` reached its webhook (or were given up for good); never moves back. */
  advanceWebhookCursor(accountId: string, callId: string, sequence: number): Promise<void>;
  /**
   * Calls with a status webhook that still owe it events and whose newest event was recorded at or before
   * `recordedBeforeMs` (the instance that recorded them has had its chance), oldest first, at most `limit`.
   */
  webhookBacklog(recordedBeforeMs: number, limit: number): Promise<readonly WebhookBacklogEntry[]>;
}

/** Short-lived keys that must stay unique across every instance. */
export interface KeyHolds {
  /**
   * Holds `key` of `namespace` for `owner` during `ttlMs`, unless another owner holds it; returns the holder after
   * the attempt (`owner` when it got or already had the key: its hold is then renewed). What must stay unique across
   * every instance for a while: a live call id's account, a call token already used, a Plivo nonce already seen, the
   * call token a Twilio CallSid was answered with.
   */
  holdKey(namespace: HeldKeyNamespace, key: string, owner: string, ttlMs: number): Promise<string>;
  /** Lets go of `key` if `owner` holds it (nothing otherwise). */
  releaseKey(namespace: HeldKeyNamespace, key: string, owner: string): Promise<void>;
}

/**
 * An account's pronunciation lexicons (store/lexicon.ts), each change one atomic step that bumps the account's lexicon
 * version, so every instance learns with one cheap read that it must reload (core/lexicons/lexicon-library.ts).
 * Writes throw AccountNotFoundError for an unknown account and LexiconLimitError past a cap, storing nothing then.
 */
export interface LexiconStore {
  /** Creates or replaces the lexicon whole (`updatedAtMs`: kept by `raaga store import`; default now). */
  putLexicon(accountId: string, name: string, entries: readonly LexiconEntry[], options?: { readonly updatedAtMs?: number }): Promise<LexiconSummary>;
  /** Removes, then puts (replacing entries with the same key), in one step; creates the lexicon when missing. */
  editLexicon(accountId: string, name: string, edit: LexiconEdit): Promise<LexiconSummary>;
  /** Null when the account has no lexicon of that name. */
  getLexicon(accountId: string, name: string): Promise<StoredLexicon | null>;
  /** The account's lexicons by name (none for an unknown account). */
  listLexicons(accountId: string): Promise<readonly LexiconSummary[]>;
  /** False when there was none. */
  deleteLexicon(accountId: string, name: string): Promise<boolean>;
  /** Grows with every change to any of the account's lexicons; 0 when there never was one. */
  lexiconVersion(accountId: string): Promise<number>;
}

/**
 * Everything shared between instances, one role per interface: code that needs one role asks for that role, so what
 * it can touch is in its signature; the server, the CLI and the stores themselves deal in the whole Store.
 */
export interface Store extends AdmissionLedger, AccountDirectory, CustomVoiceCatalog, TelephonySettingsStore, OutboundCallLog, KeyHolds, LexiconStore {
  /** Throws when the store cannot serve (for `/readyz`). */
  ping(): Promise<void>;
  /** Flushes everything durable and releases resources. */
  close(): Promise<void>;
}
