// The embedded store as it was before SQLite (commit 5082ca4), kept frozen as bench/admission.ts's baseline: state in
// memory, made durable by rewriting `<dataDir>/store.json` whole (group commit, fsync) before each mutation resolves.
// It keeps no usage ledger. Not used by the server.

import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AdmissionBook } from '../../src/store/admission-state.js';
import { GroupCommit } from './group-commit.js';
import { randomId } from '../../src/store/random-id.js';
import { readSnapshot, type StoreSnapshot } from '../../src/store/store-snapshot.js';
import { assertCount, assertCustomVoice, assertKeyHash } from '../../src/store/validation.js';
import {
  ACCOUNT_ID_PATTERN,
  AccountExistsError,
  AccountNotFoundError,
  type Account,
  type AdmissionRequest,
  type AdmissionResult,
  type CustomVoice,
  type KeyHashRecord,
  type NewAccount,
  type Plan,
  type PlanLimits,
  type RateInfo,
  type Store,
  type TelephonySettings,
  type UsageDetails,
  type UsageAggregate,
  type UsagePage,
  type UsageRecord,
  type UsageReportAdmission,
} from '../../src/store/store.js';
import { assertStoredTelephonySettings } from '../../src/store/telephony-settings.js';
import type { NewOutboundCallEvent, OutboundCall, OutboundCallEvent, OutboundCallState, WebhookBacklogEntry } from '../../src/store/outbound-call.js';

export interface JsonFileStoreOptions {
  /** Injected clock (epoch ms) so tests move time instead of sleeping. */
  readonly now?: () => number;
  /** When set, durable state is loaded from and saved to `<dataDir>/store.json`. */
  readonly dataDir?: string;
}

export const STORE_FILE_NAME = 'store.json';

interface AccountRecord {
  readonly id: string;
  plan: Plan;
  credits: number;
  readonly createdAtMs: number;
}

interface KeyRecord {
  readonly accountId: string;
  revoked: boolean;
}

export class JsonFileStore implements Store {
  private readonly now: () => number;
  private readonly filePath: string | undefined;
  private readonly commits: GroupCommit | undefined;
  private readonly accounts = new Map<string, AccountRecord>();
  private readonly keys = new Map<string, KeyRecord>();
  private readonly voices = new Map<string, CustomVoice>();
  private readonly telephony = new Map<string, TelephonySettings>();
  private readonly admission = new AdmissionBook();
  private closed = false;

  /**
   * Loads `<dataDir>/store.json` synchronously when it exists (throws StoreFileError when it is corrupt).
   * Prefer `JsonFileStore.open`, which also creates the directory.
   *
   * With the embedded store each process holds its own copy: run the CLI while the server is stopped, or
   * restart the server to see CLI changes (and a server running alongside would overwrite them on its next
   * write). RedisStore removes that limit.
   */
  constructor(options: JsonFileStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    if (options.dataDir !== undefined) {
      const filePath = join(options.dataDir, STORE_FILE_NAME);
      this.filePath = filePath;
      this.commits = new GroupCommit(() => writeSnapshot(filePath, this.snapshot()));
      const snapshot = readSnapshot(filePath);
      if (snapshot) this.load(snapshot);
    }
  }

  static async open(options: JsonFileStoreOptions = {}): Promise<JsonFileStore> {
    if (options.dataDir !== undefined) await mkdir(options.dataDir, { recursive: true });
    return new JsonFileStore(options);
  }

