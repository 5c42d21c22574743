// SqliteStore: the shared Store contract (in memory and on disk), durability, two processes on one file, the
// one-time import of store.json, file permissions and usage retention.

import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import { StoreFileError } from '../../../src/store/store-snapshot.js';
import { PLAN_LIMITS } from '../../../src/store/store.js';
import { ALL_TIME, OLD_SHAPED_TELEPHONY, OLD_SHAPED_TELEPHONY_READ_BACK, TEST_USAGE, manualClock, runStoreContract } from '../../helpers/store-contract.js';
import Database from 'better-sqlite3';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'raaga-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

runStoreContract('SqliteStore (in memory)', async () => {
  const clock = manualClock();
  return { store: new SqliteStore({ now: clock.now }), clock };
});

runStoreContract('SqliteStore (with dataDir)', async () => {
  const clock = manualClock();
  return { store: await SqliteStore.open({ now: clock.now, dataDir: await tempDir() }), clock };
});

const keyHash = (n: number) => n.toString(16).padStart(64, '0');

describe('SqliteStore on disk', () => {
  it('keeps accounts, balances, plans, keys (with revoked flag) and voices across close and reopen', async () => {
    const dataDir = await tempDir();
    const store = await SqliteStore.open({ dataDir });
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
    await store.putTelephonySettings({ accountId: 'acct_1', credentials: { twilioAuthToken: 'token-token-token' }, defaults: { voice: 'meera' }, updatedAtMs: 7 });
    expect((await store.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.growth, countRate: true, reservation: { id: 'r', credits: 40, ttlMs: 60_000 } })).ok).toBe(true);
    expect(await store.settle('acct_1', 'r', 25, TEST_USAGE)).toBe(75);
    await store.close();

    const reopened = await SqliteStore.open({ dataDir });
    expect(await reopened.getAccount('acct_1')).toMatchObject({ plan: 'growth', credits: 75 });
    expect((await reopened.findAccountByKeyHash(keyHash(1)))?.id).toBe('acct_1');
    expect(await reopened.findAccountByKeyHash(keyHash(2))).toBeNull();
    expect(await reopened.getKeyHashRecord(keyHash(2))).toEqual({ accountId: 'acct_1', revoked: true });
    expect((await reopened.getCustomVoice('vc_1'))?.pitchShiftSemitones).toBe(-3);
    expect(await reopened.getTelephonySettings('acct_1')).toEqual({ accountId: 'acct_1', credentials: { twilioAuthToken: 'token-token-token' }, defaults: { voice: 'meera' }, updatedAtMs: 7 });
    await reopened.close();
  });

  it('reads telephony settings stored before the credentials map (provider fields at the top level) in the new shape', async () => {
    const dataDir = await tempDir();
    const store = await SqliteStore.open({ dataDir });
    await store.createAccount({ id: 'acct_old', plan: 'growth', credits: 1 });
    await store.close();
    const db = new Database(join(dataDir, 'raaga.db'));
    db.prepare('INSERT INTO telephony_settings (account_id, json) VALUES (?, ?)').run('acct_old', JSON.stringify(OLD_SHAPED_TELEPHONY));
    db.close();
    const reopened = await SqliteStore.open({ dataDir });
    expect(await reopened.getTelephonySettings('acct_old')).toEqual(OLD_SHAPED_TELEPHONY_READ_BACK);
    // Written back, it is stored in the new shape.
    await reopened.putTelephonySettings((await reopened.getTelephonySettings('acct_old'))!);
    await reopened.close();
    const check = new Database(join(dataDir, 'raaga.db'), { readonly: true });
    const row = check.prepare('SELECT json FROM telephony_settings WHERE account_id = ?').get('acct_old') as { json: string };
    check.close();
    expect(JSON.parse(row.json)).toEqual(OLD_SHAPED_TELEPHONY_READ_BACK);
  });

  it('two handles on one file (the server and the CLI) see each other\'s writes at once', async () => {
    const dataDir = await tempDir();
    const server = await SqliteStore.open({ dataDir });
    const cli = await SqliteStore.open({ dataDir });
    await server.createAccount({ id: 'acct_1', plan: 'growth', credits: 10 });
    await server.addKeyHash('acct_1', keyHash(1));
    const reserve = (id: string, credits: number) =>
      server.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.growth, countRate: false, reservation: { id, credits, ttlMs: 60_000 } });
    expect(await reserve('r1', 50)).toMatchObject({ ok: false, reason: 'insufficient_credits', available: 10 });
    await cli.addCredits('acct_1', 90);
    expect((await reserve('r1', 50)).ok).toBe(true);
    await cli.revokeKeyHash(keyHash(1));
    expect(await server.findAccountByKeyHash(keyHash(1))).toBeNull();
    await cli.putCustomVoice({ id: 'vc_new', accountId: 'acct_1', name: 'n', baseVoice: 'arjun', pitchShiftSemitones: 1, rateMultiplier: 1, createdAtMs: 1 });
    expect((await server.getCustomVoice('vc_new'))?.name).toBe('n');
    // The server's settle and the CLI's top-up interleave on the balance without losing either.
    await Promise.all([server.settle('acct_1', 'r1', 50, TEST_USAGE), cli.addCredits('acct_1', 5)]);
    expect((await cli.getAccount('acct_1'))?.credits).toBe(55);
    await server.close();
    await cli.close();
  });

  it('a settlement is on disk when it resolves: a handle opened without closing the first (a restart after a crash) has it', async () => {
    const dataDir = await tempDir();
    const store = await SqliteStore.open({ dataDir });
    await store.createAccount({ id: 'acct_1', plan: 'growth', credits: 10_000 });
    await Promise.all([
      ...Array.from({ length: 40 }, () => store.addCredits('acct_1', 1)),
      ...Array.from({ length: 20 }, (_, i) => store.addKeyHash('acct_1', keyHash(100 + i))),
      ...Array.from({ length: 30 }, async (_, i) => {
        const ok = await store.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.growth, countRate: false, reservation: { id: `r${i}`, credits: 10, ttlMs: 60_000 } });
        if (ok.ok) await store.settle('acct_1', `r${i}`, 7, TEST_USAGE);
      }),
    ]);
    // A reservation in flight at the crash simply vanishes: not charged, not recorded.
    await store.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.growth, countRate: true, reservation: { id: 'open', credits: 500, ttlMs: 60_000 } });
    const afterCrash = await SqliteStore.open({ dataDir });
    expect((await afterCrash.getAccount('acct_1'))?.credits).toBe(10_000 + 40 - 30 * 7);
    expect(await afterCrash.listKeyHashes('acct_1')).toHaveLength(20);
    const usage = await afterCrash.listUsage('acct_1', ALL_TIME);
    expect(usage.reduce((sum, r) => sum + r.characters, 0)).toBe(30 * 7);
    await store.close();
    await afterCrash.close();
  });

  it('settlements of one tick share a transaction: a reservation settled twice in it is debited and recorded once', async () => {
    const dataDir = await tempDir();
    const store = await SqliteStore.open({ dataDir });
    await store.createAccount({ id: 'acct_1', plan: 'growth', credits: 1_000 });
    for (let i = 0; i < 10; i++) {
      await store.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.growth, countRate: false, reservation: { id: `r${i}`, credits: 20, ttlMs: 60_000 } });
    }
    const balances = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => store.settle('acct_1', `r${i}`, 10, TEST_USAGE)),
      store.settle('acct_1', 'r3', 10, TEST_USAGE),
      store.settle('acct_nobody', 'r0', 10, TEST_USAGE).catch((error: Error) => error.name),
    ]);
    expect(balances.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => 990 - 10 * i));
    expect(balances.slice(10)).toEqual([900, 'AccountNotFoundError']);
    const other = await SqliteStore.open({ dataDir });
    expect((await other.getAccount('acct_1'))?.credits).toBe(900);
    expect(await other.listUsage('acct_1', ALL_TIME)).toHaveLength(10);
    await other.close();
    await store.close();
  });

  it('keeps its files private (0600): they hold key hashes and provider secrets', async () => {
    const dataDir = await tempDir();
    const store = await SqliteStore.open({ dataDir });
    await store.createAccount({ id: 'acct_1', plan: 'free', credits: 1 });
    const files = (await readdir(dataDir)).sort();
    expect(files).toEqual(['raaga.db', 'raaga.db-shm', 'raaga.db-wal']);
    for (const file of files) expect(((await stat(join(dataDir, file))).mode & 0o777).toString(8)).toBe('600');
    await store.close();
  });

  it('does not persist the rate window or slots, and rejects use after close', async () => {
    const clock = manualClock();
    const dataDir = await tempDir();
    const store = await SqliteStore.open({ dataDir, now: clock.now });
    await store.createAccount({ id: 'acct_1', plan: 'free', credits: 0 });
    for (let i = 0; i < 15; i++) await store.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.free, countRate: true });
    await store.close();
    await expect(store.ping()).rejects.toThrow(/closed/);
    const reopened = await SqliteStore.open({ dataDir, now: clock.now });
    expect((await reopened.rateStatus('acct_1', PLAN_LIMITS.free)).remaining).toBe(15);
    await reopened.close();
  });

  it('deletes usage records older than the retention, at open and as it settles', async () => {
    const clock = manualClock();
    const dataDir = await tempDir();
    const day = 86_400_000;
    const store = await SqliteStore.open({ dataDir, now: clock.now, usageRetentionMs: 10 * day });
    await store.createAccount({ id: 'acct_1', plan: 'growth', credits: 1_000 });
    const settleOne = async (id: string) => {
      await store.admit({ accountId: 'acct_1', limits: PLAN_LIMITS.growth, countRate: false, reservation: { id, credits: 1, ttlMs: 60_000 } });
      await store.settle('acct_1', id, 1, TEST_USAGE);
    };
    const t0 = clock.now();
    await settleOne('old');
    clock.advance(6 * day);
    await settleOne('middle');
    clock.advance(6 * day); // "old" is now 12 days old
    await settleOne('new');
    const all = () => store.listUsage('acct_1', { fromMs: 0, toMs: clock.now() + 1 });
    expect((await all()).map((r) => r.atMs)).toEqual([t0 + 6 * day, t0 + 12 * day]);
    clock.advance(5 * day);
    const reopened = await SqliteStore.open({ dataDir, now: clock.now, usageRetentionMs: 10 * day });
    expect((await reopened.listUsage('acct_1', { fromMs: 0, toMs: clock.now() })).map((r) => r.atMs)).toEqual([t0 + 12 * day]);
    expect((await reopened.getAccount('acct_1'))?.credits).toBe(997); // retention trims the ledger, never the balance
    await store.close();
    await reopened.close();
  });

  it('refuses a database written by a newer Raaga', async () => {
    const dataDir = await tempDir();
    (await SqliteStore.open({ dataDir })).close();
    const db = new Database(join(dataDir, 'raaga.db'));
    db.pragma('user_version = 99');
    db.close();
    await expect(SqliteStore.open({ dataDir })).rejects.toThrow(/schema version 99.*upgrade Raaga/);
  });

  it('upgrades a version 2 file (before held keys) in place', async () => {
    const dataDir = await tempDir();
    const v2 = await SqliteStore.open({ dataDir });
    await v2.createAccount({ id: 'acct_v2', plan: 'free', credits: 5 });
    await v2.close();
    const db = new Database(join(dataDir, 'raaga.db'));
    db.exec('DROP TABLE held_keys; DROP TABLE outbound_call_days; DROP TABLE usage_rollup; DROP TABLE usage_rollup_totals; DROP TABLE lexicon_entries; DROP TABLE lexicons; DROP TABLE lexicon_versions;');
    db.pragma('user_version = 2');
    db.close();
    const upgraded = await SqliteStore.open({ dataDir });
    expect((await upgraded.getAccount('acct_v2'))?.credits).toBe(5);
    expect(await upgraded.holdKey('plivo-nonce', 'n1', 'x', 1000)).toBe('x');
    expect(await upgraded.claimOutboundCallOfDay('acct_v2', 1)).toBe(1);
    await upgraded.close();
  });

  it('upgrades a version 4 file (before usage totals): the totals are filled from the records it holds', async () => {
    const dataDir = await tempDir();
    const clock = manualClock(Date.parse('2026-11-24T18:29:00Z'));
    const v4 = await SqliteStore.open({ dataDir, now: clock.now });
    await v4.createAccount({ id: 'acct_v4', plan: 'growth', credits: 100 });
    for (const [i, used] of [3, 5, 7].entries()) {
      await v4.admit({ accountId: 'acct_v4', limits: PLAN_LIMITS.growth, countRate: false, reservation: { id: `r${i}`, credits: used, ttlMs: 60_000 } });
      await v4.settle('acct_v4', `r${i}`, used, { ...TEST_USAGE, keyId: i === 2 ? null : TEST_USAGE.keyId });
      clock.advance(60_000); // 18:29, 18:30, 18:31 UTC: the first is the 24th in Kolkata, the others the 25th
    }
    await v4.close();
    const db = new Database(join(dataDir, 'raaga.db'));
    db.exec('DROP TABLE usage_rollup; DROP TABLE usage_rollup_totals; DROP TABLE lexicon_entries; DROP TABLE lexicons; DROP TABLE lexicon_versions;');
    db.pragma('user_version = 4');
    db.close();
    const upgraded = await SqliteStore.open({ dataDir, now: clock.now });
    const istDays = [
      { fromMs: Date.parse('2026-11-23T18:30:00Z'), toMs: Date.parse('2026-11-24T18:30:00Z') },
      { fromMs: Date.parse('2026-11-24T18:30:00Z'), toMs: Date.parse('2026-11-25T18:30:00Z') },
    ];
    expect((await upgraded.aggregateUsage('acct_v4', istDays, null)).map((day) => day.map((g) => [g.characters, g.requests]))).toEqual([[[3, 1]], [[12, 2]]]);
    expect((await upgraded.aggregateUsage('acct_v4', [istDays[1]!], 'key'))[0]!.map((g) => [g.group, g.characters])).toEqual([[TEST_USAGE.keyId, 5], [null, 7]]);
    await upgraded.close();
  });

  it('upgrades a version 5 file (before lexicons) in place: it keeps its accounts and can store lexicons', async () => {
    const dataDir = await tempDir();
    const v5 = await SqliteStore.open({ dataDir });
    await v5.createAccount({ id: 'acct_v5', plan: 'growth', credits: 9 });
    await v5.close();
    const db = new Database(join(dataDir, 'raaga.db'));
    db.exec('DROP TABLE lexicon_entries; DROP TABLE lexicons; DROP TABLE lexicon_versions;');
    db.pragma('user_version = 5');
    db.close();
    const upgraded = await SqliteStore.open({ dataDir });
    expect((await upgraded.getAccount('acct_v5'))?.credits).toBe(9);
    expect(await upgraded.lexiconVersion('acct_v5')).toBe(0);
    await upgraded.putLexicon('acct_v5', 'default', [{ language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' }]);
    expect(await upgraded.lexiconVersion('acct_v5')).toBe(1);
    await upgraded.close();
  });

  it('shows another process on the same file a lexicon change at its next version read', async () => {
    const dataDir = await tempDir();
    const server = await SqliteStore.open({ dataDir });
    const cli = await SqliteStore.open({ dataDir });
    await cli.createAccount({ id: 'acct_x', plan: 'growth', credits: 1 });
    expect(await server.lexiconVersion('acct_x')).toBe(0);
    await cli.putLexicon('acct_x', 'brands', [{ language: 'en-IN', grapheme: 'Nykaa', alias: 'Nyka' }]);
    expect(await server.lexiconVersion('acct_x')).toBe(1);
    expect((await server.getLexicon('acct_x', 'brands'))?.entries).toEqual([{ language: 'en-IN', grapheme: 'Nykaa', alias: 'Nyka' }]);
    await cli.close();
    await server.close();
  });

  it('upgrades a version 3 file (before the outbound calls of the day) in place', async () => {
    const dataDir = await tempDir();
    const v3 = await SqliteStore.open({ dataDir });
    await v3.createAccount({ id: 'acct_v3', plan: 'growth', credits: 3 });
    await v3.close();
    const db = new Database(join(dataDir, 'raaga.db'));
    db.exec('DROP TABLE outbound_call_days; DROP TABLE usage_rollup; DROP TABLE usage_rollup_totals; DROP TABLE lexicon_entries; DROP TABLE lexicons; DROP TABLE lexicon_versions;');
    db.pragma('user_version = 3');
    db.close();
    const upgraded = await SqliteStore.open({ dataDir });
    expect(await upgraded.claimOutboundCallOfDay('acct_v3', 2)).toBe(1);
    expect((await upgraded.getAccount('acct_v3'))?.credits).toBe(3);
    await upgraded.close();
  });

  it('upgrades a version 1 file (before outbound calls) in place, keeping its accounts', async () => {
    const dataDir = await tempDir();
    const v1 = await SqliteStore.open({ dataDir });
    await v1.createAccount({ id: 'acct_v1', plan: 'growth', credits: 77 });
    await v1.close();
    const db = new Database(join(dataDir, 'raaga.db'));
    db.exec('DROP TABLE outbound_call_events; DROP TABLE outbound_calls; DROP TABLE dial_slots; DROP TABLE held_keys; DROP TABLE outbound_call_days; DROP TABLE usage_rollup; DROP TABLE usage_rollup_totals; DROP TABLE lexicon_entries; DROP TABLE lexicons; DROP TABLE lexicon_versions;');
    db.pragma('user_version = 1');
    db.close();
    const upgraded = await SqliteStore.open({ dataDir });
    expect((await upgraded.getAccount('acct_v1'))?.credits).toBe(77);
    expect(await upgraded.reserveDialSlot('acct_v1', 'plivo', 500, 0)).toBe(0);
    expect(await upgraded.holdKey('call-id', 'CA1', 'acct_v1', 1000)).toBe('acct_v1');
    expect(await upgraded.claimOutboundCallOfDay('acct_v1', 1)).toBe(1);
    await upgraded.close();
    const check = new Database(join(dataDir, 'raaga.db'));
    expect(check.pragma('user_version', { simple: true })).toBe(6);
    check.close();
  });
});

describe('SqliteStore: importing store.json (the JSON-file store before SQLite)', () => {
  const snapshot = {
    version: 1,
    accounts: [
      { id: 'acct_a', plan: 'growth', credits: 123_456_789, createdAtMs: 1_600_000_000_000 },
      { id: 'acct_b', plan: 'free', credits: 0, createdAtMs: 1_600_000_000_001 },
    ],
    keys: [
      { hash: keyHash(1), accountId: 'acct_a', revoked: false },
      { hash: keyHash(2), accountId: 'acct_a', revoked: true },
      { hash: keyHash(3), accountId: 'acct_b', revoked: false },
    ],
    voices: [{ id: 'vc_a', accountId: 'acct_a', name: 'Warm', baseVoice: 'arjun', pitchShiftSemitones: -2, rateMultiplier: 0.95, createdAtMs: 9 }],
    telephony: [{ accountId: 'acct_b', exotelCredentials: 'user:secret-secret', updatedAtMs: 3 }],
  };

  it('imports everything once, balances exact, and keeps the file as a backup', async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, 'store.json'), JSON.stringify(snapshot));
    const store = await SqliteStore.open({ dataDir });
    expect(store.migration).toEqual({ accounts: 2, keys: 3, voices: 1, backupPath: join(dataDir, 'store.json.imported') });
    expect(await store.listAccounts()).toEqual(snapshot.accounts);
    expect((await store.findAccountByKeyHash(keyHash(1)))?.id).toBe('acct_a');
    expect(await store.getKeyHashRecord(keyHash(2))).toEqual({ accountId: 'acct_a', revoked: true });
    expect(await store.findAccountByKeyHash(keyHash(2))).toBeNull();
    expect(await store.getCustomVoice('vc_a')).toEqual(snapshot.voices[0]);
    // store.json predates the credentials map: its provider fields are read back in the map.
    expect(await store.getTelephonySettings('acct_b')).toEqual({ accountId: 'acct_b', credentials: { exotelCredentials: 'user:secret-secret' }, updatedAtMs: 3 });
    await store.close();
    expect(JSON.parse(await readFile(join(dataDir, 'store.json.imported'), 'utf8'))).toEqual(snapshot);
    expect((await readdir(dataDir)).includes('store.json')).toBe(false);

    const reopened = await SqliteStore.open({ dataDir });
    expect(reopened.migration).toBeNull();
    expect((await reopened.getAccount('acct_a'))?.credits).toBe(123_456_789);
    await reopened.close();
  });

  it('after a crash between the import and the rename, the next start only moves the file aside', async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, 'store.json'), JSON.stringify(snapshot));
    (await SqliteStore.open({ dataDir })).close();
    // The rename "did not happen": the same file is back, and the top-up made since must not be overwritten.
    await writeFile(join(dataDir, 'store.json'), JSON.stringify(snapshot));
    const store = await SqliteStore.open({ dataDir });
    await store.addCredits('acct_b', 5);
    await store.close();
    const again = await SqliteStore.open({ dataDir });
    expect((await again.getAccount('acct_b'))?.credits).toBe(5);
    expect((await readdir(dataDir)).filter((f) => f.startsWith('store.json')).sort()).toEqual(['store.json.imported', expect.stringMatching(/^store\.json\.imported\.\d+$/)]);
    await again.close();
  });

  it('refuses a corrupt file without touching it, naming the path and the problem', async () => {
    const dataDir = await tempDir();
    const path = join(dataDir, 'store.json');
    await writeFile(path, '{"version":1,"accounts":[');
    await expect(SqliteStore.open({ dataDir })).rejects.toThrow(StoreFileError);
    await expect(SqliteStore.open({ dataDir })).rejects.toThrow(path);
    expect(await readFile(path, 'utf8')).toBe('{"version":1,"accounts":[');
    await writeFile(path, JSON.stringify({ version: 1, accounts: [{ id: 'a', plan: 'free', credits: -1, createdAtMs: 0 }], keys: [], voices: [] }));
    await expect(SqliteStore.open({ dataDir })).rejects.toThrow(/accounts\.0\.credits/);
  });

  it('refuses a file whose accounts the database already has, importing nothing', async () => {
    const dataDir = await tempDir();
    const store = await SqliteStore.open({ dataDir });
    await store.createAccount({ id: 'acct_b', plan: 'developer', credits: 77 });
    await store.close();
    await writeFile(join(dataDir, 'store.json'), JSON.stringify(snapshot));
    await expect(SqliteStore.open({ dataDir })).rejects.toThrow(/already has \(acct_b\)/);
    // Reopening stays refused while the file is there; the database is untouched.
    const db = new Database(join(dataDir, 'raaga.db'), { readonly: true });
    expect(db.prepare('SELECT id, credits FROM accounts').all()).toEqual([{ id: 'acct_b', credits: 77 }]);
    db.close();
  });
});
