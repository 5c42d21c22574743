// The Store contract suite: every Store implementation (SqliteStore, RedisStore) runs these same tests by
// passing a factory that returns a fresh, empty store driven by a manual clock (RedisStore hands it to its scripts).

import { afterEach, describe, expect, it } from 'vitest';
import {
  AccountExistsError,
  AccountNotFoundError,
  PLAN_LIMITS,
  USAGE_ENDPOINTS,
  type AdmissionRequest,
  type AdmissionResult,
  type Plan,
  type Store,
  type TelephonySettings,
  type UsageDetails,
} from '../../src/store/store.js';
import { summarizeOutboundCall, type OutboundCall } from '../../src/store/outbound-call.js';
import { runLexiconContract } from './lexicon-contract.js';
import { runUsageContract } from './usage-contract.js';

export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function manualClock(startMs = 1_700_000_000_000): TestClock {
  let t = startMs;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

export interface StoreUnderTest {
  readonly store: Store;
  readonly clock: TestClock;
  /** Extra teardown after `store.close()` (e.g. flush a Redis db). */
  readonly cleanup?: () => Promise<void>;
}

/** Every usage record, whenever it was written: tests read the whole ledger, never a window of the wall clock. */
export const ALL_TIME = { fromMs: 0, toMs: Number.MAX_SAFE_INTEGER } as const;

/** A usage record for settlements whose record the test does not look at. */
export const TEST_USAGE: UsageDetails = {
  keyId: 'sha256:0123456789ab',
  endpoint: 'generate',
  voice: 'ananya',
  language: 'hi-IN',
  engine: 'embedded',
  audioSeconds: 1.5,
  outcome: 'completed',
};

const hash = (n: number) => n.toString(16).padStart(64, '0');

/**
 * Telephony settings as stores wrote them before the credentials map (every provider's fields at the top level), and
 * the same record as it must read back now: each store's migration-on-read test writes the first raw and expects the second.
 */
export const OLD_SHAPED_TELEPHONY = {
  accountId: 'acct_old',
  twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed',
  twilioAccountSid: 'AC' + 'a'.repeat(32),
  exotelCredentials: 'exo-user:exo-secret-123',
  plivoAuthId: 'MAXXXXXXXXXXXXXXXXXX',
  plivoAuthToken: 'plivo-token-0123456789',
  plivoApiBaseUrl: 'https://api.vobiz.example/plivo',
  asteriskCredentials: 'asterisk:ast-secret-99',
  smartfloToken: 'sf_0123456789abcdefghijklmn',
  webhookSecret: 'whsec-0123456789abcdef',
  callingHours: '09:00-21:00',
  allowUnsigned: false,
  defaults: { voice: 'meera' },
  updatedAtMs: 1_700_000_000_000,
} as const;

export const OLD_SHAPED_TELEPHONY_READ_BACK: TelephonySettings = {
  accountId: 'acct_old',
  credentials: {
    twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed',
    twilioAccountSid: 'AC' + 'a'.repeat(32),
    exotelCredentials: 'exo-user:exo-secret-123',
    plivoAuthId: 'MAXXXXXXXXXXXXXXXXXX',
    plivoAuthToken: 'plivo-token-0123456789',
    plivoApiBaseUrl: 'https://api.vobiz.example/plivo',
    asteriskCredentials: 'asterisk:ast-secret-99',
    smartfloToken: 'sf_0123456789abcdefghijklmn',
  },
  webhookSecret: 'whsec-0123456789abcdef',
  callingHours: '09:00-21:00',
  allowUnsigned: false,
  defaults: { voice: 'meera' },
  updatedAtMs: 1_700_000_000_000,
};

export function runStoreContract(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`Store contract: ${name}`, () => {
    let current: StoreUnderTest | undefined;
    afterEach(async () => {
      await current?.store.close();
      await current?.cleanup?.();
      current = undefined;
    });

    async function setup(plan: Plan = 'free', credits = 1_000_000) {
      current = await makeStore();
      const { store, clock } = current;
      const account = await store.createAccount({ plan, credits });
      const limits = PLAN_LIMITS[plan];
      const admit = (extra: Partial<AdmissionRequest> = {}): Promise<AdmissionResult> =>
        store.admit({ accountId: account.id, limits, countRate: true, ...extra });
      return { store, clock, account, limits, admit };
    }

    describe('rate window', () => {
      it('refuses the 16th counted request of a free account in a minute with exact retryAfterMs', async () => {
        const { clock, admit } = await setup('free');
        const t0 = clock.now();
        for (let i = 0; i < 15; i++) {
          const result = await admit();
          expect(result).toEqual({ ok: true, rate: { limit: 15, remaining: 14 - i, resetAtMs: t0 + 60_000 } });
          clock.advance(1000);
        }
        // now = t0 + 15 s; the oldest entry (t0) leaves at t0 + 60 s.
        const refused = await admit();
        expect(refused).toEqual({
          ok: false,
          reason: 'rate_limited',
          rate: { limit: 15, remaining: 0, resetAtMs: t0 + 60_000 },
          retryAfterMs: 45_000,
        });
      });

      it('slides: entries leave exactly 60 s after they were admitted', async () => {
        const { store, clock, account, limits, admit } = await setup('free');
        const t0 = clock.now();
        for (let i = 0; i < 15; i++) {
          expect((await admit()).ok).toBe(true);
          clock.advance(1000);
        }
        clock.advance(60_000 - 15_000 - 1); // t0 + 59 999: t0 still in the window
        const almost = await admit();
        expect(almost.ok).toBe(false);
        if (!almost.ok && almost.reason === 'rate_limited') expect(almost.retryAfterMs).toBe(1);

        clock.advance(1); // t0 + 60 000: t0 has left
        const again = await admit();
        expect(again).toEqual({ ok: true, rate: { limit: 15, remaining: 0, resetAtMs: t0 + 1000 + 60_000 } });

        clock.advance(5000); // t0 + 65 000: t0+1 s … t0+5 s have left too
        expect(await store.rateStatus(account.id, limits)).toEqual({
          limit: 15,
          remaining: 5,
          resetAtMs: t0 + 6000 + 60_000,
        });
        clock.advance(120_000);
        expect(await store.rateStatus(account.id, limits)).toEqual({ limit: 15, remaining: 15, resetAtMs: clock.now() });
      });

      it('counts only countRate requests; uncounted requests without a slot are admitted', async () => {
        const { store, account, limits, admit } = await setup('free', 100);
        for (let i = 0; i < 15; i++) expect((await admit()).ok).toBe(true);
        expect((await admit()).ok).toBe(false);
        const uncounted = await admit({ countRate: false, reservation: { id: 'r1', credits: 10, ttlMs: 60_000 } });
        expect(uncounted.ok).toBe(true);
        expect(uncounted.rate.remaining).toBe(0);
        expect(await store.settle(account.id, 'r1', 10, TEST_USAGE)).toBe(90);
        expect((await store.rateStatus(account.id, limits)).remaining).toBe(0);
      });
    });

    describe('concurrency slots', () => {
      for (const plan of ['free', 'developer', 'growth'] as const) {
        it(`enforces ${PLAN_LIMITS[plan].concurrentRequests} concurrent on ${plan}; release frees`, async () => {
          const { store, account, admit } = await setup(plan);
          const max = PLAN_LIMITS[plan].concurrentRequests;
          for (let i = 0; i < max; i++) expect((await admit({ countRate: false, slotHolderId: `h${i}` })).ok).toBe(true);
          const refused = await admit({ countRate: false, slotHolderId: 'extra' });
          expect(refused).toMatchObject({ ok: false, reason: 'concurrency', inFlight: max });
          await store.releaseSlot(account.id, 'h0');
          await store.releaseSlot(account.id, 'h0'); // idempotent
          expect((await admit({ countRate: false, slotHolderId: 'extra' })).ok).toBe(true);
          expect((await admit({ countRate: false, slotHolderId: 'extra2' })).ok).toBe(false);
        });
      }

      it('lease expiry frees the slot; renew extends a live lease and fails on an expired one', async () => {
        const { store, clock, account, admit } = await setup('free');
        expect((await admit({ countRate: false, slotHolderId: 'a', slotLeaseMs: 10_000 })).ok).toBe(true);
        clock.advance(9000);
        expect(await store.renewSlot(account.id, 'a', 10_000)).toBe(true); // now expires at +19 s
        clock.advance(9000);
        expect((await admit({ countRate: false, slotHolderId: 'b' })).ok).toBe(false);
        clock.advance(1000); // +19 s: expired
        expect((await admit({ countRate: false, slotHolderId: 'b', slotLeaseMs: 10_000 })).ok).toBe(true);
        expect(await store.renewSlot(account.id, 'a', 10_000)).toBe(false);
        expect(await store.renewSlot(account.id, 'never', 10_000)).toBe(false);
      });

      it('a holder with a live lease is not refused its own slot', async () => {
        const { admit } = await setup('free');
        expect((await admit({ countRate: false, slotHolderId: 'ws' })).ok).toBe(true);
        expect((await admit({ slotHolderId: 'ws' })).ok).toBe(true);
        expect((await admit({ countRate: false, slotHolderId: 'other' })).ok).toBe(false);
      });
    });

    describe('refusal records nothing', () => {
      it('a rate refusal takes no slot and reserves nothing', async () => {
        const { store, account, admit } = await setup('free', 100);
        for (let i = 0; i < 15; i++) await admit();
        const refused = await admit({ slotHolderId: 'h', reservation: { id: 'r', credits: 100, ttlMs: 60_000 } });
        expect(refused).toMatchObject({ ok: false, reason: 'rate_limited' });
        expect(await store.renewSlot(account.id, 'h', 1000)).toBe(false);
        expect(await store.settle(account.id, 'r', 100, TEST_USAGE)).toBe(100);
        expect((await admit({ countRate: false, slotHolderId: 'h2', reservation: { id: 'r2', credits: 100, ttlMs: 60_000 } })).ok).toBe(true);
      });

      it('a concurrency refusal is not counted and reserves nothing', async () => {
        const { store, account, limits, admit } = await setup('free', 100);
        expect((await admit({ countRate: false, slotHolderId: 'a' })).ok).toBe(true);
        const refused = await admit({ slotHolderId: 'b', reservation: { id: 'r', credits: 100, ttlMs: 60_000 } });
        expect(refused).toMatchObject({ ok: false, reason: 'concurrency', inFlight: 1, rate: { remaining: 15 } });
        expect((await store.rateStatus(account.id, limits)).remaining).toBe(15);
        expect((await admit({ countRate: false, reservation: { id: 'r3', credits: 100, ttlMs: 60_000 } })).ok).toBe(true);
      });

      it('a credit refusal is not counted and takes no slot', async () => {
        const { store, account, limits, admit } = await setup('free', 10);
        const refused = await admit({ slotHolderId: 'a', reservation: { id: 'r', credits: 11, ttlMs: 60_000 } });
        expect(refused).toEqual({
          ok: false,
          reason: 'insufficient_credits',
          rate: { limit: 15, remaining: 15, resetAtMs: expect.any(Number) },
          available: 10,
          required: 11,
        });
        expect((await store.rateStatus(account.id, limits)).remaining).toBe(15);
        expect(await store.renewSlot(account.id, 'a', 1000)).toBe(false);
        expect((await admit({ countRate: false, slotHolderId: 'b' })).ok).toBe(true);
      });
    });

    describe('credits', () => {
      it('reservations reduce available; settle debits exactly what was used, once', async () => {
        const { store, account, admit } = await setup('developer', 100);
        expect((await admit({ reservation: { id: 'r1', credits: 60, ttlMs: 60_000 } })).ok).toBe(true);
        expect(await admit({ reservation: { id: 'r2', credits: 50, ttlMs: 60_000 } })).toMatchObject({
          ok: false,
          reason: 'insufficient_credits',
          available: 40,
          required: 50,
        });
        expect((await admit({ reservation: { id: 'r2', credits: 40, ttlMs: 60_000 } })).ok).toBe(true);
        expect(await store.settle(account.id, 'r1', 30, TEST_USAGE)).toBe(70);
        expect(await store.settle(account.id, 'r1', 30, TEST_USAGE)).toBe(70); // idempotent
        expect((await store.getAccount(account.id))?.credits).toBe(70);
        // r2 still holds 40 of 70.
        expect(await admit({ reservation: { id: 'r3', credits: 31, ttlMs: 60_000 } })).toMatchObject({ available: 30 });
        expect(await store.settle(account.id, 'r2', 999, TEST_USAGE)).toBe(30); // never more than reserved
        expect(await store.settle(account.id, 'unknown', 5, TEST_USAGE)).toBe(30);
        expect(await store.settle(account.id, 'r3', 5, TEST_USAGE)).toBe(30); // r3 was refused, so never existed
      });

      it('a zero-credit account is refused any positive reservation; available reported is 0', async () => {
        const { admit } = await setup('free', 0);
        expect(await admit({ reservation: { id: 'r', credits: 1, ttlMs: 1000 } })).toMatchObject({ available: 0, required: 1 });
        expect((await admit({ reservation: { id: 'r0', credits: 0, ttlMs: 1000 } })).ok).toBe(true);
      });

      it('an expired reservation is released, not charged', async () => {
        const { store, clock, account, admit } = await setup('developer', 100);
        expect((await admit({ reservation: { id: 'r', credits: 100, ttlMs: 1000 } })).ok).toBe(true);
        expect((await admit({ reservation: { id: 'x', credits: 1, ttlMs: 1000 } })).ok).toBe(false);
        clock.advance(1000);
        expect(await store.settle(account.id, 'r', 100, TEST_USAGE)).toBe(100);
        expect((await admit({ reservation: { id: 'y', credits: 100, ttlMs: 1000 } })).ok).toBe(true);
      });

      it('balance never goes negative under 50 concurrent admit+settle', async () => {
        const { store, account } = await setup('growth', 1000);
        const limits = { requestsPerMinute: 1000, concurrentRequests: 1000 };
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, async (_, i) => {
            const result = await store.admit({
              accountId: account.id,
              limits,
              countRate: true,
              slotHolderId: `h${i}`,
              reservation: { id: `r${i}`, credits: 37, ttlMs: 60_000 },
            });
            if (!result.ok) return false;
            await store.settle(account.id, `r${i}`, 37, TEST_USAGE);
            await store.releaseSlot(account.id, `h${i}`);
            return true;
          }),
        );
        const admitted = outcomes.filter(Boolean).length;
        const balance = (await store.getAccount(account.id))?.credits ?? -1;
        expect(balance).toBeGreaterThanOrEqual(0);
        expect(balance).toBe(1000 - 37 * admitted);
        expect(admitted).toBe(Math.floor(1000 / 37));
      });

      it('addCredits tops up', async () => {
        const { store, account } = await setup('free', 5);
        expect((await store.addCredits(account.id, 10)).credits).toBe(15);
      });
    });

    describe('usage ledger', () => {
      it('records each settlement with its debit, once, in time order; nothing for unknown, expired or released reservations', async () => {
        const { store, clock, account, admit } = await setup('growth', 100);
        const t0 = clock.now();
        expect((await admit({ reservation: { id: 'r1', credits: 40, ttlMs: 60_000 } })).ok).toBe(true);
        expect((await admit({ reservation: { id: 'r2', credits: 40, ttlMs: 60_000 } })).ok).toBe(true);
        expect((await admit({ reservation: { id: 'r3', credits: 10, ttlMs: 1_000 } })).ok).toBe(true);
        expect((await admit({ reservation: { id: 'r4', credits: 5, ttlMs: 60_000 } })).ok).toBe(true);
        clock.advance(5);
        const call = { ...TEST_USAGE, keyId: null, endpoint: 'call' as const, callId: 'CA42', outcome: 'cancelled' as const, audioSeconds: 0.84 };
        expect(await store.settle(account.id, 'r1', 12, call)).toBe(88);
        expect(await store.settle(account.id, 'r1', 12, call)).toBe(88); // a retried settle: no second record
        clock.advance(5);
        const failed = { ...TEST_USAGE, engine: 'pack' as const, outcome: 'failed' as const, audioSeconds: 0 };
        expect(await store.settle(account.id, 'r2', 0, failed)).toBe(88); // a failure is recorded at 0 characters
        expect(await store.settle(account.id, 'unknown', 5, TEST_USAGE)).toBe(88);
        clock.advance(1_000);
        expect(await store.settle(account.id, 'r3', 10, TEST_USAGE)).toBe(88); // expired: released, not recorded
        expect(await store.settle(account.id, 'r4', 0, null)).toBe(88); // released unused without a record
        const records = await store.listUsage(account.id, { fromMs: t0, toMs: clock.now() + 1 });
        expect(records.map(({ id: _id, ...rest }) => rest)).toEqual([
          { ...call, atMs: t0 + 5, accountId: account.id, characters: 12 },
          { ...failed, atMs: t0 + 10, accountId: account.id, characters: 0 },
        ]);
        expect(new Set(records.map((r) => r.id)).size).toBe(2);
        await expect(store.settle(account.id, 'r9', 1, null)).rejects.toThrow(/usage record/);
      });

      it('records every endpoint the ledger knows, and refuses one it does not (nothing debited)', async () => {
        const { store, account, admit } = await setup('growth', 100);
        for (const [i, endpoint] of USAGE_ENDPOINTS.entries()) {
          expect((await admit({ reservation: { id: `e${i}`, credits: 1, ttlMs: 60_000 } })).ok).toBe(true);
          await store.settle(account.id, `e${i}`, 1, { ...TEST_USAGE, endpoint });
        }
        expect((await admit({ reservation: { id: 'bad', credits: 1, ttlMs: 60_000 } })).ok).toBe(true);
        const unknown = { ...TEST_USAGE, endpoint: 'elsewhere' } as unknown as UsageDetails;
        await expect(store.settle(account.id, 'bad', 1, unknown)).rejects.toThrow(/unknown usage endpoint/);
        expect((await store.listUsage(account.id, ALL_TIME)).map((record) => record.endpoint)).toEqual([...USAGE_ENDPOINTS]);
        expect((await store.getAccount(account.id))?.credits).toBe(100 - USAGE_ENDPOINTS.length);
      });

      it('records the credits actually debited when a settle asks for more than was reserved', async () => {
        const { store, clock, account, admit } = await setup('growth', 100);
        expect((await admit({ reservation: { id: 'r', credits: 30, ttlMs: 60_000 } })).ok).toBe(true);
        expect(await store.settle(account.id, 'r', 999, TEST_USAGE)).toBe(70);
        const [record] = await store.listUsage(account.id, { fromMs: 0, toMs: clock.now() + 1 });
        expect(record?.characters).toBe(30);
      });

      it('lists by [from, to) and only the account\'s own records, and the ledger sums to the credits spent', async () => {
        const { store, clock, account, admit } = await setup('growth', 10_000);
        const other = await store.createAccount({ plan: 'growth', credits: 1_000 });
        const t0 = clock.now();
        let spent = 0;
        for (let i = 0; i < 30; i++) {
          const credits = 1 + ((i * 7) % 13);
          expect((await admit({ reservation: { id: `r${i}`, credits, ttlMs: 60_000 } })).ok).toBe(true);
          const used = i % 3 === 0 ? 0 : credits - (i % 2);
          spent += used;
          await store.settle(account.id, `r${i}`, used, { ...TEST_USAGE, outcome: used === 0 ? 'failed' : 'completed' });
          clock.advance(100);
        }
        expect((await store.admit({ accountId: other.id, limits: PLAN_LIMITS.growth, countRate: false, reservation: { id: 'o', credits: 9, ttlMs: 60_000 } })).ok).toBe(true);
        await store.settle(other.id, 'o', 9, TEST_USAGE);
        const all = await store.listUsage(account.id, { fromMs: t0, toMs: clock.now() });
        expect(all).toHaveLength(30);
        expect(all.reduce((sum, r) => sum + r.characters, 0)).toBe(spent);
        expect(10_000 - ((await store.getAccount(account.id))?.credits ?? 0)).toBe(spent);
        // [t0 + 1000, t0 + 2000): the settlements at t0 + 1000 … t0 + 1900.
        const window = await store.listUsage(account.id, { fromMs: t0 + 1_000, toMs: t0 + 2_000 });
        expect(window.map((r) => r.atMs)).toEqual(Array.from({ length: 10 }, (_, i) => t0 + 1_000 + i * 100));
        expect(await store.listUsage(account.id, { fromMs: t0, toMs: t0 })).toEqual([]);
        expect(await store.listUsage('acct_nobody', { fromMs: 0, toMs: clock.now() })).toEqual([]);
        await expect(store.listUsage(account.id, { fromMs: 10, toMs: 5 })).rejects.toThrow(RangeError);
      });
    });

    runUsageContract(async () => (current = await makeStore()));
    runLexiconContract(async () => (current = await makeStore()));

    describe('export support', () => {
      it('lists every key with its revoked flag, and creates an account with a given creation time', async () => {
        current = await makeStore();
        const { store } = current;
        const account = await store.createAccount({ id: 'acct_x', plan: 'developer', credits: 7, createdAtMs: 1_600_000_000_123 });
        expect(account).toEqual({ id: 'acct_x', plan: 'developer', credits: 7, createdAtMs: 1_600_000_000_123 });
        expect(await store.getAccount('acct_x')).toEqual(account);
        await store.addKeyHash('acct_x', hash(2));
        await store.addKeyHash('acct_x', hash(1));
        await store.revokeKeyHash(hash(2));
        expect(await store.listKeyHashRecords('acct_x')).toEqual([
          { hash: hash(1), revoked: false },
          { hash: hash(2), revoked: true },
        ]);
        expect(await store.listKeyHashRecords('acct_none')).toEqual([]);
      });
    });

    describe('accounts, keys, voices', () => {
      it('generates acct_ ids, rejects duplicates, sets plans, lists accounts', async () => {
        current = await makeStore();
        const { store } = current;
        const generated = await store.createAccount({ plan: 'free', credits: 1 });
        expect(generated.id).toMatch(/^acct_[a-z2-7]{12}$/);
        const named = await store.createAccount({ id: 'acct_1', plan: 'developer', credits: 5 });
        expect(named).toMatchObject({ id: 'acct_1', plan: 'developer', credits: 5 });
        await expect(store.createAccount({ id: 'acct_1', plan: 'free', credits: 0 })).rejects.toThrow(AccountExistsError);
        await expect(store.createAccount({ id: 'acct_1', plan: 'free', credits: 0 })).rejects.toThrow(/acct_1 already exists/);
        expect((await store.setPlan('acct_1', 'growth')).plan).toBe('growth');
        expect((await store.listAccounts()).map((a) => a.id).sort()).toEqual([generated.id, 'acct_1'].sort());
        expect(await store.getAccount('nope')).toBeNull();
        await expect(store.setPlan('nope', 'free')).rejects.toThrow(AccountNotFoundError);
        await expect(store.addCredits('nope', 1)).rejects.toThrow(AccountNotFoundError);
        await expect(
          store.admit({ accountId: 'nope', limits: PLAN_LIMITS.free, countRate: true }),
        ).rejects.toThrow(AccountNotFoundError);
      });

      it('finds accounts by key hash; revoked keys never match again', async () => {
        current = await makeStore();
        const { store } = current;
        const a = await store.createAccount({ id: 'acct_a', plan: 'free', credits: 1 });
        await store.createAccount({ id: 'acct_b', plan: 'free', credits: 1 });
        await store.addKeyHash(a.id, hash(1));
        await store.addKeyHash(a.id, hash(2));
        expect((await store.findAccountByKeyHash(hash(1)))?.id).toBe('acct_a');
        expect(await store.findAccountByKeyHash(hash(3))).toBeNull();
        await expect(store.addKeyHash('acct_b', hash(1))).rejects.toThrow(/another account/);
        expect(await store.revokeKeyHash(hash(1))).toBe(true);
        expect(await store.revokeKeyHash(hash(3))).toBe(false);
        expect(await store.findAccountByKeyHash(hash(1))).toBeNull();
        await store.addKeyHash(a.id, hash(1)); // re-adding does not un-revoke
        expect(await store.findAccountByKeyHash(hash(1))).toBeNull();
        expect(await store.getKeyHashRecord(hash(1))).toEqual({ accountId: 'acct_a', revoked: true });
        expect(await store.getKeyHashRecord(hash(3))).toBeNull();
        expect(await store.listKeyHashes(a.id)).toEqual([hash(2)]);
      });

      it('stores custom voices per account', async () => {
        current = await makeStore();
        const { store, clock } = current;
        await store.createAccount({ id: 'acct_g', plan: 'growth', credits: 1 });
        const voice = {
          id: 'vc_abc',
          accountId: 'acct_g',
          name: 'Mine',
          baseVoice: 'arjun',
          pitchShiftSemitones: 2,
          rateMultiplier: 1.1,
          createdAtMs: clock.now(),
        };
        await store.putCustomVoice(voice);
        expect(await store.getCustomVoice('vc_abc')).toEqual(voice);
        expect(await store.getCustomVoice('vc_none')).toBeNull();
        expect(await store.listCustomVoices('acct_g')).toEqual([voice]);
        expect(await store.listCustomVoices('acct_other')).toEqual([]);
        await expect(store.putCustomVoice({ ...voice, id: 'vc_bad', pitchShiftSemitones: 13 })).rejects.toThrow(RangeError);
      });

      it('pings while open', async () => {
        current = await makeStore();
        await expect(current.store.ping()).resolves.toBeUndefined();
      });
    });

    describe('outbound calls', () => {
      const call = (id: string, accountId: string, idempotencyKey: string | undefined, createdAtMs: number): OutboundCall => ({
        id,
        accountId,
        provider: 'plivo',
        to: '+919812345678',
        from: '+918045678901',
        settings: { voice: 'ananya', language: 'hi-IN', greeting: 'आपका OTP 482913 है' },
        amd: { mode: 'off', onMachine: 'agent' },
        ringTimeoutS: 30,
        timeLimitS: 600,
        statusWebhook: 'https://hooks.example/raaga',
        idempotencyKey,
        requestHash: 'a'.repeat(64),
        referenceId: 'consent-42',
        createdAtMs,
      });

      it('stores a call with its queued event, answers the same idempotency key with the first call, and keys are per account', async () => {
        current = await makeStore();
        const { store, clock } = current;
        await store.createAccount({ id: 'acct_o', plan: 'growth', credits: 1 });
        await store.createAccount({ id: 'acct_p', plan: 'growth', credits: 1 });
        const first = call('call_' + 'a'.repeat(24), 'acct_o', 'order-17', clock.now());
        const created = await store.createOutboundCall(first);
        expect(created).toEqual({ created: true, state: { call: first, events: [{ status: 'queued', atMs: clock.now(), sequence: 1 }], webhookDeliveredThrough: 0 } });
        const again = await store.createOutboundCall(call('call_' + 'b'.repeat(24), 'acct_o', 'order-17', clock.now()));
        expect(again).toEqual({ created: false, state: created.state });
        expect(await store.getOutboundCall('acct_o', 'call_' + 'b'.repeat(24))).toBeNull();
        // Another account's key space is its own; calls without a key never collide.
        expect((await store.createOutboundCall(call('call_' + 'c'.repeat(24), 'acct_p', 'order-17', clock.now()))).created).toBe(true);
        expect((await store.createOutboundCall(call('call_' + 'd'.repeat(24), 'acct_o', undefined, clock.now()))).created).toBe(true);
        expect((await store.createOutboundCall(call('call_' + 'e'.repeat(24), 'acct_o', undefined, clock.now()))).created).toBe(true);
        // Another account cannot read the call.
        expect(await store.getOutboundCall('acct_p', first.id)).toBeNull();
        await expect(store.createOutboundCall(call('call_' + 'f'.repeat(24), 'acct_none', undefined, clock.now()))).rejects.toThrow(AccountNotFoundError);
      });

      it('records each status once, in sequence, whatever order they arrive in', async () => {
        current = await makeStore();
        const { store, clock } = current;
        await store.createAccount({ id: 'acct_o', plan: 'growth', credits: 1 });
        const id = 'call_' + 'g'.repeat(24);
        await store.createOutboundCall(call(id, 'acct_o', undefined, clock.now()));
        const t = clock.now();
        expect(await store.recordOutboundCallEvent('acct_o', id, { status: 'initiated', atMs: t + 1, providerCallId: 'req-1' })).toEqual({ status: 'initiated', atMs: t + 1, providerCallId: 'req-1', sequence: 2 });
        expect(await store.recordOutboundCallEvent('acct_o', id, { status: 'completed', atMs: t + 3, durationS: 12, hangupCause: 'normal_clearing' })).toMatchObject({ sequence: 3 });
        // A late `answered` is still a fact; a repeated `completed` is not recorded twice.
        expect(await store.recordOutboundCallEvent('acct_o', id, { status: 'answered', atMs: t + 2, answeredBy: 'human', streamCallId: 'uuid-1' })).toMatchObject({ sequence: 4 });
        expect(await store.recordOutboundCallEvent('acct_o', id, { status: 'completed', atMs: t + 4, durationS: 13 })).toBeNull();
        expect(await store.recordOutboundCallEvent('acct_o', 'call_' + 'h'.repeat(24), { status: 'ringing', atMs: t })).toBeNull();
        expect(await store.recordOutboundCallEvent('acct_x', id, { status: 'ringing', atMs: t })).toBeNull();
        const state = await store.getOutboundCall('acct_o', id);
        expect(state?.events.map((e) => [e.status, e.sequence])).toEqual([['queued', 1], ['initiated', 2], ['completed', 3], ['answered', 4]]);
        expect(summarizeOutboundCall(state!)).toEqual({
          status: 'completed',
          providerCallId: 'req-1',
          streamCallId: 'uuid-1',
          answeredBy: 'human',
          durationS: 12,
          hangupCause: 'normal_clearing',
          answeredAtMs: t + 2,
          endedAtMs: t + 3,
        });
      });

      it("keeps each call's webhook cursor, and lists the calls that owe their webhook events, oldest first", async () => {
        current = await makeStore();
        const { store, clock } = current;
        await store.createAccount({ id: 'acct_w', plan: 'growth', credits: 1 });
        const hooked = 'call_' + 'w'.repeat(24);
        const other = 'call_' + 'x'.repeat(24);
        const silent = 'call_' + 'y'.repeat(24);
        await store.createOutboundCall(call(hooked, 'acct_w', undefined, clock.now()));
        clock.advance(10);
        await store.createOutboundCall(call(other, 'acct_w', undefined, clock.now()));
        await store.createOutboundCall({ ...call(silent, 'acct_w', undefined, clock.now()), statusWebhook: undefined });
        const t = clock.now();
        // Both hooked calls owe their queued event; the one without a webhook owes nothing.
        expect(await store.webhookBacklog(t, 10)).toEqual([{ accountId: 'acct_w', callId: hooked }, { accountId: 'acct_w', callId: other }]);
        expect(await store.webhookBacklog(t, 1)).toEqual([{ accountId: 'acct_w', callId: hooked }]);
        await store.advanceWebhookCursor('acct_w', hooked, 1);
        expect((await store.getOutboundCall('acct_w', hooked))?.webhookDeliveredThrough).toBe(1);
        expect(await store.webhookBacklog(t, 10)).toEqual([{ accountId: 'acct_w', callId: other }]);
        // A new event puts the call back, as recorded now: not yet older than a cut-off before it.
        clock.advance(1000);
        await store.recordOutboundCallEvent('acct_w', hooked, { status: 'ringing', atMs: clock.now() });
        expect(await store.webhookBacklog(t, 10)).toEqual([{ accountId: 'acct_w', callId: other }]);
        expect(await store.webhookBacklog(clock.now(), 10)).toEqual([{ accountId: 'acct_w', callId: other }, { accountId: 'acct_w', callId: hooked }]);
        // The cursor never moves back.
        await store.advanceWebhookCursor('acct_w', hooked, 2);
        await store.advanceWebhookCursor('acct_w', hooked, 1);
        expect((await store.getOutboundCall('acct_w', hooked))?.webhookDeliveredThrough).toBe(2);
        await store.advanceWebhookCursor('acct_w', other, 1);
        expect(await store.webhookBacklog(clock.now(), 10)).toEqual([]);
      });

      it('holds a key for one owner until it is released or its time is up', async () => {
        current = await makeStore();
        const { store, clock } = current;
        expect(await store.holdKey('call-id', 'CA1', 'acct_a', 60_000)).toBe('acct_a');
        // Another owner gets the holder back and nothing changes; the holder itself renews its hold.
        expect(await store.holdKey('call-id', 'CA1', 'acct_b', 60_000)).toBe('acct_a');
        clock.advance(50_000);
        expect(await store.holdKey('call-id', 'CA1', 'acct_a', 60_000)).toBe('acct_a');
        clock.advance(50_000);
        expect(await store.holdKey('call-id', 'CA1', 'acct_b', 60_000)).toBe('acct_a');
        // Namespaces and keys are separate.
        expect(await store.holdKey('call-token', 'CA1', 'acct_b', 60_000)).toBe('acct_b');
        expect(await store.holdKey('call-id', 'CA2', 'acct_b', 60_000)).toBe('acct_b');
        // Only the holder releases.
        await store.releaseKey('call-id', 'CA1', 'acct_b');
        expect(await store.holdKey('call-id', 'CA1', 'acct_b', 60_000)).toBe('acct_a');
        await store.releaseKey('call-id', 'CA1', 'acct_a');
        expect(await store.holdKey('call-id', 'CA1', 'acct_b', 60_000)).toBe('acct_b');
        // A hold whose time is up is free.
        clock.advance(60_001);
        expect(await store.holdKey('call-id', 'CA1', 'acct_c', 1000)).toBe('acct_c');
      });

      it('paces call placing per account and provider, and books nothing past the longest wait', async () => {
        current = await makeStore();
        const { store, clock } = current;
        expect(await store.reserveDialSlot('acct_o', 'plivo', 500, 1000)).toBe(0);
        expect(await store.reserveDialSlot('acct_o', 'plivo', 500, 1000)).toBe(500);
        expect(await store.reserveDialSlot('acct_o', 'plivo', 500, 1000)).toBe(1000);
        expect(await store.reserveDialSlot('acct_o', 'plivo', 500, 1000)).toBeNull();
        // Other providers and accounts have their own pace.
        expect(await store.reserveDialSlot('acct_o', 'twilio', 1000, 1000)).toBe(0);
        expect(await store.reserveDialSlot('acct_p', 'plivo', 500, 1000)).toBe(0);
        clock.advance(1200);
        expect(await store.reserveDialSlot('acct_o', 'plivo', 500, 1000)).toBe(300);
        clock.advance(10_000);
        expect(await store.reserveDialSlot('acct_o', 'plivo', 500, 1000)).toBe(0);
      });

      it("counts an account's outbound calls per UTC day up to the cap, counting nothing past it", async () => {
        current = await makeStore();
        const { store, clock } = current;
        const day = 86_400_000;
        // To 23:59:59.000 UTC: the next UTC day begins in one second.
        clock.advance(Math.floor(clock.now() / day) * day + day - 1000 - clock.now());
        expect(await store.claimOutboundCallOfDay('acct_o', 3)).toBe(1);
        expect(await store.claimOutboundCallOfDay('acct_o', 3)).toBe(2);
        expect(await store.claimOutboundCallOfDay('acct_o', 3)).toBe(3);
        expect(await store.claimOutboundCallOfDay('acct_o', 3)).toBeNull();
        expect(await store.claimOutboundCallOfDay('acct_o', 3)).toBeNull();
        // A higher cap counts on from the same day's count (the refusals counted nothing); accounts count apart.
        expect(await store.claimOutboundCallOfDay('acct_o', 5)).toBe(4);
        expect(await store.claimOutboundCallOfDay('acct_p', 3)).toBe(1);
        // 00:00:00.000 UTC: a new day, from zero.
        clock.advance(999);
        expect(await store.claimOutboundCallOfDay('acct_o', 4)).toBeNull();
        clock.advance(1);
        expect(await store.claimOutboundCallOfDay('acct_o', 4)).toBe(1);
        expect(await store.claimOutboundCallOfDay('acct_p', 1)).toBe(1);
        expect(await store.claimOutboundCallOfDay('acct_p', 1)).toBeNull();
      });
    });

    describe('telephony settings', () => {
      it('stores an account\'s settings whole (provider credentials as given, in their map), replaces and reads them back', async () => {
        current = await makeStore();
        const { store } = current;
        await store.createAccount({ id: 'acct_t', plan: 'growth', credits: 1 });
        expect(await store.getTelephonySettings('acct_t')).toBeNull();
        const settings = {
          accountId: 'acct_t',
          credentials: {
            twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed',
            twilioAccountSid: 'AC' + 'a'.repeat(32),
            twilioApiKey: 'SK' + 'b'.repeat(32),
            twilioApiSecret: 'secret-secret-secret',
            twilioApiBaseUrl: 'https://api.sydney.au1.twilio.com',
            plivoApiBaseUrl: 'http://127.0.0.1:8099/plivo',
          },
          webhookSecret: 'whsec-0123456789abcdef',
          defaults: { voice: 'meera', agent_url: 'wss://agent.example/x' },
          updatedAtMs: 1_700_000_000_000,
        };
        await store.putTelephonySettings(settings);
        expect(await store.getTelephonySettings('acct_t')).toEqual(settings);
        await store.putTelephonySettings({ accountId: 'acct_t', updatedAtMs: 1_700_000_000_001 });
        expect(await store.getTelephonySettings('acct_t')).toEqual({ accountId: 'acct_t', updatedAtMs: 1_700_000_000_001 });
        expect(await store.getTelephonySettings('acct_none')).toBeNull();
        await expect(store.putTelephonySettings({ accountId: 'acct_none', updatedAtMs: 1 })).rejects.toThrow(AccountNotFoundError);
        // The store checks the account-wide fields and the credentials' generic shape; each provider's own rules are
        // telephony/telephony-settings-check.ts's (test/unit/telephony/telephony-settings-check.test.ts).
        await expect(store.putTelephonySettings({ accountId: 'acct_t', credentials: { 'not a name': 'x' }, updatedAtMs: 1 })).rejects.toThrow(/invalid telephony settings: credentials/);
        await expect(store.putTelephonySettings({ accountId: 'acct_t', credentials: { twilioAuthToken: 'line\nbreak' }, updatedAtMs: 1 })).rejects.toThrow(
          /credentials\.twilioAuthToken must be 1-1024 printable characters/,
        );
        await expect(store.putTelephonySettings({ accountId: 'acct_t', credentials: { twilioAuthToken: 'x'.repeat(1025) }, updatedAtMs: 1 })).rejects.toThrow(/credentials\.twilioAuthToken/);
        await expect(store.putTelephonySettings({ accountId: 'acct_t', twilioAuthToken: 'top-level-token', updatedAtMs: 1 } as TelephonySettings)).rejects.toThrow(/invalid telephony settings/);
        await expect(store.putTelephonySettings({ accountId: 'acct_t', webhookSecret: 'short', updatedAtMs: 1 })).rejects.toThrow(/webhookSecret must be 16-256/);
      });
    });
  });
}
