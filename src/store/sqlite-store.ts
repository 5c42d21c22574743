// SqliteStore: the embedded Store for one machine, on SQLite (`<dataDir>/raaga.db`, WAL). Accounts, balances, key
// hashes, custom voices, telephony settings and the usage ledger are rows, each change one transaction; nothing is
// cached, so what the CLI writes from another process is what the next request reads. Admission state (rate
// windows, slot leases, credit reservations) stays in this process's memory: one server per data directory, and
// a crash releases reservations uncharged, as a Redis reservation's expiry does.
// Over 400 lines: one thin method per Store operation plus the settlement group commit; the SQL sits beside its method.

import { ensurePrivateDir } from '../util/private-dir.js';
import { AdmissionBook, type AdmissionState } from './admission-state.js';
import { OUTBOUND_CALL_RETENTION_MS, type NewOutboundCallEvent, type OutboundCall, type OutboundCallEvent, type OutboundCallState, type WebhookBacklogEntry } from './outbound-call.js';
import { randomId } from './random-id.js';
import { openDatabase, type SqliteDatabase, type SqliteStatement } from './sqlite/database.js';
import { importStoreJson, type StoreJsonImport } from './sqlite/store-json-import.js';
import { SqliteUsageRollup } from './sqlite/usage-rollup-sql.js';
import { SqliteLexicons } from './sqlite/lexicon-sql.js';
import { assertLexiconEdit, assertLexiconEntries, assertLexiconName, type LexiconEdit, type LexiconEntry, type LexiconSummary, type StoredLexicon } from './lexicon.js';
import { UsageReportWindows } from './usage-report-window.js';
import { assertUsageIntervals, assertUsagePageLimit, bucketStart } from './usage-rollup.js';
import {
  ACCOUNT_ID_PATTERN,
  AccountExistsError,
  AccountNotFoundError,
  type Account,
  type AdmissionRequest,
  type AdmissionResult,
  type CustomVoice,
  type HeldKeyNamespace,
  type KeyHashRecord,
  type NewAccount,
  type Plan,
  type PlanLimits,
  type RateInfo,
  type Store,
  type TelephonySettings,
  type TimeRange,
  type UsageAggregate,
  type UsageDimension,
  type UsagePage,
  type UsageReportAdmission,
  type UsageDetails,
  type UsageRecord,
} from './store.js';
import { DAY_MS, DEFAULT_USAGE_RETENTION_DAYS } from '../config.js';
import { assertStoredTelephonySettings, parseTelephonySettings } from './telephony-settings.js';
import { assertCount, assertCustomVoice, assertKeyHash, assertPositive, assertSettlement, assertTimeRange } from './validation.js';

export interface SqliteStoreOptions {
  /** Injected clock (epoch ms) so tests move time instead of sleeping. */
  readonly now?: () => number;
  /** Where `raaga.db` lives; unset: a private in-memory database (tests). */
  readonly dataDir?: string;
  /** Usage records (and their rollup buckets) older than this are deleted, from the day boundary before it (at open, then at most hourly). Default DEFAULT_USAGE_RETENTION_DAYS. */
  readonly usageRetentionMs?: number;
}

/** Usage pruning runs at most this often: a DELETE on the time index, off the path of nearly every settle. */
const USAGE_PRUNE_INTERVAL_MS = 3_600_000;

interface AccountRow {
  readonly id: string;
  readonly plan: Plan;
  readonly credits: number;
  readonly created_at_ms: number;
}

interface VoiceRow {
  readonly id: string;
  readonly account_id: string;
  readonly name: string;
  readonly base_voice: string;
  readonly pitch_shift_semitones: number;
  readonly rate_multiplier: number;
  readonly created_at_ms: number;
}

