// RedisStore: the Store shared by many Raaga instances. Admission (rate window, slot leases, credit reservations),
// accounts, balances, key hashes and custom voices all live in Redis; every read-check-write runs as one Lua script
// (src/store/redis/lua-scripts.ts) on the keys of one account. Its connection comes from src/store/redis/client.ts
// (the one ioredis client factory); key layout, scripts, reply decoding and the clock live beside it. Failures fail
// fast: commands time out after `commandTimeoutMs`, nothing queues while disconnected, the client reconnects forever.
// Over 400 lines: one thin method per Store operation; splitting it would only scatter the Store contract.

import { createHash, randomUUID } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { OUTBOUND_CALL_RETENTION_MS, type NewOutboundCallEvent, type OutboundCall, type OutboundCallEvent, type OutboundCallState, type WebhookBacklogEntry } from './outbound-call.js';
import { randomId } from './random-id.js';
import {
  ADMIT_LUA,
  ADMIT_RESULT,
  CLAIM_LUA,
  HOLD_KEY_LUA,
  RELEASE_KEY_LUA,
  CREATE_ACCOUNT_LUA,
  PUT_VOICE_LUA,
  CREATE_OUTBOUND_CALL_LUA,
  RECORD_OUTBOUND_EVENT_LUA,
  RESERVE_DIAL_SLOT_LUA,
  CLAIM_OUTBOUND_CALL_OF_DAY_LUA,
  ADVANCE_WEBHOOK_CURSOR_LUA,
  RATE_STATUS_LUA,
  RENEW_SLOT_LUA,
  REVOKE_KEY_LUA,
  SETTLE_EXPIRED,
  SETTLE_LUA,
  SETTLE_NO_ACCOUNT,
  UPDATE_ACCOUNT_LUA,
  USAGE_REPORT_WINDOW_LUA,
  USAGE_TOTALS_BACKFILL_LUA,
} from './redis/lua-scripts.js';
import { aggregateRedisUsage } from './redis/usage-report.js';
import { LEXICON_SCRIPTS, RedisLexicons, type LexiconCommands } from './redis/lexicons.js';
import { LEXICON_NAME_PATTERN, assertLexiconEdit, assertLexiconEntries, assertLexiconName, type LexiconEdit, type LexiconEntry, type LexiconSummary, type StoredLexicon } from './lexicon.js';
import { assertUsageIntervals, assertUsagePageLimit } from './usage-rollup.js';
import { createRedisClient, DEFAULT_COMMAND_TIMEOUT_MS } from './redis/client.js';
import { DEFAULT_KEY_PREFIX, KeyLayout } from './redis/key-layout.js';
import { CLOCK_SYNC_INTERVAL_MS, RedisClock } from './redis/redis-clock.js';
import { decodeAdmitReply, parseAccount, parseUsageEntry, parseVoice, redactUrl, usageFields } from './redis/replies.js';
import {
  ACCOUNT_ID_PATTERN,
  AccountExistsError,
  AccountNotFoundError,
  RATE_WINDOW_MS,
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
import { KEY_HASH_PATTERN, admissionLeaseMs, assertCount, assertCustomVoice, assertKeyHash, assertPositive, assertSettlement, assertTimeRange } from './validation.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`; with `cluster`, one seed node of the cluster. */
  readonly url: string;
  /** Prefix of every key (default `raaga:`): several deployments, or test runs, can share one Redis. */
  readonly keyPrefix?: string;
  /** A command with no reply after this long fails (→ 503 store_unavailable). Default 500. */
  readonly commandTimeoutMs?: number;
  /** Initial connection (and each reconnect attempt) gives up after this long. Default 2000. */
  readonly connectTimeoutMs?: number;
  /** Connect with ioredis' Cluster client; the key layout already keeps every script on one slot. */
  readonly cluster?: boolean;
  /**
   * Tests only: a manual clock passed to the scripts instead of Redis `TIME`, so the contract suite can move time.
   * Production leaves it unset: instances with skewed clocks must still agree on one window.
   */
  readonly now?: () => number;
  /** Connection state changes, for logs (never carries secrets). */
  readonly onEvent?: (event: RedisStoreEvent) => void;
  /** Usage records older than this are trimmed from each account's stream. Default DEFAULT_USAGE_RETENTION_DAYS. */
  readonly usageRetentionMs?: number;
}