  /** The file backing this store, if any (for startup logs). */
  get path(): string | undefined {
    return this.filePath;
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

  /** The usage record is dropped: this store predates the ledger. */
  async settle(accountId: string, reservationId: string, usedCredits: number, _usage: UsageDetails | null): Promise<number> {
    this.assertOpen();
    assertCount('usedCredits', usedCredits);
    const account = this.requireAccount(accountId);
    const state = this.admission.stateOf(accountId, this.now());
    const reservation = state.reservations.get(reservationId);
    if (!reservation) return account.credits;
    state.reservations.delete(reservationId);
    // Clamped twice: never more than reserved, and never below zero whatever happened in between.
    const debit = Math.min(usedCredits, reservation.credits, account.credits);
    if (debit === 0) return account.credits;
    account.credits -= debit;
    const balance = account.credits;
    await this.persist();
    return balance;
  }

  // ---- accounts --------------------------------------------------------------------------------------

  async getAccount(accountId: string): Promise<Account | null> {
    this.assertOpen();
    const account = this.accounts.get(accountId);
    return account ? { ...account } : null;
  }

  async listAccounts(): Promise<readonly Account[]> {
    this.assertOpen();
    return [...this.accounts.values()]
      .map((account) => ({ ...account }))
      .sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id));
  }

  async createAccount(account: NewAccount): Promise<Account> {
    this.assertOpen();
    assertCount('credits', account.credits);
    const id = account.id ?? this.freshAccountId();
    if (!ACCOUNT_ID_PATTERN.test(id)) throw new Error(`invalid account id ${JSON.stringify(id)}: use letters, digits, _ or -`);
    if (this.accounts.has(id)) throw new AccountExistsError(id);
    const record: AccountRecord = { id, plan: account.plan, credits: account.credits, createdAtMs: this.now() };
    this.accounts.set(id, record);
    await this.persist();
    return { ...record };
  }

  async setPlan(accountId: string, plan: Plan): Promise<Account> {
    this.assertOpen();
    const account = this.requireAccount(accountId);
    account.plan = plan;
    const result = { ...account };
    await this.persist();
    return result;
  }

  async addCredits(accountId: string, credits: number): Promise<Account> {
    this.assertOpen();
    assertCount('credits', credits);
    const account = this.requireAccount(accountId);
    account.credits += credits;
    const result = { ...account };
    await this.persist();
    return result;
  }

  // ---- keys ------------------------------------------------------------------------------------------

  async addKeyHash(accountId: string, keyHash: string): Promise<void> {
    this.assertOpen();
    assertKeyHash(keyHash);
    this.requireAccount(accountId);
    const existing = this.keys.get(keyHash);
    if (existing && existing.accountId !== accountId) throw new Error('this key already belongs to another account');
    // Re-adding a known hash changes nothing: in particular a revoked key stays revoked.
    if (!existing) this.keys.set(keyHash, { accountId, revoked: false });
    await this.persist();
  }

  async revokeKeyHash(keyHash: string): Promise<boolean> {
    this.assertOpen();
    const record = this.keys.get(keyHash);
    if (!record) return false;
    record.revoked = true;
    await this.persist();
    return true;
  }

  async findAccountByKeyHash(keyHash: string): Promise<Account | null> {
    this.assertOpen();
    const record = this.keys.get(keyHash);
    if (!record || record.revoked) return null;
    return this.getAccount(record.accountId);
  }

  async listKeyHashes(accountId: string): Promise<readonly string[]> {
    this.assertOpen();
    return [...this.keys].filter(([, r]) => r.accountId === accountId && !r.revoked).map(([hash]) => hash);
  }

  async listKeyHashRecords(accountId: string): Promise<readonly { hash: string; revoked: boolean }[]> {
    return [...this.keys].filter(([, r]) => r.accountId === accountId).map(([hash, r]) => ({ hash, revoked: r.revoked }));
  }

  async listUsage(): Promise<readonly UsageRecord[]> {
    return [];
  }

  async aggregateUsage(_accountId: string, intervals: readonly unknown[]): Promise<readonly (readonly UsageAggregate[])[]> {
    return intervals.map(() => []);
  }

  async listUsagePage(): Promise<UsagePage> {
    return { records: [], next: null };
  }

  async admitUsageReport(_accountId: string, limit: number): Promise<UsageReportAdmission> {
    return { ok: true, rate: { limit, remaining: limit, resetAtMs: Date.now() } };
  }

  async getKeyHashRecord(keyHash: string): Promise<KeyHashRecord | null> {
    this.assertOpen();
    const record = this.keys.get(keyHash);
    return record ? { ...record } : null;
  }

  // ---- custom voices ---------------------------------------------------------------------------------

  async putCustomVoice(voice: CustomVoice): Promise<void> {
    this.assertOpen();
    assertCustomVoice(voice);
    this.requireAccount(voice.accountId);
    const existing = this.voices.get(voice.id);
    if (existing && existing.accountId !== voice.accountId) throw new Error(`voice ${voice.id} belongs to another account`);
    this.voices.set(voice.id, { ...voice });
    await this.persist();
  }

  async getCustomVoice(voiceId: string): Promise<CustomVoice | null> {
    this.assertOpen();
    const voice = this.voices.get(voiceId);
    return voice ? { ...voice } : null;
  }

  async listCustomVoices(accountId: string): Promise<readonly CustomVoice[]> {
    this.assertOpen();
    return [...this.voices.values()]
      .filter((voice) => voice.accountId === accountId)
      .map((voice) => ({ ...voice }))
      .sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id));
  }

  // ---- telephony settings ----------------------------------------------------------------------------

  async putTelephonySettings(settings: TelephonySettings): Promise<void> {
    this.assertOpen();
    assertStoredTelephonySettings(settings);
    this.requireAccount(settings.accountId);
    this.telephony.set(settings.accountId, structuredClone(settings));
    await this.persist();
  }

  async getTelephonySettings(accountId: string): Promise<TelephonySettings | null> {
    this.assertOpen();
    const settings = this.telephony.get(accountId);
    return settings ? structuredClone(settings) : null;
  }

  // ---- lexicons: none (the baseline predates them; the admission bench does not use them) ----

  async putLexicon(): Promise<never> {
    throw new Error('the baseline store keeps no lexicons');
  }

  async editLexicon(): Promise<never> {
    throw new Error('the baseline store keeps no lexicons');
  }

  async getLexicon(): Promise<null> {
    return null;
  }

  async listLexicons(): Promise<readonly never[]> {
    return [];
  }

  async deleteLexicon(): Promise<boolean> {
    return false;
  }

  async lexiconVersion(): Promise<number> {
    return 0;
  }

  // ---- outbound calls: in memory only (the baseline predates them; the admission bench does not use them) ----

  private readonly outbound = new Map<string, { call: OutboundCall; events: OutboundCallEvent[]; webhookDeliveredThrough: number }>();
  private readonly dialSlots = new Map<string, number>();
  private readonly callsOfDay = new Map<string, { day: number; calls: number }>();

  async createOutboundCall(call: OutboundCall): Promise<{ readonly created: boolean; readonly state: OutboundCallState }> {
    this.assertOpen();
    if (!this.accounts.has(call.accountId)) throw new AccountNotFoundError(call.accountId);
    const existing = [...this.outbound.values()].find((o) => o.call.accountId === call.accountId && call.idempotencyKey !== undefined && o.call.idempotencyKey === call.idempotencyKey);
    if (existing) return { created: false, state: structuredClone(existing) };
    const state = { call, events: [{ status: 'queued' as const, atMs: call.createdAtMs, sequence: 1 }], webhookDeliveredThrough: 0 };
    this.outbound.set(call.id, state);
    return { created: true, state: structuredClone(state) };
  }

  async getOutboundCall(accountId: string, callId: string): Promise<OutboundCallState | null> {
    const state = this.outbound.get(callId);
    return state && state.call.accountId === accountId ? structuredClone(state) : null;
  }

  async recordOutboundCallEvent(accountId: string, callId: string, event: NewOutboundCallEvent): Promise<OutboundCallEvent | null> {
    const state = this.outbound.get(callId);
    if (!state || state.call.accountId !== accountId || state.events.some((e) => e.status === event.status)) return null;
    const recorded = { ...event, sequence: state.events.length + 1 };
    state.events.push(recorded);
    return recorded;
  }

  async reserveDialSlot(accountId: string, provider: string, intervalMs: number, maxWaitMs: number): Promise<number | null> {
    const now = this.now();
    const key = `${accountId}/${provider}`;
    const slot = Math.max(now, this.dialSlots.get(key) ?? 0);
    if (slot - now > maxWaitMs) return null;
    this.dialSlots.set(key, slot + intervalMs);
    return slot - now;
  }

  /** Not in the frozen baseline (it came later): in memory only, enough to satisfy the Store interface. */
  async claimOutboundCallOfDay(accountId: string, maxPerDay: number): Promise<number | null> {
    const day = Math.floor(this.now() / 86_400_000);
    const held = this.callsOfDay.get(accountId);
    const calls = held?.day === day ? held.calls : 0;
    if (calls >= maxPerDay) return null;
    this.callsOfDay.set(accountId, { day, calls: calls + 1 });
    return calls + 1;
  }

  async advanceWebhookCursor(accountId: string, callId: string, sequence: number): Promise<void> {
    const state = this.outbound.get(callId);
    if (state && state.call.accountId === accountId) state.webhookDeliveredThrough = Math.max(state.webhookDeliveredThrough, sequence);
  }

  async holdKey(_namespace: string, _key: string, owner: string): Promise<string> {
    return owner; // the bench admits and settles only; nothing here is held
  }

  async releaseKey(): Promise<void> {}

  async webhookBacklog(): Promise<readonly WebhookBacklogEntry[]> {
    return [...this.outbound.values()]
      .filter((o) => o.call.statusWebhook !== undefined && o.webhookDeliveredThrough < o.events.length)
      .map((o) => ({ accountId: o.call.accountId, callId: o.call.id }));
  }

  // ---- lifecycle -------------------------------------------------------------------------------------

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.commits?.flush();
    this.closed = true;
  }

  // ---- internals -------------------------------------------------------------------------------------

  /**
   * Resolves once a file write that includes every mutation made so far has completed. If that write fails
   * the mutation's promise rejects, but the in-memory change stays and rides along with the next write.
   */
  private persist(): Promise<void> {
    return this.commits ? this.commits.commit() : Promise.resolve();
  }

  /** Built synchronously from fresh objects: GroupCommit relies on the state being captured at call time. */
  private snapshot(): StoreSnapshot {
    return {
      version: 1,
      accounts: [...this.accounts.values()].map((a) => ({ id: a.id, plan: a.plan, credits: a.credits, createdAtMs: a.createdAtMs })),
      keys: [...this.keys].map(([hash, r]) => ({ hash, accountId: r.accountId, revoked: r.revoked })),
      voices: [...this.voices.values()].map((v) => ({ ...v })),
      ...(this.telephony.size > 0 ? { telephony: [...this.telephony.values()].map((t) => structuredClone(t)) } : {}),
    };
  }

  private load(snapshot: StoreSnapshot): void {
    for (const a of snapshot.accounts) this.accounts.set(a.id, { ...a });
    for (const k of snapshot.keys) this.keys.set(k.hash, { accountId: k.accountId, revoked: k.revoked });
    for (const v of snapshot.voices) this.voices.set(v.id, { ...v });
    for (const t of snapshot.telephony ?? []) this.telephony.set(t.accountId, t as TelephonySettings);
  }

  private requireAccount(accountId: string): AccountRecord {
    const account = this.accounts.get(accountId);
    if (!account) throw new AccountNotFoundError(accountId);
    return account;
  }

  private freshAccountId(): string {
    for (;;) {
      const id = randomId('acct_');
      if (!this.accounts.has(id)) return id;
    }
  }


  private assertOpen(): void {
    if (this.closed) throw new Error('store is closed');
  }
}

let tempCounter = 0;

/** Replaces `path` atomically and durably: after this resolves, a crash leaves either the old or the new file. */
async function writeSnapshot(path: string, snapshot: StoreSnapshot): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = `${path}.${process.pid}.${tempCounter++}.tmp`;
  const data = JSON.stringify(snapshot);
  try {
    // 0o600: the file holds key hashes; nobody else on the machine needs to read them.
    const file = await open(temp, 'w', 0o600);
    try {
      await file.writeFile(data, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // The rename is only durable once the directory entry is flushed.
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}