interface UsageRow {
  readonly id: number;
  readonly at_ms: number;
  readonly account_id: string;
  readonly key_id: string | null;
  readonly endpoint: UsageRecord['endpoint'];
  readonly call_id: string | null;
  readonly voice: string;
  readonly language: string;
  readonly engine: UsageRecord['engine'];
  readonly characters: number;
  readonly audio_seconds: number;
  readonly outcome: UsageRecord['outcome'];
}

interface PendingSettlement {
  readonly accountId: string;
  readonly reservationId: string;
  readonly usedCredits: number;
  readonly usage: UsageDetails | null;
  readonly resolve: (balance: number) => void;
  readonly reject: (error: unknown) => void;
}

export class SqliteStore implements Store {
  private readonly now: () => number;
  private readonly db: SqliteDatabase;
  private readonly retentionMs: number;
  private readonly admission = new AdmissionBook();
  private readonly sql: ReturnType<typeof prepareStatements>;
  private readonly rollup: SqliteUsageRollup;
  private readonly lexicons: SqliteLexicons;
  private readonly reportWindows = new UsageReportWindows();
  private lastPruneMs = -Infinity;
  private readonly pendingSettlements: PendingSettlement[] = [];
  private closed = false;
  /** What the store.json migration did at open, for the startup log; null when there was nothing to import. */
  readonly migration: StoreJsonImport | null;

