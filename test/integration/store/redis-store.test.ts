// RedisStore on a real Redis: the shared Store contract (manual clock passed to the scripts), the same rules on
// Redis TIME, the key layout (one hash tag per account, nothing left behind), and connection failures.

import { afterEach, describe, expect, it } from 'vitest';
import { RedisStore } from '../../../src/store/redis-store.js';
import { PLAN_LIMITS } from '../../../src/store/store.js';
import { deleteKeys, freePort, rawClient, uniquePrefix, useTestRedis } from '../../helpers/redis-server.js';
import { OLD_SHAPED_TELEPHONY, OLD_SHAPED_TELEPHONY_READ_BACK, TEST_USAGE, manualClock, runStoreContract } from '../../helpers/store-contract.js';

const redis = await useTestRedis('RedisStore');
const DAY = 86_400_000;
const url = redis.url ?? '';

describe.skipIf(!redis.url)('RedisStore on a real Redis', () => {
  runStoreContract('RedisStore (manual clock)', async () => {
    const clock = manualClock();
    const keyPrefix = uniquePrefix('contract');
    const store = await RedisStore.connect({ url, keyPrefix, now: clock.now });
    return { store, clock, cleanup: async () => void (await deleteKeys(url, keyPrefix)) };
  });

  describe('usage totals', () => {
    const prefixes: string[] = [];
    afterEach(async () => {
      await Promise.all(prefixes.splice(0).map((p) => deleteKeys(url, p)));
    });

    it('keeps one hash per day, hour and quarter hour on the account\'s slot, expiring with the retention; backfills records from before the totals once', async () => {
      const clock = manualClock(Date.parse('2026-11-24T10:20:00Z'));
      const keyPrefix = uniquePrefix('totals');
      prefixes.push(keyPrefix);
      const store = await RedisStore.connect({ url, keyPrefix, now: clock.now, usageRetentionMs: 10 * DAY });
      const account = await store.createAccount({ id: 'acct_t', plan: 'growth', credits: 1_000 });
      const settle = async (id: string, used: number) => {
        await store.admit({ accountId: account.id, limits: PLAN_LIMITS.growth, countRate: false, reservation: { id, credits: used, ttlMs: 60_000 } });
        await store.settle(account.id, id, used, TEST_USAGE);
        clock.advance(60_000);
      };
      for (let i = 0; i < 3; i++) await settle(`old${i}`, 10 + i);
      const raw = await rawClient(url);
      const base = `${keyPrefix}{acct_t}:usage-totals:`;
      const totalsKeys = (await raw.keys(`${base}*`)).sort();
      expect(totalsKeys).toEqual([`${base}d:${Date.parse('2026-11-24T00:00:00Z')}`, `${base}h:${Date.parse('2026-11-24T10:00:00Z')}`, `${base}q:${Date.parse('2026-11-24T10:15:00Z')}`]);
      const dayTtl = await raw.pttl(totalsKeys[0]!);
      // The bucket's end (25th 00:00Z) plus 10 days, from the last settle's time (10:22).
      expect(dayTtl).toBeLessThanOrEqual(Date.parse('2026-12-05T00:00:00Z') - Date.parse('2026-11-24T10:22:00Z'));
      expect(dayTtl).toBeGreaterThan(Date.parse('2026-12-05T00:00:00Z') - Date.parse('2026-11-24T10:22:00Z') - 60_000);
      const period = { fromMs: Date.parse('2026-11-24T00:00:00Z'), toMs: Date.parse('2026-11-25T00:00:00Z') };
      expect((await store.aggregateUsage(account.id, [period], null))[0]).toMatchObject([{ characters: 33, requests: 3 }]);

      // As a Redis written before the totals existed: records, no totals, no boundary.
      await raw.del(...totalsKeys);
      await raw.hdel(`${keyPrefix}{acct_t}:account`, 'usageTotalsFrom');
      await settle('new', 5); // the first record with totals marks where the backfill stops
      expect((await store.aggregateUsage(account.id, [period], null))[0]).toMatchObject([{ characters: 5, requests: 1 }]);
      expect(await store.backfillUsageTotals(account.id, 2)).toBe(3);
      expect((await store.aggregateUsage(account.id, [period], 'voice'))[0]).toMatchObject([{ group: TEST_USAGE.voice, characters: 38, requests: 4 }]);
      expect(await store.backfillUsageTotals(account.id)).toBe(0); // once
      await settle('later', 1);
      expect((await store.aggregateUsage(account.id, [period], null))[0]).toMatchObject([{ characters: 39, requests: 5 }]);
      await expect(store.backfillUsageTotals('acct_none')).rejects.toThrow(/acct_none does not exist/);
      raw.disconnect();
      await store.close();
    });
  });

  describe('on Redis TIME', () => {
    const prefixes: string[] = [];
    const stores: RedisStore[] = [];
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await Promise.all(prefixes.splice(0).map((p) => deleteKeys(url, p)));
    });
    async function open(): Promise<RedisStore> {
      const keyPrefix = uniquePrefix('time');
      prefixes.push(keyPrefix);
      const store = await RedisStore.connect({ url, keyPrefix });
      stores.push(store);
      return store;
    }
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    it('counts the window on the server clock; Retry-After and reset come from the oldest entry', async () => {
      const store = await open();
      const account = await store.createAccount({ plan: 'free', credits: 0 });
      const admit = () => store.admit({ accountId: account.id, limits: PLAN_LIMITS.free, countRate: true });
      const first = await admit();
      for (let i = 1; i < 15; i++) expect((await admit()).ok).toBe(true);
      const refused = await admit();
      expect(refused).toMatchObject({ ok: false, reason: 'rate_limited', rate: { remaining: 0, resetAtMs: first.rate.resetAtMs } });
      if (refused.ok || refused.reason !== 'rate_limited') throw new Error('expected a rate refusal');
      expect(refused.retryAfterMs).toBeGreaterThan(55_000);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
      // The entries carry Redis TIME (this host's clock is the same machine's, so within a second).
      const raw = await rawClient(url);
      const [seconds, micros] = await raw.time();
      const redisNow = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const scores = (await raw.zrange(`${store.keyPrefix}{${account.id}}:window`, '0', '-1', 'WITHSCORES')).filter((_, i) => i % 2 === 1);
      raw.disconnect();
      expect(scores).toHaveLength(15);
      for (const score of scores) expect(redisNow - Number(score)).toBeLessThan(5_000);
      expect(first.rate.resetAtMs - redisNow).toBeGreaterThan(55_000);
    });

    it('leases and reservations expire in real time; renew fails once a lease is gone', async () => {
      const store = await open();
      const account = await store.createAccount({ plan: 'free', credits: 100 });
      const base = { accountId: account.id, limits: PLAN_LIMITS.free, countRate: false } as const;
      expect((await store.admit({ ...base, slotHolderId: 'a', slotLeaseMs: 1000, reservation: { id: 'r', credits: 100, ttlMs: 1000 } })).ok).toBe(true);
      expect(await store.admit({ ...base, slotHolderId: 'b' })).toMatchObject({ ok: false, reason: 'concurrency' });
      expect(await store.admit({ ...base, reservation: { id: 'x', credits: 1, ttlMs: 1000 } })).toMatchObject({ reason: 'insufficient_credits', available: 0 });
      // Redis's own clock expires them, so this waits past the lease; 1 s leaves room for a loaded machine above.
      await sleep(1100);
      expect(await store.renewSlot(account.id, 'a', 300)).toBe(false);
      expect((await store.admit({ ...base, slotHolderId: 'b', reservation: { id: 'y', credits: 100, ttlMs: 1000 } })).ok).toBe(true);
      expect(await store.settle(account.id, 'r', 100, TEST_USAGE)).toBe(100); // expired: released, not charged
      expect(await store.settle(account.id, 'y', 60, TEST_USAGE)).toBe(40);
    });

    it('a settle retried many times at once charges once', async () => {
      const store = await open();
      const account = await store.createAccount({ plan: 'growth', credits: 1000 });
      await store.admit({ accountId: account.id, limits: PLAN_LIMITS.growth, countRate: true, reservation: { id: 'r', credits: 300, ttlMs: 60_000 } });
      const balances = await Promise.all(Array.from({ length: 20 }, () => store.settle(account.id, 'r', 250, TEST_USAGE)));
      expect(new Set(balances)).toEqual(new Set([750]));
      expect((await store.getAccount(account.id))?.credits).toBe(750);
    });

    it('keeps every key of an account under its hash tag, lookups under their own, and leaves no admission state behind', async () => {
      const store = await open();
      const prefix = store.keyPrefix;
      const account = await store.createAccount({ id: 'acct_tag', plan: 'growth', credits: 100 });
      const keyHash = 'ab'.repeat(32);
      await store.addKeyHash(account.id, keyHash);
      await store.putCustomVoice({ id: 'vc_t', accountId: account.id, name: 'n', baseVoice: 'arjun', pitchShiftSemitones: 1, rateMultiplier: 1, createdAtMs: 1 });
      await store.admit({ accountId: account.id, limits: PLAN_LIMITS.growth, countRate: true, slotHolderId: 'h', slotLeaseMs: 200, reservation: { id: 'r', credits: 5, ttlMs: 200 } });
      const raw = await rawClient(url);
      const keys = (await raw.keys(`${prefix}*`)).sort();
      expect(keys).toEqual(
        [
          `${prefix}accounts`,
          `${prefix}key:{${keyHash}}`,
          `${prefix}voice:{vc_t}`,
          ...['account', 'key-hashes', 'leases', 'reservations', 'reserved-credits', 'voices', 'window'].map((k) => `${prefix}{acct_tag}:${k}`),
        ].sort(),
      );
      for (const key of ['leases', 'reservations', 'reserved-credits', 'window']) {
        const ttl = await raw.pttl(`${prefix}{acct_tag}:${key}`);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(60_000);
      }
      expect(await raw.pttl(`${prefix}{acct_tag}:account`)).toBe(-1); // balances never expire
      await sleep(300);
      expect(await raw.exists(`${prefix}{acct_tag}:leases`, `${prefix}{acct_tag}:reservations`, `${prefix}{acct_tag}:reserved-credits`)).toBe(0);
      raw.disconnect();
    });

    it('reads telephony settings stored before the credentials map (provider fields at the top level) in the new shape', async () => {
      const store = await open();
      await store.createAccount({ id: 'acct_old', plan: 'growth', credits: 1 });
      const key = `${store.keyPrefix}{acct_old}:telephony`;
      const raw = await rawClient(url);
      try {
        await raw.set(key, JSON.stringify(OLD_SHAPED_TELEPHONY));
        expect(await store.getTelephonySettings('acct_old')).toEqual(OLD_SHAPED_TELEPHONY_READ_BACK);
        // Written back, it is stored in the new shape.
        await store.putTelephonySettings((await store.getTelephonySettings('acct_old'))!);
        expect(JSON.parse((await raw.get(key))!)).toEqual(OLD_SHAPED_TELEPHONY_READ_BACK);
      } finally {
        raw.disconnect();
      }
    });

    it('data written by one instance is seen by another at once (no per-process copy)', async () => {
      const a = await open();
      const b = await RedisStore.connect({ url, keyPrefix: a.keyPrefix });
      stores.push(b);
      const account = await a.createAccount({ plan: 'developer', credits: 10 });
      await a.addKeyHash(account.id, 'cd'.repeat(32));
      expect((await b.findAccountByKeyHash('cd'.repeat(32)))?.id).toBe(account.id);
      await b.revokeKeyHash('cd'.repeat(32));
      expect(await a.findAccountByKeyHash('cd'.repeat(32))).toBeNull();
      expect((await b.addCredits(account.id, 5)).credits).toBe(15);
      expect((await a.getAccount(account.id))?.credits).toBe(15);
    });
  });

  describe('connection failures', () => {
    it('connect fails fast with a message naming the server but not its password', async () => {
      const port = await freePort();
      // "Fast" means it gives up instead of retrying forever: a hang would fail the test by its timeout.
      const attempt = RedisStore.connect({ url: `redis://:s3cret@127.0.0.1:${port}`, connectTimeoutMs: 500 });
      await expect(attempt).rejects.toThrow(new RegExp(`cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}`));
      await expect(attempt).rejects.not.toThrow(/s3cret/);
    });

    it('rejects use after close', async () => {
      const store = await RedisStore.connect({ url, keyPrefix: uniquePrefix('closed') });
      await store.close();
      await expect(store.ping()).rejects.toThrow(/closed/);
    });
  });
});
