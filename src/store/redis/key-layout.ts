// RedisStore's key names. Every key of one account carries the account id as a Cluster hash tag
// (`raaga:{acct_1}:window`), so each admission script touches a single slot; lookups by key hash or voice id
// live under their own tags and are only ever touched one key at a time. docs/operations.md documents the layout.

/** Key prefixes are operator-chosen; braces or glob characters would break hash tags and the test cleanup SCAN. */
export const KEY_PREFIX_PATTERN = /^[A-Za-z0-9:_.-]{1,64}$/;

export const DEFAULT_KEY_PREFIX = 'raaga:';

export interface AccountKeys {
  /** Hash: id, plan, credits (the balance), createdAtMs. */
  readonly account: string;
  /** Sorted set: one member per counted admission, score = admission time (ms). */
  readonly window: string;
  /** Sorted set: member = slot holder id, score = lease expiry (ms). */
  readonly leases: string;
  /** Sorted set: member = reservation id, score = reservation expiry (ms). */
  readonly reservations: string;
  /** Hash: reservation id → reserved credits (same members as `reservations`). */
  readonly reservedCredits: string;
  /** Set: key hashes ever added to the account (the owner record under `keyHash()` is authoritative). */
  readonly keyHashes: string;
  /** Hash: custom voice id → voice JSON. */
  readonly voices: string;
  /** String: the account's telephony settings as JSON (Twilio credentials and call defaults). */
  readonly telephony: string;
  /** Stream: the usage ledger, one entry per settled utterance or request (id `<ms>-<seq>`), trimmed by age. */
  readonly usage: string;
  /** Base name of the usage totals' bucket hashes: `<base><tier>:<bucket ms>` (src/store/redis/usage-totals.ts). */
  readonly usageTotals: string;
  /** Sorted set: one member per GET /v1/usage report, score = its time (ms): the report window. */
  readonly usageReportWindow: string;
  /** Hash: lexicon name → its summary JSON (revision, updatedAtMs, entryCount). */
  readonly lexicons: string;
  /** Hash: entry key (language, lower-case grapheme) → entry JSON, of one lexicon (names are [a-z0-9_-]). */
  lexicon(name: string): string;
  /** String: the account's lexicon version, incremented by every change to any of its lexicons. */
  readonly lexiconVersion: string;
}

export class KeyLayout {
  constructor(readonly prefix: string = DEFAULT_KEY_PREFIX) {
    if (!KEY_PREFIX_PATTERN.test(prefix)) {
      throw new Error(`Redis key prefix must be 1-64 of A-Z a-z 0-9 : _ . - (no braces), got ${JSON.stringify(prefix)}`);
    }
  }

  forAccount(accountId: string): AccountKeys {
    const base = `${this.prefix}{${accountId}}:`;
    return {
      account: `${base}account`,
      window: `${base}window`,
      leases: `${base}leases`,
      reservations: `${base}reservations`,
      reservedCredits: `${base}reserved-credits`,
      keyHashes: `${base}key-hashes`,
      voices: `${base}voices`,
      telephony: `${base}telephony`,
      usage: `${base}usage`,
      usageTotals: `${base}usage-totals:`,
      usageReportWindow: `${base}usage-report-window`,
      lexicons: `${base}lexicons`,
      lexicon: (name) => `${base}lexicon:${name}`,
      lexiconVersion: `${base}lexicon-version`,
    };
  }

  /** String: an outbound call's request as JSON (expires after OUTBOUND_CALL_RETENTION_MS). */
  outboundCall(accountId: string, callId: string): string {
    return `${this.prefix}{${accountId}}:outbound:${callId}`;
  }

  /** Hash: status → `<sequence>|<event JSON>`, the call's status events (same expiry as the call). */
  outboundEvents(accountId: string, callId: string): string {
    return `${this.prefix}{${accountId}}:outbound-events:${callId}`;
  }

  /** String: the last status event sequence delivered to the call's webhook. */
  webhookCursor(accountId: string, callId: string): string {
    return `${this.prefix}{${accountId}}:outbound-webhook:${callId}`;
  }

  /** Sorted set of every account: member `<account> <call>` owing its webhook events, score = when the last was recorded (ms). */
  get webhookBacklog(): string {
    return `${this.prefix}webhook-backlog`;
  }

  /** String: the call id an idempotency key (by its sha256, so any key is a safe name) placed. */
  idempotencyKey(accountId: string, keyHash: string): string {
    return `${this.prefix}{${accountId}}:outbound-key:${keyHash}`;
  }

  /** String: when the account may next place a call through the provider (ms). */
  dialSlot(accountId: string, provider: string): string {
    return `${this.prefix}{${accountId}}:dial-slot:${provider}`;
  }

  /** Hash: the account's outbound calls of the current UTC day (`day`, `calls`), expiring after the day. */
  outboundCallsOfDay(accountId: string): string {
    return `${this.prefix}{${accountId}}:outbound-day`;
  }

  /** String: the owner holding a key of a namespace (Store.holdKey), expiring with the hold. */
  heldKey(namespace: string, key: string): string {
    return `${this.prefix}held:${namespace}:{${key}}`;
  }

  /** Set of every account id (for `listAccounts`); touched alone, so its slot does not matter. */
  get accountIds(): string {
    return `${this.prefix}accounts`;
  }

  /** Hash: accountId, revoked (0/1). The authority on who owns a key and whether it still works. */
  keyHash(keyHash: string): string {
    return `${this.prefix}key:{${keyHash}}`;
  }

  /** Hash: accountId. Maps a `vc_` id to the account whose `voices` hash holds it. */
  voiceOwner(voiceId: string): string {
    return `${this.prefix}voice:{${voiceId}}`;
  }

  /** SCAN pattern matching every key of this layout (tests and operators clearing a prefix). */
  get scanPattern(): string {
    return `${this.prefix}*`;
  }
}
