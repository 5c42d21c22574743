// MemoryStore: the shared Store contract (in memory and on disk), plus durability of store.json.

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/store/memory-store.js';
import { StoreFileError } from '../../../src/store/store-snapshot.js';
import { PLAN_LIMITS } from '../../../src/store/store.js';
import { manualClock, runStoreContract } from '../../helpers/store-contract.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'raaga-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

runStoreContract('MemoryStore (in memory)', async () => {
  const clock = manualClock();
  return { store: new MemoryStore({ now: clock.now }), clock };
});

runStoreContract('MemoryStore (with dataDir)', async () => {
  const clock = manualClock();
  return { store: await MemoryStore.open({ now: clock.now, dataDir: await tempDir() }), clock };
});

const keyHash = (n: number) => n.toString(16).padStart(64, '0');

describe('MemoryStore durability', () => {
  it('keeps accounts, balances, plans, keys (with revoked flag) and voices across close and reopen', async () => {
    const dataDir = await tempDir();
    const store = await MemoryStore.open({ dataDir });
    await store.createAccount({ id: 'acct_1', plan: 'free', credits: 100 });
    await store.addKeyHash('acct_1', keyHash(1));
    await store.addKeyHash('acct_1', keyHash(2));
    await store.revokeKeyHash(keyHash(2));
    await store.setPlan('acct_1', 'growth');
    await store.putCustomVoice({
      id: 'vc_1',
      accountId: 'acct_1',
      name: 'v',
      baseVoice: 'arjun',
      pitchShiftSemitones: -3,
      rateMultiplier: 0.9,
      createdAtMs: 5,
    });
    await store.putTelephonySettings({ accountId: 'acct_1', twilioAuthToken: 'token-token-token', defaults: { voice: 'meera' }, updatedAtMs: 7 });
    expect((await store.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.growth, countRate: true, reservation: { id: 'r', credits: 40, ttlMs: 60_000 } })).ok).toBe(true);
    expect(await store.settle('acct_1', 'r', 25)).toBe(75);
    await store.close();

    const reopened = await MemoryStore.open({ dataDir });
    expect(await reopened.getAccount('acct_1')).toMatchObject({ plan: 'growth', credits: 75 });
    expect((await reopened.findAccountByKeyHash(keyHash(1)))?.id).toBe('acct_1');
    expect(await reopened.findAccountByKeyHash(keyHash(2))).toBeNull();
    expect(await reopened.getKeyHashRecord(keyHash(2))).toEqual({ accountId: 'acct_1', revoked: true });
    expect((await reopened.getCustomVoice('vc_1'))?.pitchShiftSemitones).toBe(-3);
    expect(await reopened.getTelephonySettings('acct_1')).toEqual({ accountId: 'acct_1', twilioAuthToken: 'token-token-token', defaults: { voice: 'meera' }, updatedAtMs: 7 });
    await reopened.close();
  });

  it('loses nothing on a crash: every resolved mutation is already on disk', async () => {
    const dataDir = await tempDir();
    const store = await MemoryStore.open({ dataDir });
    await store.createAccount({ id: 'acct_1', plan: 'growth', credits: 10_000 });
    // Concurrent mutations share group-committed writes; each resolves only once it is on disk.
    await Promise.all([
      ...Array.from({ length: 40 }, () => store.addCredits('acct_1', 1)),
      ...Array.from({ length: 20 }, (_, i) => store.addKeyHash('acct_1', keyHash(100 + i))),
      ...Array.from({ length: 30 }, async (_, i) => {
        const ok = await store.admit({
          accountId: 'acct_1',
          limits: PLAN_LIMITS.growth,
          countRate: false,
          reservation: { id: `r${i}`, credits: 10, ttlMs: 60_000 },
        });
        if (ok.ok) await store.settle('acct_1', `r${i}`, 7);
      }),
    ]);
    // A reservation in flight at the crash simply vanishes: not charged.
    await store.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.growth, countRate: true, reservation: { id: 'open', credits: 500, ttlMs: 60_000 } });

    // No close(): a second process opening the same directory is what a restart after a crash sees.
    const afterCrash = await MemoryStore.open({ dataDir });
    expect((await afterCrash.getAccount('acct_1'))?.credits).toBe(10_000 + 40 - 30 * 7);
    expect(await afterCrash.listKeyHashes('acct_1')).toHaveLength(20);
    const admitted = await afterCrash.admit({
      accountId: 'acct_1',
      limits: PLAN_LIMITS.growth,
      countRate: false,
      reservation: { id: 'all', credits: 10_000 + 40 - 30 * 7, ttlMs: 1000 },
    });
    expect(admitted.ok).toBe(true);
    const files = await readdir(dataDir);
    expect(files).toEqual(['store.json']); // no temp files left behind
    await store.close();
    await afterCrash.close();
  });

  it('refuses to start on a corrupt file, naming the path', async () => {
    const dataDir = await tempDir();
    const path = join(dataDir, 'store.json');
    await writeFile(path, '{"version":1,"accounts":[');
    await expect(MemoryStore.open({ dataDir })).rejects.toThrow(StoreFileError);
    await expect(MemoryStore.open({ dataDir })).rejects.toThrow(path);
    expect(await readFile(path, 'utf8')).toBe('{"version":1,"accounts":['); // never reset

    await writeFile(path, JSON.stringify({ version: 1, accounts: [{ id: 'a', plan: 'free', credits: -1, createdAtMs: 0 }], keys: [], voices: [] }));
    await expect(MemoryStore.open({ dataDir })).rejects.toThrow(/accounts\.0\.credits/);
  });

  it('does not persist the rate window or slots, and rejects use after close', async () => {
    const clock = manualClock();
    const dataDir = await tempDir();
    const store = await MemoryStore.open({ dataDir, now: clock.now });
    await store.createAccount({ id: 'acct_1', plan: 'free', credits: 0 });
    for (let i = 0; i < 15; i++) await store.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.free, countRate: true });
    await store.close();
    await expect(store.ping()).rejects.toThrow(/closed/);
    const reopened = await MemoryStore.open({ dataDir, now: clock.now });
    expect((await reopened.rateStatus('acct_1', PLAN_LIMITS.free)).remaining).toBe(15);
    const saved = JSON.parse(await readFile(join(dataDir, 'store.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(saved).sort()).toEqual(['accounts', 'keys', 'version', 'voices']);
    await reopened.close();
  });
});