  /** Opens synchronously; prefer `SqliteStore.open`, which also creates the data directory. */
  constructor(options: SqliteStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.retentionMs = options.usageRetentionMs ?? DEFAULT_USAGE_RETENTION_DAYS * DAY_MS;
    assertPositive('usageRetentionMs', this.retentionMs);
    this.db = openDatabase(options.dataDir);
    this.sql = prepareStatements(this.db);
    this.rollup = new SqliteUsageRollup(this.db);
    this.lexicons = new SqliteLexicons(this.db);
    try {
      this.migration = options.dataDir === undefined ? null : importStoreJson(this.db, options.dataDir, this.now());
      this.pruneUsage(this.now());
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  static async open(options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    if (options.dataDir !== undefined) await ensurePrivateDir(options.dataDir);
    return new SqliteStore(options);
  }

  // ---- admission -------------------------------------------------------------------------------------

  async admit(request: AdmissionRequest): Promise<AdmissionResult> {
    this.assertOpen();
    const account = this.requireAccount(request.accountId);
    return this.admission.admit(account.id, account.credits, request, this.now());
  }

  async rateStatus(accountId: string, limits: PlanLimits): Promise<RateInfo> {
    this.assertOpen();
    return this.admission.rateStatus(accountId, limits, this.now());
  }

  async renewSlot(accountId: string, holderId: string, leaseMs: number): Promise<boolean> {
    this.assertOpen();
    return this.admission.renewSlot(accountId, holderId, leaseMs, this.now());
  }

  async releaseSlot(accountId: string, holderId: string): Promise<void> {
    this.assertOpen();
    this.admission.releaseSlot(accountId, holderId);
  }

  /**
   * Settlements arriving in the same turn of the event loop share one transaction (group commit): one fsync for many
   * debits, as the JSON store's grouped writes had, each still all-or-nothing with its usage record. Each resolves
   * only once its transaction is committed. Reads of balances and usage commit what is waiting first, so this
   * process always reads its own settlements; admission need not (a waiting settlement still holds its reservation,
   * so what admission sees available is never more than there is).
   */
  async settle(accountId: string, reservationId: string, usedCredits: number, usage: UsageDetails | null): Promise<number> {
    this.assertOpen();
    assertSettlement(usedCredits, usage);
    return new Promise<number>((resolve, reject) => {
      this.pendingSettlements.push({ accountId, reservationId, usedCredits, usage, resolve, reject });
      if (this.pendingSettlements.length === 1) setImmediate(() => this.commitSettlements());
    });
  }

  private commitSettlements(): void {
    const batch = this.pendingSettlements.splice(0);
    if (batch.length === 0) return;
    const now = this.now();
    const settled: { state: AdmissionState; reservationId: string }[] = [];
    let outcomes: (number | Error)[];
    try {
      outcomes = this.db.transaction(() => {
        // A reservation settled twice in one batch is debited once, as across batches.
        const seen = new Set<string>();
        return batch.map(({ accountId, reservationId, usedCredits, usage }): number | Error => {
          const row = this.sql.account.get(accountId) as AccountRow | undefined;
          if (!row) return new AccountNotFoundError(accountId);
          const state = this.admission.stateOf(accountId, now);
          const reservation = state.reservations.get(reservationId);
          const key = `${accountId}\u0000${reservationId}`;
          const balance = row.credits;
          if (!reservation || seen.has(key)) return balance;
          seen.add(key);
          // Clamped twice: never more than reserved, and never below zero whatever happened in between.
          const debit = Math.min(usedCredits, reservation.credits, balance);
          if (debit > 0) this.sql.debit.run(debit, accountId);
          if (usage) {
            this.sql.insertUsage.run(usageRow(now, accountId, debit, usage));
            this.rollup.add(now, accountId, debit, usage);
          }
          settled.push({ state, reservationId });
          return balance - debit;
        });
      }).immediate();
    } catch (error) {
      // Nothing was committed: the reservations stay, to expire released and uncharged.
      for (const item of batch) item.reject(error);
      return;
    }
    // Dropped only once committed.
    for (const { state, reservationId } of settled) state.reservations.delete(reservationId);
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof Error) item.reject(outcome);
      else item.resolve(outcome as number);
    });
    if (now - this.lastPruneMs >= USAGE_PRUNE_INTERVAL_MS) this.pruneUsage(now);
  }

  async aggregateUsage(accountId: string, intervals: readonly TimeRange[], dimension: UsageDimension | null): Promise<readonly (readonly UsageAggregate[])[]> {
    this.assertOpen();
    assertUsageIntervals(intervals);
    this.commitSettlements();
    return this.rollup.aggregate(accountId, intervals, dimension);
  }

  async listUsagePage(accountId: string, range: TimeRange, page: { readonly after?: string | undefined; readonly limit: number }): Promise<UsagePage> {
    this.assertOpen();
    assertTimeRange(range.fromMs, range.toMs);
    assertUsagePageLimit(page.limit);
    this.commitSettlements();
    const { rows, next } = this.rollup.page(accountId, range, page.after, page.limit);
    return { records: (rows as UsageRow[]).map(usageRecord), next };
  }

  async admitUsageReport(accountId: string, limit: number): Promise<UsageReportAdmission> {
    this.assertOpen();
    return this.reportWindows.admit(accountId, limit, this.now());
  }

  async listUsage(accountId: string, range: TimeRange): Promise<readonly UsageRecord[]> {
    this.assertOpen();
    this.commitSettlements();
    assertTimeRange(range.fromMs, range.toMs);
    return (this.sql.usageInRange.all(accountId, range.fromMs, range.toMs) as UsageRow[]).map(usageRecord);
  }

  // ---- accounts --------------------------------------------------------------------------------------

  async getAccount(accountId: string): Promise<Account | null> {
    this.assertOpen();
    this.commitSettlements();
    const row = this.sql.account.get(accountId) as AccountRow | undefined;
    return row ? accountOf(row) : null;
  }

  async listAccounts(): Promise<readonly Account[]> {
    this.assertOpen();
    this.commitSettlements();
    return (this.sql.accounts.all() as AccountRow[]).map(accountOf);
  }

  async createAccount(account: NewAccount): Promise<Account> {
    this.assertOpen();
    assertCount('credits', account.credits);
    if (account.createdAtMs !== undefined) assertCount('createdAtMs', account.createdAtMs);
    const id = account.id ?? this.freshAccountId();
    if (!ACCOUNT_ID_PATTERN.test(id)) throw new Error(`invalid account id ${JSON.stringify(id)}: use letters, digits, _ or -`);
    const created: Account = { id, plan: account.plan, credits: account.credits, createdAtMs: account.createdAtMs ?? this.now() };
    if (this.sql.insertAccount.run(created.id, created.plan, created.credits, created.createdAtMs).changes === 0) {
      throw new AccountExistsError(id);
    }
    return created;
  }

  async setPlan(accountId: string, plan: Plan): Promise<Account> {
    this.assertOpen();
    return this.updateAccount(accountId, () => this.sql.setPlan.run(plan, accountId));
  }

  async addCredits(accountId: string, credits: number): Promise<Account> {
    this.assertOpen();
    assertCount('credits', credits);
    return this.updateAccount(accountId, () => this.sql.credit.run(credits, accountId));
  }

  // ---- keys ------------------------------------------------------------------------------------------

  async addKeyHash(accountId: string, keyHash: string): Promise<void> {
    this.assertOpen();
    assertKeyHash(keyHash);
    this.db.transaction(() => {
      this.requireAccount(accountId);
      // Re-adding a known hash changes nothing: in particular a revoked key stays revoked.
      this.sql.insertKey.run(keyHash, accountId);
      const owner = (this.sql.key.get(keyHash) as { account_id: string } | undefined)?.account_id;
      if (owner !== accountId) throw new Error('this key already belongs to another account');
    }).immediate();
  }

  async revokeKeyHash(keyHash: string): Promise<boolean> {
    this.assertOpen();
    return this.sql.revokeKey.run(keyHash).changes > 0;
  }

  async findAccountByKeyHash(keyHash: string): Promise<Account | null> {
    this.assertOpen();
    const row = this.sql.accountByLiveKey.get(keyHash) as AccountRow | undefined;
    return row ? accountOf(row) : null;
  }

  async listKeyHashes(accountId: string): Promise<readonly string[]> {
    this.assertOpen();
    return (this.sql.keysOf.all(accountId) as { hash: string; revoked: number }[]).filter((k) => k.revoked === 0).map((k) => k.hash);
  }

  async listKeyHashRecords(accountId: string): Promise<readonly { hash: string; revoked: boolean }[]> {
    this.assertOpen();
    return (this.sql.keysOf.all(accountId) as { hash: string; revoked: number }[]).map((k) => ({ hash: k.hash, revoked: k.revoked === 1 }));
  }

  async getKeyHashRecord(keyHash: string): Promise<KeyHashRecord | null> {
    this.assertOpen();
    const row = this.sql.key.get(keyHash) as { account_id: string; revoked: number } | undefined;
    return row ? { accountId: row.account_id, revoked: row.revoked === 1 } : null;
  }

  // ---- custom voices ---------------------------------------------------------------------------------

  async putCustomVoice(voice: CustomVoice): Promise<void> {
    this.assertOpen();
    assertCustomVoice(voice);
    this.db.transaction(() => {
      this.requireAccount(voice.accountId);
      const owner = (this.sql.voice.get(voice.id) as VoiceRow | undefined)?.account_id;
      if (owner !== undefined && owner !== voice.accountId) throw new Error(`voice ${voice.id} belongs to another account`);
      this.sql.putVoice.run(voice.id, voice.accountId, voice.name, voice.baseVoice, voice.pitchShiftSemitones, voice.rateMultiplier, voice.createdAtMs);
    }).immediate();
  }

  async getCustomVoice(voiceId: string): Promise<CustomVoice | null> {
    this.assertOpen();
    const row = this.sql.voice.get(voiceId) as VoiceRow | undefined;
    return row ? voiceOf(row) : null;
  }

  async listCustomVoices(accountId: string): Promise<readonly CustomVoice[]> {
    this.assertOpen();
    return (this.sql.voicesOf.all(accountId) as VoiceRow[]).map(voiceOf);
  }

  // ---- telephony settings ----------------------------------------------------------------------------

  async putTelephonySettings(settings: TelephonySettings): Promise<void> {
    this.assertOpen();
    assertStoredTelephonySettings(settings);
    this.db.transaction(() => {
      this.requireAccount(settings.accountId);
      this.sql.putTelephony.run(settings.accountId, JSON.stringify(settings));
    }).immediate();
  }

  async getTelephonySettings(accountId: string): Promise<TelephonySettings | null> {
    this.assertOpen();
    const row = this.sql.telephony.get(accountId) as { json: string } | undefined;
    return row ? parseTelephonySettings(row.json) : null;
  }

  // ---- lexicons --------------------------------------------------------------------------------------

  async putLexicon(accountId: string, name: string, entries: readonly LexiconEntry[], options: { readonly updatedAtMs?: number } = {}): Promise<LexiconSummary> {
    this.assertOpen();
    assertLexiconName(name);
    assertLexiconEntries(entries);
    return this.lexicons.put(accountId, name, entries, options.updatedAtMs ?? this.now(), () => this.requireAccount(accountId));
  }

  async editLexicon(accountId: string, name: string, edit: LexiconEdit): Promise<LexiconSummary> {
    this.assertOpen();
    assertLexiconName(name);
    assertLexiconEdit(edit);
    return this.lexicons.edit(accountId, name, edit, this.now(), () => this.requireAccount(accountId));
  }

  async getLexicon(accountId: string, name: string): Promise<StoredLexicon | null> {
    this.assertOpen();
    return this.lexicons.get(accountId, name);
  }

  async listLexicons(accountId: string): Promise<readonly LexiconSummary[]> {
    this.assertOpen();
    return this.lexicons.list(accountId);
  }

  async deleteLexicon(accountId: string, name: string): Promise<boolean> {
    this.assertOpen();
    return this.lexicons.delete(accountId, name);
  }

  async lexiconVersion(accountId: string): Promise<number> {
    this.assertOpen();
    return this.lexicons.version(accountId);
  }

  // ---- outbound calls --------------------------------------------------------------------------------

  async createOutboundCall(call: OutboundCall): Promise<{ readonly created: boolean; readonly state: OutboundCallState }> {
    this.assertOpen();
    return this.db.transaction(() => {
      this.requireAccount(call.accountId);
      if (call.idempotencyKey !== undefined) {
        const existing = this.sql.outboundCallByKey.get(call.accountId, call.idempotencyKey, call.createdAtMs - OUTBOUND_CALL_RETENTION_MS) as { id: string } | undefined;
        if (existing) return { created: false, state: this.outboundCall(call.accountId, existing.id)! };
      }
      // An expired call with the same key gives way (its key is free again after the retention).
      if (call.idempotencyKey !== undefined) this.sql.freeIdempotencyKey.run(call.accountId, call.idempotencyKey);
      this.sql.insertOutboundCall.run(call.id, call.accountId, call.idempotencyKey ?? null, call.createdAtMs, JSON.stringify(call), call.statusWebhook === undefined ? 0 : 1, this.now());
      const queued: OutboundCallEvent = { status: 'queued', atMs: call.createdAtMs, sequence: 1 };
      this.sql.insertOutboundEvent.run(call.id, queued.status, queued.sequence, JSON.stringify(queued));
      return { created: true, state: { call, events: [queued], webhookDeliveredThrough: 0 } };
    }).immediate();
  }

  async getOutboundCall(accountId: string, callId: string): Promise<OutboundCallState | null> {
    this.assertOpen();
    return this.outboundCall(accountId, callId);
  }

  async recordOutboundCallEvent(accountId: string, callId: string, event: NewOutboundCallEvent): Promise<OutboundCallEvent | null> {
    this.assertOpen();
    return this.db.transaction(() => {
      const state = this.outboundCall(accountId, callId);
      if (!state || state.events.some((e) => e.status === event.status)) return null;
      const recorded: OutboundCallEvent = { ...event, sequence: state.events.length + 1 };
      this.sql.insertOutboundEvent.run(callId, recorded.status, recorded.sequence, JSON.stringify(recorded));
      this.sql.outboundRecorded.run(recorded.sequence, this.now(), callId);
      return recorded;
    }).immediate();
  }

  async reserveDialSlot(accountId: string, provider: string, intervalMs: number, maxWaitMs: number): Promise<number | null> {
    this.assertOpen();
    const now = this.now();
    return this.db.transaction(() => {
      const row = this.sql.dialSlot.get(accountId, provider) as { next_at_ms: number } | undefined;
      const slot = Math.max(now, row?.next_at_ms ?? 0);
      if (slot - now > maxWaitMs) return null;
      this.sql.putDialSlot.run(accountId, provider, slot + intervalMs);
      return slot - now;
    }).immediate();
  }

  async claimOutboundCallOfDay(accountId: string, maxPerDay: number): Promise<number | null> {
    this.assertOpen();
    const day = Math.floor(this.now() / DAY_MS);
    return this.db.transaction(() => {
      const row = this.sql.outboundCallDay.get(accountId) as { day: number; calls: number } | undefined;
      const calls = row?.day === day ? row.calls : 0;
      if (calls >= maxPerDay) return null;
      this.sql.putOutboundCallDay.run(accountId, day, calls + 1);
      return calls + 1;
    }).immediate();
  }

  async holdKey(namespace: HeldKeyNamespace, key: string, owner: string, ttlMs: number): Promise<string> {
    this.assertOpen();
    const now = this.now();
    return this.db.transaction(() => {
      this.sql.dropExpiredKeys.run(now);
      const holder = (this.sql.heldKey.get(namespace, key) as { owner: string } | undefined)?.owner;
      if (holder !== undefined && holder !== owner) return holder;
      this.sql.holdKey.run(namespace, key, owner, now + ttlMs);
      return owner;
    }).immediate();
  }

  async releaseKey(namespace: HeldKeyNamespace, key: string, owner: string): Promise<void> {
    this.assertOpen();
    this.sql.releaseKey.run(namespace, key, owner);
  }

  async advanceWebhookCursor(accountId: string, callId: string, sequence: number): Promise<void> {
    this.assertOpen();
    this.sql.advanceWebhook.run(sequence, callId, accountId);
  }

  async webhookBacklog(recordedBeforeMs: number, limit: number): Promise<readonly WebhookBacklogEntry[]> {
    this.assertOpen();
    const rows = this.sql.webhookBacklog.all(recordedBeforeMs, limit) as { account_id: string; id: string }[];
    return rows.map((row) => ({ accountId: row.account_id, callId: row.id }));
  }

  private outboundCall(accountId: string, callId: string): OutboundCallState | null {
    const row = this.sql.outboundCall.get(callId, accountId, this.now() - OUTBOUND_CALL_RETENTION_MS) as { json: string; webhook_through: number } | undefined;
    if (!row) return null;
    const events = (this.sql.outboundEvents.all(callId) as { json: string }[]).map((e) => JSON.parse(e.json) as OutboundCallEvent);
    return { call: JSON.parse(row.json) as OutboundCall, events, webhookDeliveredThrough: row.webhook_through };
  }

  // ---- lifecycle -------------------------------------------------------------------------------------

  /** Throws when the database cannot be read (a deleted or unreadable file). */
  async ping(): Promise<void> {
    this.assertOpen();
    this.sql.ping.get();
  }

  /** Every change was committed before its call resolved: closing only releases the file. */
  /** Commits the settlements still waiting for their turn, then releases the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.commitSettlements();
    this.closed = true;
    this.db.close();
  }

  // ---- internals -------------------------------------------------------------------------------------

  private updateAccount(accountId: string, change: () => { changes: number }): Account {
    this.commitSettlements();
    return this.db.transaction(() => {
      if (change().changes === 0) throw new AccountNotFoundError(accountId);
      return this.requireAccount(accountId);
    }).immediate();
  }

  private requireAccount(accountId: string): Account {
    const row = this.sql.account.get(accountId) as AccountRow | undefined;
    if (!row) throw new AccountNotFoundError(accountId);
    return accountOf(row);
  }

  private freshAccountId(): string {
    for (;;) {
      const id = randomId('acct_');
      if (!this.sql.account.get(id)) return id;
    }
  }

  private pruneUsage(now: number): void {
    this.lastPruneMs = now;
    // On a day boundary, records and rollup buckets alike: a bucket never outlives part of its records.
    const cutoff = bucketStart(now - this.retentionMs, DAY_MS);
    this.sql.pruneUsage.run(cutoff);
    this.rollup.prune(cutoff);
    this.sql.pruneOutboundCalls.run(now - OUTBOUND_CALL_RETENTION_MS);
  }


  private assertOpen(): void {
    if (this.closed) throw new Error('store is closed');
  }
}

function prepareStatements(db: SqliteDatabase) {
  const prepare = (sql: string): SqliteStatement => db.prepare(sql);
  return {
    ping: prepare('SELECT 1'),
    account: prepare('SELECT * FROM accounts WHERE id = ?'),
    accounts: prepare('SELECT * FROM accounts ORDER BY created_at_ms, id'),
    insertAccount: prepare('INSERT INTO accounts (id, plan, credits, created_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING'),
    setPlan: prepare('UPDATE accounts SET plan = ? WHERE id = ?'),
    credit: prepare('UPDATE accounts SET credits = credits + ? WHERE id = ?'),
    debit: prepare('UPDATE accounts SET credits = credits - ? WHERE id = ?'),
    key: prepare('SELECT account_id, revoked FROM api_keys WHERE hash = ?'),
    keysOf: prepare('SELECT hash, revoked FROM api_keys WHERE account_id = ? ORDER BY hash'),
    insertKey: prepare('INSERT INTO api_keys (hash, account_id) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING'),
    revokeKey: prepare('UPDATE api_keys SET revoked = 1 WHERE hash = ?'),
    accountByLiveKey: prepare('SELECT accounts.* FROM api_keys JOIN accounts ON accounts.id = api_keys.account_id WHERE api_keys.hash = ? AND api_keys.revoked = 0'),
    voice: prepare('SELECT * FROM custom_voices WHERE id = ?'),
    voicesOf: prepare('SELECT * FROM custom_voices WHERE account_id = ? ORDER BY created_at_ms, id'),
    putVoice: prepare(
      'INSERT OR REPLACE INTO custom_voices (id, account_id, name, base_voice, pitch_shift_semitones, rate_multiplier, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    telephony: prepare('SELECT json FROM telephony_settings WHERE account_id = ?'),
    putTelephony: prepare('INSERT OR REPLACE INTO telephony_settings (account_id, json) VALUES (?, ?)'),
    insertUsage: prepare(
      'INSERT INTO usage (at_ms, account_id, key_id, endpoint, call_id, voice, language, engine, characters, audio_seconds, outcome) ' +
        'VALUES (@at_ms, @account_id, @key_id, @endpoint, @call_id, @voice, @language, @engine, @characters, @audio_seconds, @outcome)',
    ),
    usageInRange: prepare('SELECT * FROM usage WHERE account_id = ? AND at_ms >= ? AND at_ms < ? ORDER BY id'),
    pruneUsage: prepare('DELETE FROM usage WHERE at_ms < ?'),
    outboundCall: prepare('SELECT json, webhook_through FROM outbound_calls WHERE id = ? AND account_id = ? AND created_at_ms >= ?'),
    outboundRecorded: prepare('UPDATE outbound_calls SET last_sequence = ?, last_recorded_at_ms = ? WHERE id = ?'),
    advanceWebhook: prepare('UPDATE outbound_calls SET webhook_through = max(webhook_through, ?) WHERE id = ? AND account_id = ?'),
    webhookBacklog: prepare(
      'SELECT account_id, id FROM outbound_calls WHERE has_webhook = 1 AND webhook_through < last_sequence AND last_recorded_at_ms <= ? ORDER BY last_recorded_at_ms LIMIT ?',
    ),
    outboundCallByKey: prepare('SELECT id FROM outbound_calls WHERE account_id = ? AND idempotency_key = ? AND created_at_ms >= ?'),
    freeIdempotencyKey: prepare('UPDATE outbound_calls SET idempotency_key = NULL WHERE account_id = ? AND idempotency_key = ?'),
    insertOutboundCall: prepare(
      'INSERT INTO outbound_calls (id, account_id, idempotency_key, created_at_ms, json, has_webhook, last_sequence, last_recorded_at_ms) VALUES (?, ?, ?, ?, ?, ?, 1, ?)',
    ),
    outboundEvents: prepare('SELECT json FROM outbound_call_events WHERE call_id = ? ORDER BY sequence'),
    insertOutboundEvent: prepare('INSERT INTO outbound_call_events (call_id, status, sequence, json) VALUES (?, ?, ?, ?)'),
    pruneOutboundCalls: prepare('DELETE FROM outbound_calls WHERE created_at_ms < ?'),
    dialSlot: prepare('SELECT next_at_ms FROM dial_slots WHERE account_id = ? AND provider = ?'),
    putDialSlot: prepare('INSERT OR REPLACE INTO dial_slots (account_id, provider, next_at_ms) VALUES (?, ?, ?)'),
    outboundCallDay: prepare('SELECT day, calls FROM outbound_call_days WHERE account_id = ?'),
    putOutboundCallDay: prepare('INSERT OR REPLACE INTO outbound_call_days (account_id, day, calls) VALUES (?, ?, ?)'),
    dropExpiredKeys: prepare('DELETE FROM held_keys WHERE expires_at_ms <= ?'),
    heldKey: prepare('SELECT owner FROM held_keys WHERE namespace = ? AND key = ?'),
    holdKey: prepare('INSERT OR REPLACE INTO held_keys (namespace, key, owner, expires_at_ms) VALUES (?, ?, ?, ?)'),
    releaseKey: prepare('DELETE FROM held_keys WHERE namespace = ? AND key = ? AND owner = ?'),
  };
}

function accountOf(row: AccountRow): Account {
  return { id: row.id, plan: row.plan, credits: row.credits, createdAtMs: row.created_at_ms };
}

function voiceOf(row: VoiceRow): CustomVoice {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    baseVoice: row.base_voice,
    pitchShiftSemitones: row.pitch_shift_semitones,
    rateMultiplier: row.rate_multiplier,
    createdAtMs: row.created_at_ms,
  };
}

function usageRow(atMs: number, accountId: string, characters: number, usage: UsageDetails): Omit<UsageRow, 'id'> {
  return {
    at_ms: atMs,
    account_id: accountId,
    key_id: usage.keyId,
    endpoint: usage.endpoint,
    call_id: usage.callId ?? null,
    voice: usage.voice,
    language: usage.language,
    engine: usage.engine,
    characters,
    audio_seconds: usage.audioSeconds,
    outcome: usage.outcome,
  };
}

function usageRecord(row: UsageRow): UsageRecord {
  return {
    id: String(row.id),
    atMs: row.at_ms,
    accountId: row.account_id,
    keyId: row.key_id,
    endpoint: row.endpoint,
    ...(row.call_id === null ? {} : { callId: row.call_id }),
    voice: row.voice,
    language: row.language,
    engine: row.engine,
    characters: row.characters,
    audioSeconds: row.audio_seconds,
    outcome: row.outcome,
  };
}
