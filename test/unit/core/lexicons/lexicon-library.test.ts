// The instance's copy of the accounts' lexicons over a real SQLite store: what a request applies (its lexicons in
// order, then default), names the account does not have refused, a change made through this instance in force at
// once, one made elsewhere (another process on the same file) in force at the first request after the refresh
// interval, and the store read only as often as that.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountLexicons } from '../../../../src/core/lexicons/account-lexicons.js';
import { LexiconLibrary } from '../../../../src/core/lexicons/lexicon-library.js';
import { normalizeText } from '../../../../src/core/text/normalize-text.js';
import { ApiError } from '../../../../src/errors.js';
import { SqliteStore } from '../../../../src/store/sqlite-store.js';
import type { LexiconStore } from '../../../../src/store/store.js';

const dirs: string[] = [];
const stores: SqliteStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function twoProcesses() {
  const dataDir = await mkdtemp(join(tmpdir(), 'raaga-lexicons-'));
  dirs.push(dataDir);
  const server = await SqliteStore.open({ dataDir });
  const cli = await SqliteStore.open({ dataDir });
  stores.push(server, cli);
  await server.createAccount({ id: 'acct_a', plan: 'growth', credits: 1 });
  await server.createAccount({ id: 'acct_b', plan: 'growth', credits: 1 });
  return { server, cli };
}

/** Counts the version reads and lexicon reads a library makes. */
function counted(store: LexiconStore) {
  const counts = { version: 0, get: 0 };
  const wrapped: LexiconStore = {
    ...store,
    putLexicon: store.putLexicon.bind(store),
    editLexicon: store.editLexicon.bind(store),
    listLexicons: store.listLexicons.bind(store),
    deleteLexicon: store.deleteLexicon.bind(store),
    lexiconVersion: (accountId) => (counts.version++, store.lexiconVersion(accountId)),
    getLexicon: (accountId, name) => (counts.get++, store.getLexicon(accountId, name)),
  };
  return { wrapped, counts };
}

const speak = async (library: LexiconLibrary, names: string[] | undefined, text: string, language: 'en-IN' | 'hi-IN' = 'en-IN') =>
  normalizeText(text, language, (await library.resolve('acct_a', names, language)).text);

describe('lexicon library', () => {
  it('applies the named lexicons in order, then default; a name the account lacks is refused naming it', async () => {
    const { server } = await twoProcesses();
    const library = new LexiconLibrary(server);
    const lexicons = new AccountLexicons(server, library);
    await lexicons.put('acct_a', 'default', [{ language: 'en-IN', grapheme: 'HDFC', alias: 'H D F C' }, { language: 'en-IN', grapheme: 'SBI', alias: 'S B I' }]);
    await lexicons.put('acct_a', 'brands', [{ language: 'en-IN', grapheme: 'HDFC', alias: 'Housing bank ltd' }]);
    await lexicons.put('acct_b', 'secret', [{ language: 'en-IN', grapheme: 'SBI', alias: 'secret' }]);
    expect(await speak(library, undefined, 'HDFC and SBI')).toBe('H D F C and S B I');
    expect(await speak(library, ['brands'], 'HDFC and SBI')).toBe('Housing bank ltd and S B I');
    expect((await library.resolve('acct_a', ['brands', 'default', 'brands'], 'en-IN')).names).toEqual(['brands', 'default']);
    const refused = await library.resolve('acct_a', ['brands', 'secret', 'nope'], 'en-IN').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('validation_error');
    expect((refused as ApiError).message).toBe(
      "Field 'lexicons' names lexicons this account does not have: 'secret', 'nope'. Create them with PUT /v1/lexicons/{name}, or leave them out.",
    );
    await expect(library.resolve('acct_a', ['Bad Name'], 'en-IN')).rejects.toThrow(/Lexicon name 'Bad Name' is not valid/);
    // An account without lexicons applies none, and the key of the prompt cache is left alone.
    const none = await library.resolve('acct_b', [], 'hi-IN');
    expect([none.text, none.cacheKey]).toEqual([undefined, undefined]);
  });

  it('puts a change made through this instance in force at once', async () => {
    const { server } = await twoProcesses();
    const library = new LexiconLibrary(server, { refreshMs: 60_000 });
    const lexicons = new AccountLexicons(server, library);
    expect(await speak(library, undefined, 'Nykaa')).toBe('Nykaa');
    await lexicons.edit('acct_a', 'default', { put: [{ language: 'en-IN', grapheme: 'Nykaa', alias: 'nye kaa' }] });
    expect(await speak(library, undefined, 'Nykaa')).toBe('nye kaa');
    await lexicons.delete('acct_a', 'default');
    expect(await speak(library, undefined, 'Nykaa')).toBe('Nykaa');
  });

  it("sees another process's change at the first request after the refresh interval, reading the store only then", async () => {
    const { server, cli } = await twoProcesses();
    let now = 1_000_000;
    const { wrapped, counts } = counted(server);
    const library = new LexiconLibrary(wrapped, { refreshMs: 500, now: () => now });
    await cli.putLexicon('acct_a', 'default', [{ language: 'hi-IN', grapheme: 'Zomato', alias: 'ज़ोमैटो' }]);
    expect(await speak(library, undefined, 'Zomato से', 'hi-IN')).toBe('ज़ोमैटो से');
    expect(counts).toEqual({ version: 1, get: 1 });
    // Within the interval: no store read at all, compiled once.
    for (let i = 0; i < 5; i++) await speak(library, undefined, 'Zomato', 'hi-IN');
    expect(counts).toEqual({ version: 1, get: 1 });
    await cli.putLexicon('acct_a', 'default', [{ language: 'hi-IN', grapheme: 'Zomato', alias: 'ज़ोमाटो' }]);
    now += 499;
    expect(await speak(library, undefined, 'Zomato', 'hi-IN')).toBe('ज़ोमैटो');
    now += 1;
    // One version read, then the reload of the one lexicon that changed.
    expect(await speak(library, undefined, 'Zomato', 'hi-IN')).toBe('ज़ोमाटो');
    expect(counts).toEqual({ version: 2, get: 2 });
    // Unchanged after the next interval: one version read and nothing else.
    now += 500;
    await speak(library, undefined, 'Zomato', 'hi-IN');
    expect(counts).toEqual({ version: 3, get: 2 });
    // A lexicon deleted elsewhere is refused once the copy is refreshed.
    await cli.putLexicon('acct_a', 'brands', []);
    now += 500;
    await library.resolve('acct_a', ['brands'], 'hi-IN');
    await cli.deleteLexicon('acct_a', 'brands');
    now += 500;
    await expect(library.resolve('acct_a', ['brands'], 'hi-IN')).rejects.toThrow(/does not have: 'brands'/);
  });

  it('shares one store read among the requests that arrive while it is under way', async () => {
    const { server } = await twoProcesses();
    const { wrapped, counts } = counted(server);
    const library = new LexiconLibrary(wrapped);
    await server.putLexicon('acct_a', 'default', [{ language: 'en-IN', grapheme: 'HDFC', alias: 'H D F C' }]);
    const applied = await Promise.all(Array.from({ length: 10 }, () => library.resolve('acct_a', [], 'en-IN')));
    expect(new Set(applied).size).toBe(1);
    expect(counts).toEqual({ version: 1, get: 1 });
  });
});