/** XRANGE page size for listUsage: bounded replies, however long the range. */
const USAGE_PAGE = 5_000;
/** Records per backfill script: each adds 12 commands per record, and a script holds Redis while it runs. */
const USAGE_BACKFILL_PAGE = 500;

export type RedisStoreEvent =
  | { readonly type: 'ready' }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'reconnecting' };

/** Reconnect quickly at first, then every second: recovery after an outage takes at most about a second. */

type Arg = string | number;
type ScriptFn = (...args: Arg[]) => Promise<unknown>;
type Commands = Redis & LexiconCommands & {
  raagaAdmit: ScriptFn;
  raagaRateStatus: ScriptFn;
  raagaRenewSlot: ScriptFn;
  raagaSettle: ScriptFn;
  raagaUsageReportWindow: ScriptFn;
  raagaUsageTotalsBackfill: ScriptFn;
  raagaCreateAccount: ScriptFn;
  raagaUpdateAccount: ScriptFn;
  raagaClaim: ScriptFn;
  raagaRevokeKey: ScriptFn;
  raagaPutVoice: ScriptFn;
  raagaCreateOutboundCall: ScriptFn;
  raagaRecordOutboundEvent: ScriptFn;
  raagaReserveDialSlot: ScriptFn;
  raagaClaimOutboundCallOfDay: ScriptFn;
  raagaAdvanceWebhookCursor: ScriptFn;
  raagaHoldKey: ScriptFn;
  raagaReleaseKey: ScriptFn;
};

const SCRIPTS: ReadonlyArray<readonly [keyof Commands & `raaga${string}`, string, number]> = [
  ['raagaAdmit', ADMIT_LUA, 5],
  ['raagaRateStatus', RATE_STATUS_LUA, 1],
  ['raagaRenewSlot', RENEW_SLOT_LUA, 1],
  ['raagaSettle', SETTLE_LUA, 5],
  ['raagaUsageReportWindow', USAGE_REPORT_WINDOW_LUA, 1],
  ['raagaUsageTotalsBackfill', USAGE_TOTALS_BACKFILL_LUA, 3],
  ['raagaCreateAccount', CREATE_ACCOUNT_LUA, 1],
  ['raagaUpdateAccount', UPDATE_ACCOUNT_LUA, 1],
  ['raagaClaim', CLAIM_LUA, 1],
  ['raagaRevokeKey', REVOKE_KEY_LUA, 1],
  ['raagaPutVoice', PUT_VOICE_LUA, 2],
  ['raagaCreateOutboundCall', CREATE_OUTBOUND_CALL_LUA, 4],
  ['raagaRecordOutboundEvent', RECORD_OUTBOUND_EVENT_LUA, 2],
  ['raagaReserveDialSlot', RESERVE_DIAL_SLOT_LUA, 1],
  ['raagaClaimOutboundCallOfDay', CLAIM_OUTBOUND_CALL_OF_DAY_LUA, 1],
  ['raagaAdvanceWebhookCursor', ADVANCE_WEBHOOK_CURSOR_LUA, 2],
  ['raagaHoldKey', HOLD_KEY_LUA, 1],
  ['raagaReleaseKey', RELEASE_KEY_LUA, 1],
  ...LEXICON_SCRIPTS,
];

function backlogMember(accountId: string, callId: string): string {
  return `${accountId} ${callId}`;
}

export class RedisStore implements Store {
  private readonly keys: KeyLayout;
  private readonly redis: Commands;
  private readonly now: (() => number) | undefined;
  private readonly usageRetentionMs: number;
  /** Turns "my command timeout" into a deadline in Redis time for the scripts that must not run late. */
  private readonly clock: RedisClock;
  private readonly clockTimer: NodeJS.Timeout;
  private readonly lexicons: RedisLexicons;
  private closed = false;

