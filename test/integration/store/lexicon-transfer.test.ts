// Lexicons in `raaga store export|import` documents: every lexicon of every account moves from SQLite to Redis and back
// with its entries and time exact; a lexicon the server's rules would refuse stops the whole import before anything
// is written; an export put where store.json was is imported with its lexicons too.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLexiconEntries } from '../../../src/core/lexicons/lexicon-rules.js';
import type { LexiconEntry } from '../../../src/store/lexicon.js';
import { RedisStore } from '../../../src/store/redis-store.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import { exportStore, importStore } from '../../../src/store/store-transfer.js';
import { deleteKeys, uniquePrefix, useTestRedis } from '../../helpers/redis-server.js';

const redis = await useTestRedis('lexicons in store export/import');
const prefixes: string[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(prefixes.map((prefix) => deleteKeys(redis.url ?? '', prefix)));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const BRANDS: LexiconEntry[] = [
  { language: 'en-IN', grapheme: 'Zomato', phoneme: 'zoʊˈmɑːtoʊ', alphabet: 'ipa' },
  { language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' },
];
const check = (entries: readonly LexiconEntry[]) => checkLexiconEntries(entries);

describe.skipIf(!redis.url)('lexicons moved between stores', () => {
  it('SQLite → Redis → SQLite keeps every lexicon, entry and time', async () => {
    const sqlite = new SqliteStore();
    await sqlite.createAccount({ id: 'acct_a', plan: 'growth', credits: 5 });
    await sqlite.createAccount({ id: 'acct_b', plan: 'free', credits: 1 });
    await sqlite.putLexicon('acct_a', 'brands', BRANDS, { updatedAtMs: 1_700_000_000_000 });
    await sqlite.putLexicon('acct_a', 'default', [{ language: 'ta-IN', grapheme: 'Chennai', alias: 'சென்னை' }], { updatedAtMs: 1_700_000_000_001 });
    const exported = await exportStore(sqlite);
    expect(exported.lexicons?.map((l) => [l.accountId, l.name, l.entries.length])).toEqual([
      ['acct_a', 'brands', 2],
      ['acct_a', 'default', 1],
    ]);
    const keyPrefix = uniquePrefix('lexicon-transfer');
    prefixes.push(keyPrefix);
    const shared = await RedisStore.connect({ url: redis.url ?? '', keyPrefix });
    const result = await importStore(shared, JSON.stringify(exported), { checkLexicon: check });
    expect(result).toMatchObject({ accounts: 2, lexicons: 2 });
    expect(await shared.getLexicon('acct_a', 'brands')).toMatchObject({ entries: BRANDS, updatedAtMs: 1_700_000_000_000, entryCount: 2 });
    const back = new SqliteStore();
    await importStore(back, JSON.stringify(await exportStore(shared)), { checkLexicon: check });
    expect((await back.getLexicon('acct_a', 'default'))?.entries).toEqual([{ language: 'ta-IN', grapheme: 'Chennai', alias: 'சென்னை' }]);
    expect((await back.listLexicons('acct_b')).length).toBe(0);
    await Promise.all([sqlite.close(), shared.close(), back.close()]);
  });

  it('refuses the whole import when a lexicon breaks a rule, writing nothing', async () => {
    const sqlite = new SqliteStore();
    await sqlite.createAccount({ id: 'acct_c', plan: 'growth', credits: 5 });
    const document = JSON.parse(JSON.stringify(await exportStore(sqlite)));
    document.lexicons = [{ accountId: 'acct_c', name: 'bad', updatedAtMs: 1, entries: [{ language: 'hi-IN', grapheme: 'சென்னை', alias: 'चेन्नई' }] }];
    const target = new SqliteStore();
    await expect(importStore(target, JSON.stringify(document), { checkLexicon: check })).rejects.toThrow(
      /lexicon bad of acct_c is invalid \(Lexicon entries\[0\]: 'grapheme' has 'ச'.*\); nothing was imported/,
    );
    expect(await target.getAccount('acct_c')).toBeNull();
    document.lexicons[0].accountId = 'acct_nobody';
    await expect(importStore(target, JSON.stringify(document))).rejects.toThrow(/lexicon bad belongs to unknown account acct_nobody/);
    await Promise.all([sqlite.close(), target.close()]);
  });

  it('imports the lexicons of an export put where store.json was', async () => {
    const source = new SqliteStore();
    await source.createAccount({ id: 'acct_j', plan: 'growth', credits: 5 });
    await source.putLexicon('acct_j', 'brands', BRANDS);
    const dataDir = await mkdtemp(join(tmpdir(), 'raaga-lexicon-json-'));
    dirs.push(dataDir);
    await writeFile(join(dataDir, 'store.json'), JSON.stringify(await exportStore(source)));
    const opened = await SqliteStore.open({ dataDir });
    expect((await opened.getLexicon('acct_j', 'brands'))?.entries).toEqual(BRANDS);
    expect(await opened.lexiconVersion('acct_j')).toBe(1);
    await Promise.all([source.close(), opened.close()]);
  });
});
