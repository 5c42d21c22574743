// Commands that time out while Redis is frozen (SIGSTOP) reach it later, when it resumes: admission, settlement and
// top-ups carry a deadline, so those late arrivals change nothing: a caller told "failed" was not counted or charged.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../../src/store/redis-store.js';
import { PLAN_LIMITS } from '../../../src/store/store.js';
import { canSpawnRedis, spawnRedisServer, type SpawnedRedis } from '../../helpers/redis-server.js';
import { TEST_USAGE } from '../../helpers/store-contract.js';

const spawnable = canSpawnRedis('RedisStore command timeouts');
const TIMEOUT_MS = 200;

describe.skipIf(!spawnable.ok)('RedisStore when Redis stops answering', () => {
  let redis: SpawnedRedis;
  let store: RedisStore;
  beforeAll(async () => {
    redis = await spawnRedisServer();
    store = await RedisStore.connect({ url: redis.url, commandTimeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    await store?.close();
    await redis?.stop();
  });

  it('fails within the timeout, and the late commands do nothing once Redis resumes', async () => {
    const account = await store.createAccount({ plan: 'free', credits: 100 });
    const base = { accountId: account.id, limits: PLAN_LIMITS.free } as const;
    expect((await store.admit({ ...base, countRate: false, reservation: { id: 'r1', credits: 50, ttlMs: 60_000 } })).ok).toBe(true);

    redis.signal('SIGSTOP');
    // No time bound: without the deadline these commands would wait for Redis forever and the test would hang.
    const outcomes = await Promise.allSettled([
      store.admit({ ...base, countRate: true, slotHolderId: 'late', reservation: { id: 'late', credits: 10, ttlMs: 60_000 } }),
      store.settle(account.id, 'r1', 50, TEST_USAGE),
      store.addCredits(account.id, 1000),
      store.ping(),
    ]);
    redis.signal('SIGCONT');
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);

    // Redis has now run the queued scripts, past their deadlines.
    let ready = false;
    for (let i = 0; i < 50 && !ready; i++) ready = await store.ping().then(() => true, () => false);
    expect(ready).toBe(true);
    expect((await store.rateStatus(account.id, PLAN_LIMITS.free)).remaining).toBe(15);
    expect(await store.renewSlot(account.id, 'late', 1000)).toBe(false);
    expect((await store.getAccount(account.id))?.credits).toBe(100);
    expect(await store.settle(account.id, 'late', 10, TEST_USAGE)).toBe(100); // never reserved
    expect(await store.settle(account.id, 'r1', 50, TEST_USAGE)).toBe(50); // still live: settles now, once
  });
});