  private constructor(
    private readonly client: Redis | Cluster,
    options: RedisStoreOptions,
  ) {
    this.keys = new KeyLayout(options.keyPrefix ?? DEFAULT_KEY_PREFIX);
    this.now = options.now;
    this.usageRetentionMs = options.usageRetentionMs ?? DEFAULT_USAGE_RETENTION_DAYS * DAY_MS;
    assertPositive('usageRetentionMs', this.usageRetentionMs);
    // Redis and Cluster share the command API; scripts are routed by their first key on a Cluster.
    this.redis = client as unknown as Commands;
    this.lexicons = new RedisLexicons(this.redis);
    this.clock = new RedisClock(async () => (await this.redis.time()) as (string | number)[], options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
    for (const [name, lua, numberOfKeys] of SCRIPTS) client.defineCommand(name, { lua, numberOfKeys });
    client.on('ready', () => void this.syncClock());
    this.clockTimer = setInterval(() => void this.syncClock(), CLOCK_SYNC_INTERVAL_MS);
    this.clockTimer.unref();
  }

  /** Connects (waiting at most connectTimeoutMs) or throws a message naming the server, without its password. */
  static async connect(options: RedisStoreOptions): Promise<RedisStore> {
    const client = createRedisClient(options);
    const store = new RedisStore(client, options);
    try {
      await client.connect();
    } catch (error) {
      clearInterval(store.clockTimer);
      client.disconnect();
      throw new Error(`cannot reach Redis at ${redactUrl(options.url)}: ${(error as Error).message}`);
    }
    await store.syncClock();
    return store;
  }

  get keyPrefix(): string {
    return this.keys.prefix;
  }

  // ---- admission -------------------------------------------------------------------------------------

  async admit(request: AdmissionRequest): Promise<AdmissionResult> {
    this.assertOpen();
    const { limits, reservation } = request;
    const leaseMs = admissionLeaseMs(request);
    const k = this.accountKeys(request.accountId);
    const keys = [k.account, k.window, k.leases, k.reservations, k.reservedCredits];
    const args = [
      this.nowArg(),
      request.countRate ? 1 : 0,
      limits.requestsPerMinute,
      limits.concurrentRequests,
      randomUUID(), // the window entry's member: unique even when two admissions share a millisecond
      request.slotHolderId ?? '',
      leaseMs,
      reservation?.id ?? '',
      reservation?.credits ?? 0,
      reservation?.ttlMs ?? 1,
      RATE_WINDOW_MS,
    ];
    const reply = await this.beforeDeadline(
      async (deadline) => (await this.redis.raagaAdmit(...keys, ...args, deadline)) as number[],
      (r) => r[0] === ADMIT_RESULT.expired,
    );
    return decodeAdmitReply(reply, request);
  }

  async rateStatus(accountId: string, limits: PlanLimits): Promise<RateInfo> {
    this.assertOpen();
    const { requestsPerMinute } = limits;
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return { limit: requestsPerMinute, remaining: requestsPerMinute, resetAtMs: this.now?.() ?? Date.now() };
    const window = this.keys.forAccount(accountId).window;
    const [, count = 0, resetAtMs = 0] = (await this.redis.raagaRateStatus(window, this.nowArg(), RATE_WINDOW_MS)) as number[];
    return { limit: limits.requestsPerMinute, remaining: Math.max(0, limits.requestsPerMinute - count), resetAtMs };
  }

  async renewSlot(accountId: string, holderId: string, leaseMs: number): Promise<boolean> {
    this.assertOpen();
    assertPositive('leaseMs', leaseMs);
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return false;
    return (await this.redis.raagaRenewSlot(this.keys.forAccount(accountId).leases, this.nowArg(), holderId, leaseMs)) === 1;
  }

  async releaseSlot(accountId: string, holderId: string): Promise<void> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return;
    await this.redis.zrem(this.keys.forAccount(accountId).leases, holderId);
  }

  async settle(accountId: string, reservationId: string, usedCredits: number, usage: UsageDetails | null): Promise<number> {
    this.assertOpen();
    assertSettlement(usedCredits, usage);
    const k = this.accountKeys(accountId);
    const keys = [k.account, k.reservations, k.reservedCredits, k.usage, k.usageTotals];
    const record = usage ? ['1', this.usageRetentionMs, ...usageFields(usage)] : ['0', this.usageRetentionMs];
    const balance = await this.beforeDeadline(
      async (deadline) => Number(await this.redis.raagaSettle(...keys, this.nowArg(), reservationId, usedCredits, deadline, ...record)),
      (reply) => reply === SETTLE_EXPIRED,
    );
    if (balance === SETTLE_NO_ACCOUNT) throw new AccountNotFoundError(accountId);
    return balance;
  }

  async aggregateUsage(accountId: string, intervals: readonly TimeRange[], dimension: UsageDimension | null): Promise<readonly (readonly UsageAggregate[])[]> {
    this.assertOpen();
    assertUsageIntervals(intervals);
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return intervals.map(() => []);
    const k = this.keys.forAccount(accountId);
    return aggregateRedisUsage(this.redis, k.usageTotals, k.usage, intervals, dimension);
  }

  async listUsagePage(accountId: string, range: TimeRange, page: { readonly after?: string | undefined; readonly limit: number }): Promise<UsagePage> {
    this.assertOpen();
    assertTimeRange(range.fromMs, range.toMs);
    assertUsagePageLimit(page.limit);
    if (page.after !== undefined && !/^\d{1,16}-\d{1,16}$/.test(page.after)) throw new RangeError(`not a usage page cursor: ${JSON.stringify(page.after)}`);
    if (!ACCOUNT_ID_PATTERN.test(accountId) || range.fromMs === range.toMs) return { records: [], next: null };
    const start = page.after !== undefined && Number(page.after.split('-')[0]) >= range.fromMs ? `(${page.after}` : String(range.fromMs);
    const entries = (await this.redis.xrange(this.keys.forAccount(accountId).usage, start, String(range.toMs - 1), 'COUNT', page.limit + 1)) as [string, string[]][];
    const more = entries.length > page.limit;
    if (more) entries.length = page.limit;
    return { records: entries.map((entry) => parseUsageEntry(accountId, entry)), next: more ? (entries.at(-1)?.[0] ?? null) : null };
  }

  async admitUsageReport(accountId: string, limit: number): Promise<UsageReportAdmission> {
    this.assertOpen();
    const key = this.accountKeys(accountId).usageReportWindow;
    const [ok = 0, count = 0, resetAtMs = 0, retryAfterMs = 1] = (await this.redis.raagaUsageReportWindow(key, this.nowArg(), limit, RATE_WINDOW_MS, randomUUID())) as number[];
    const rate = { limit, remaining: Math.max(0, limit - count), resetAtMs };
    return ok === 1 ? { ok: true, rate } : { ok: false, rate, retryAfterMs };
  }

  /**
   * Adds the account's records written before usage totals existed (an upgraded Redis) to its totals, one page per
   * script, once: later calls return 0. Returns how many records were added. Run after every instance writes totals.
   */
  async backfillUsageTotals(accountId: string, pageSize = USAGE_BACKFILL_PAGE): Promise<number> {
    this.assertOpen();
    const k = this.accountKeys(accountId);
    let added = 0;
    for (;;) {
      const page = Number(await this.redis.raagaUsageTotalsBackfill(k.account, k.usage, k.usageTotals, this.nowArg(), this.usageRetentionMs, pageSize));
      if (page < 0) throw new AccountNotFoundError(accountId);
      added += page;
      if (page < pageSize) return added;
    }
  }

  async listUsage(accountId: string, range: TimeRange): Promise<readonly UsageRecord[]> {
    this.assertOpen();
    assertTimeRange(range.fromMs, range.toMs);
    if (!ACCOUNT_ID_PATTERN.test(accountId) || range.fromMs === range.toMs) return [];
    const key = this.keys.forAccount(accountId).usage;
    const records: UsageRecord[] = [];
    let start = String(range.fromMs);
    const end = String(range.toMs - 1);
    for (;;) {
      const page = (await this.redis.xrange(key, start, end, 'COUNT', USAGE_PAGE)) as [string, string[]][];
      for (const entry of page) records.push(parseUsageEntry(accountId, entry));
      const last = page.at(-1);
      if (page.length < USAGE_PAGE || !last) return records;
      start = `(${last[0]}`;
    }
  }

  // ---- accounts --------------------------------------------------------------------------------------

  async getAccount(accountId: string): Promise<Account | null> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return null;
    return parseAccount(await this.redis.hgetall(this.keys.forAccount(accountId).account));
  }

  async listAccounts(): Promise<readonly Account[]> {
    this.assertOpen();
    const ids = await this.redis.smembers(this.keys.accountIds);
    // One GET per account (not MGET): on a Cluster the records live on different slots.
    const accounts = await Promise.all(ids.map((id) => this.getAccount(id)));
    return accounts
      .filter((account): account is Account => account !== null)
      .sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id));
  }

  async createAccount(account: NewAccount): Promise<Account> {
    this.assertOpen();
    assertCount('credits', account.credits);
    if (account.id !== undefined && !ACCOUNT_ID_PATTERN.test(account.id)) {
      throw new Error(`invalid account id ${JSON.stringify(account.id)}: use letters, digits, _ or -`);
    }
    if (account.createdAtMs !== undefined) assertCount('createdAtMs', account.createdAtMs);
    const createdAt = account.createdAtMs === undefined ? this.nowArg() : String(account.createdAtMs);
    for (;;) {
      const id = account.id ?? randomId('acct_');
      // Registered first: a crash between the two steps leaves an id that listAccounts skips, never a hidden account.
      await this.redis.sadd(this.keys.accountIds, id);
      const createdAtMs = Number(
        await this.redis.raagaCreateAccount(this.keys.forAccount(id).account, createdAt, id, account.plan, account.credits),
      );
      if (createdAtMs >= 0) return { id, plan: account.plan, credits: account.credits, createdAtMs };
      if (account.id !== undefined) throw new AccountExistsError(id);
    }
  }

  async setPlan(accountId: string, plan: Plan): Promise<Account> {
    return this.updateAccount(accountId, 'plan', plan);
  }

  async addCredits(accountId: string, credits: number): Promise<Account> {
    assertCount('credits', credits);
    return this.updateAccount(accountId, 'credits', credits);
  }

  // ---- keys ------------------------------------------------------------------------------------------

  async addKeyHash(accountId: string, keyHash: string): Promise<void> {
    this.assertOpen();
    assertKeyHash(keyHash);
    await this.requireAccount(accountId);
    const { keyHashes } = this.keys.forAccount(accountId);
    // Indexed before claiming: a stray index entry (crash, or a key owned elsewhere) is filtered out on listing.
    await this.redis.sadd(keyHashes, keyHash);
    const owned = await this.redis.raagaClaim(this.keys.keyHash(keyHash), accountId, 'revoked', '0');
    if (owned !== 1) {
      await this.redis.srem(keyHashes, keyHash);
      throw new Error('this key already belongs to another account');
    }
  }

  async revokeKeyHash(keyHash: string): Promise<boolean> {
    this.assertOpen();
    if (!KEY_HASH_PATTERN.test(keyHash)) return false;
    return (await this.redis.raagaRevokeKey(this.keys.keyHash(keyHash))) === 1;
  }

  async findAccountByKeyHash(keyHash: string): Promise<Account | null> {
    const record = await this.getKeyHashRecord(keyHash);
    if (!record || record.revoked) return null;
    return this.getAccount(record.accountId);
  }

  async listKeyHashes(accountId: string): Promise<readonly string[]> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return [];
    const hashes = await this.redis.smembers(this.keys.forAccount(accountId).keyHashes);
    const records = await Promise.all(hashes.map((hash) => this.getKeyHashRecord(hash)));
    return hashes.filter((_, i) => records[i]?.accountId === accountId && !records[i]?.revoked).sort();
  }

  async listKeyHashRecords(accountId: string): Promise<readonly { hash: string; revoked: boolean }[]> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return [];
    const hashes = (await this.redis.smembers(this.keys.forAccount(accountId).keyHashes)).sort();
    const records = await Promise.all(hashes.map((hash) => this.getKeyHashRecord(hash)));
    return hashes.flatMap((hash, i) => {
      const record = records[i];
      return record?.accountId === accountId ? [{ hash, revoked: record.revoked }] : [];
    });
  }

  async getKeyHashRecord(keyHash: string): Promise<KeyHashRecord | null> {
    this.assertOpen();
    if (!KEY_HASH_PATTERN.test(keyHash)) return null;
    const [accountId, revoked] = await this.redis.hmget(this.keys.keyHash(keyHash), 'accountId', 'revoked');
    return accountId ? { accountId, revoked: revoked === '1' } : null;
  }

  // ---- custom voices ---------------------------------------------------------------------------------

  async putCustomVoice(voice: CustomVoice): Promise<void> {
    this.assertOpen();
    assertCustomVoice(voice);
    await this.requireAccount(voice.accountId);
    if ((await this.redis.raagaClaim(this.keys.voiceOwner(voice.id), voice.accountId)) !== 1) {
      throw new Error(`voice ${voice.id} belongs to another account`);
    }
    const k = this.keys.forAccount(voice.accountId);
    const stored = await this.redis.raagaPutVoice(k.account, k.voices, voice.id, JSON.stringify(voice));
    if (stored !== 1) throw new AccountNotFoundError(voice.accountId);
  }

  async getCustomVoice(voiceId: string): Promise<CustomVoice | null> {
    this.assertOpen();
    const accountId = await this.redis.hget(this.keys.voiceOwner(voiceId), 'accountId');
    if (!accountId || !ACCOUNT_ID_PATTERN.test(accountId)) return null;
    const json = await this.redis.hget(this.keys.forAccount(accountId).voices, voiceId);
    return json ? parseVoice(json) : null;
  }

  async listCustomVoices(accountId: string): Promise<readonly CustomVoice[]> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return [];
    const values = await this.redis.hvals(this.keys.forAccount(accountId).voices);
    return values.map(parseVoice).sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id));
  }

  // ---- lexicons --------------------------------------------------------------------------------------

  async putLexicon(accountId: string, name: string, entries: readonly LexiconEntry[], options: { readonly updatedAtMs?: number } = {}): Promise<LexiconSummary> {
    this.assertOpen();
    assertLexiconName(name);
    assertLexiconEntries(entries);
    return this.lexicons.put(this.accountKeys(accountId), accountId, name, entries, options.updatedAtMs ?? this.nowMs());
  }

  async editLexicon(accountId: string, name: string, edit: LexiconEdit): Promise<LexiconSummary> {
    this.assertOpen();
    assertLexiconName(name);
    assertLexiconEdit(edit);
    return this.lexicons.edit(this.accountKeys(accountId), accountId, name, edit, this.nowMs());
  }

  async getLexicon(accountId: string, name: string): Promise<StoredLexicon | null> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId) || !LEXICON_NAME_PATTERN.test(name)) return null;
    return this.lexicons.get(this.keys.forAccount(accountId), name);
  }

  async listLexicons(accountId: string): Promise<readonly LexiconSummary[]> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return [];
    return this.lexicons.list(this.keys.forAccount(accountId));
  }

  async deleteLexicon(accountId: string, name: string): Promise<boolean> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId) || !LEXICON_NAME_PATTERN.test(name)) return false;
    return this.lexicons.delete(this.keys.forAccount(accountId), name);
  }

  async lexiconVersion(accountId: string): Promise<number> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return 0;
    return this.lexicons.version(this.keys.forAccount(accountId));
  }

  // ---- telephony settings ----------------------------------------------------------------------------

  async putTelephonySettings(settings: TelephonySettings): Promise<void> {
    this.assertOpen();
    assertStoredTelephonySettings(settings);
    await this.requireAccount(settings.accountId);
    await this.redis.set(this.keys.forAccount(settings.accountId).telephony, JSON.stringify(settings));
  }

  async getTelephonySettings(accountId: string): Promise<TelephonySettings | null> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return null;
    const json = await this.redis.get(this.keys.forAccount(accountId).telephony);
    return json ? parseTelephonySettings(json) : null;
  }

  // ---- outbound calls --------------------------------------------------------------------------------

  async createOutboundCall(call: OutboundCall): Promise<{ readonly created: boolean; readonly state: OutboundCallState }> {
    this.assertOpen();
    const { accountId } = call;
    const keyName = this.keys.idempotencyKey(accountId, createHash('sha256').update(call.idempotencyKey ?? '').digest('hex'));
    const queued: OutboundCallEvent = { status: 'queued', atMs: call.createdAtMs, sequence: 1 };
    const reply = (await this.redis.raagaCreateOutboundCall(
      this.accountKeys(accountId).account,
      keyName,
      this.keys.outboundCall(accountId, call.id),
      this.keys.outboundEvents(accountId, call.id),
      call.idempotencyKey === undefined ? 0 : 1,
      call.id,
      JSON.stringify(call),
      `1|${JSON.stringify(queued)}`,
      OUTBOUND_CALL_RETENTION_MS,
    )) as [number, string?];
    if (reply[0] === 0) throw new AccountNotFoundError(accountId);
    if (reply[0] === 2) {
      const existing = await this.getOutboundCall(accountId, reply[1] ?? '');
      if (existing) return { created: false, state: existing };
      throw new Error(`outbound call ${reply[1] ?? '?'} of idempotency key expired while read; retry`);
    }
    if (call.statusWebhook !== undefined) await this.redis.zadd(this.keys.webhookBacklog, this.nowMs(), backlogMember(accountId, call.id));
    return { created: true, state: { call, events: [queued], webhookDeliveredThrough: 0 } };
  }

  async getOutboundCall(accountId: string, callId: string): Promise<OutboundCallState | null> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) return null;
    const [json, events, cursor] = await Promise.all([
      this.redis.get(this.keys.outboundCall(accountId, callId)),
      this.redis.hvals(this.keys.outboundEvents(accountId, callId)),
      this.redis.get(this.keys.webhookCursor(accountId, callId)),
    ]);
    if (json === null) return null;
    const parsed = events.map((value) => {
      const bar = value.indexOf('|');
      return { ...(JSON.parse(value.slice(bar + 1)) as OutboundCallEvent), sequence: Number(value.slice(0, bar)) };
    });
    return { call: JSON.parse(json) as OutboundCall, events: parsed.sort((a, b) => a.sequence - b.sequence), webhookDeliveredThrough: Number(cursor ?? 0) };
  }

  async recordOutboundCallEvent(accountId: string, callId: string, event: NewOutboundCallEvent): Promise<OutboundCallEvent | null> {
    this.assertOpen();
    const [sequence = 0, hooked = 0] = (await this.redis.raagaRecordOutboundEvent(
      this.keys.outboundCall(accountId, callId),
      this.keys.outboundEvents(accountId, callId),
      event.status,
      JSON.stringify(event),
    )) as number[];
    if (sequence === 0) return null;
    // Another slot than the account's: a separate command. Written after the event, so a crash in between leaves an
    // event the backlog does not know (its webhook then relies on the recording instance alone).
    if (hooked === 1) await this.redis.zadd(this.keys.webhookBacklog, this.nowMs(), backlogMember(accountId, callId));
    return { ...event, sequence };
  }

  async reserveDialSlot(accountId: string, provider: string, intervalMs: number, maxWaitMs: number): Promise<number | null> {
    this.assertOpen();
    const wait = Number(await this.redis.raagaReserveDialSlot(this.keys.dialSlot(accountId, provider), this.nowArg(), intervalMs, maxWaitMs));
    return wait < 0 ? null : wait;
  }

  async claimOutboundCallOfDay(accountId: string, maxPerDay: number): Promise<number | null> {
    this.assertOpen();
    const calls = Number(await this.redis.raagaClaimOutboundCallOfDay(this.keys.outboundCallsOfDay(accountId), this.nowArg(), maxPerDay));
    return calls < 0 ? null : calls;
  }

  async holdKey(namespace: HeldKeyNamespace, key: string, owner: string, ttlMs: number): Promise<string> {
    this.assertOpen();
    return String(await this.redis.raagaHoldKey(this.keys.heldKey(namespace, key), owner, Math.max(1, Math.round(ttlMs)), this.nowArg()));
  }

  async releaseKey(namespace: HeldKeyNamespace, key: string, owner: string): Promise<void> {
    this.assertOpen();
    await this.redis.raagaReleaseKey(this.keys.heldKey(namespace, key), owner);
  }

  async advanceWebhookCursor(accountId: string, callId: string, sequence: number): Promise<void> {
    this.assertOpen();
    const [cursor = 0, recorded = 0] = (await this.redis.raagaAdvanceWebhookCursor(
      this.keys.outboundEvents(accountId, callId),
      this.keys.webhookCursor(accountId, callId),
      sequence,
      OUTBOUND_CALL_RETENTION_MS,
    )) as number[];
    if (cursor >= recorded) await this.redis.zrem(this.keys.webhookBacklog, backlogMember(accountId, callId));
  }

  async webhookBacklog(recordedBeforeMs: number, limit: number): Promise<readonly WebhookBacklogEntry[]> {
    this.assertOpen();
    const members = await this.redis.zrangebyscore(this.keys.webhookBacklog, '-inf', recordedBeforeMs, 'LIMIT', 0, limit);
    const entries: WebhookBacklogEntry[] = [];
    for (const member of members) {
      const [accountId = '', callId = ''] = member.split(' ');
      const [cursor, recorded] = await Promise.all([this.redis.get(this.keys.webhookCursor(accountId, callId)), this.redis.hlen(this.keys.outboundEvents(accountId, callId))]);
      // Delivered meanwhile, or expired with its call: nothing owed.
      if (recorded === 0 || Number(cursor ?? 0) >= recorded) await this.redis.zrem(this.keys.webhookBacklog, member);
      else entries.push({ accountId, callId });
    }
    return entries;
  }

  // ---- lifecycle -------------------------------------------------------------------------------------

  /** Throws unless Redis answers within the command timeout; fails at once while disconnected. */
  async ping(): Promise<void> {
    this.assertOpen();
    await this.redis.ping();
  }

  /** Every write was acknowledged before its call resolved, so there is nothing to flush: just disconnect. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.clockTimer);
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  // ---- internals -------------------------------------------------------------------------------------

  private async updateAccount(accountId: string, field: 'plan' | 'credits', value: Arg): Promise<Account> {
    this.assertOpen();
    if (!ACCOUNT_ID_PATTERN.test(accountId)) throw new AccountNotFoundError(accountId);
    const key = this.keys.forAccount(accountId).account;
    const flat = await this.beforeDeadline(
      async (deadline) => (await this.redis.raagaUpdateAccount(key, field, value, deadline)) as string[],
      (reply) => reply[0] === 'expired',
    );
    const account = parseAccount(flat);
    if (!account) throw new AccountNotFoundError(accountId);
    return account;
  }

  private async requireAccount(accountId: string): Promise<void> {
    if (!(await this.getAccount(accountId))) throw new AccountNotFoundError(accountId);
  }

  /** Keys of an account that must exist; an id no account can have is simply not found. */
  private accountKeys(accountId: string) {
    if (!ACCOUNT_ID_PATTERN.test(accountId)) throw new AccountNotFoundError(accountId);
    return this.keys.forAccount(accountId);
  }

  /**
   * Runs a script with a deadline in Redis time (now + command timeout − guard). A late script does nothing, which
   * is what the caller, having timed out, already reported. An "expired" reply that still arrived in time can only
   * mean the clock estimate is off: resync, and run once more without a deadline (nothing was done the first time).
   */
  private async beforeDeadline<T>(run: (deadline: string) => Promise<T>, expired: (reply: T) => boolean): Promise<T> {
    const reply = await run(this.deadlineArg());
    if (!expired(reply)) return reply;
    void this.syncClock();
    return run('');
  }

  private deadlineArg(): string {
    return this.clock.deadline();
  }

  private async syncClock(): Promise<void> {
    if (!this.closed) await this.clock.sync();
  }

  private nowMs(): number {
    return this.now?.() ?? Date.now();
  }

  private nowArg(): string {
    return this.now ? String(Math.floor(this.now())) : '';
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('store is closed');
  }
}
