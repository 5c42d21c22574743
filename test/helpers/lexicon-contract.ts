// The lexicon part of the Store contract (run by runStoreContract on every store): lexicons replaced whole and edited
// in batches, read back exactly (Latin graphemes keyed in lower case, any script kept as given), the account's version
// bumped by every change and by nothing else, and every cap refused with nothing of the change stored.

import { describe, expect, it } from 'vitest';
import { LEXICON_LIMITS, LexiconLimitError, type LexiconEntry } from '../../src/store/lexicon.js';
import { AccountNotFoundError } from '../../src/store/store.js';
import type { StoreUnderTest } from './store-contract.js';

const HDFC: LexiconEntry = { language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' };
const ZOMATO: LexiconEntry = { language: 'en-IN', grapheme: 'Zomato', phoneme: 'zoʊˈmɑːtoʊ', alphabet: 'ipa' };
const TAMIL: LexiconEntry = { language: 'ta-IN', grapheme: 'திருவனந்தபுரம்', alias: 'திருவனந்தபுரம் நகரம்' };

function manyEntries(count: number, prefix = 'brand'): LexiconEntry[] {
  return Array.from({ length: count }, (_, i) => ({ language: 'en-IN', grapheme: `${prefix}${i}`, alias: `b ${i}` }));
}

export function runLexiconContract(makeStore: () => Promise<StoreUnderTest>): void {
  describe('lexicons', () => {
    async function setup() {
      const { store, clock } = await makeStore();
      await store.createAccount({ id: 'acct_l', plan: 'growth', credits: 1 });
      await store.createAccount({ id: 'acct_other', plan: 'growth', credits: 1 });
      return { store, clock };
    }

    it('replaces a lexicon whole and reads it back in a stable order, with its revision and time', async () => {
      const { store, clock } = await setup();
      expect(await store.lexiconVersion('acct_l')).toBe(0);
      expect(await store.getLexicon('acct_l', 'brands')).toBeNull();
      expect(await store.listLexicons('acct_l')).toEqual([]);
      const put = await store.putLexicon('acct_l', 'brands', [HDFC, ZOMATO, TAMIL]);
      expect(put).toEqual({ name: 'brands', entryCount: 3, revision: 1, updatedAtMs: clock.now() });
      expect(await store.lexiconVersion('acct_l')).toBe(1);
      const read = await store.getLexicon('acct_l', 'brands');
      expect(read).toEqual({ ...put, entries: [ZOMATO, HDFC, TAMIL] });
      clock.advance(1000);
      const replaced = await store.putLexicon('acct_l', 'brands', [TAMIL]);
      expect(replaced).toEqual({ name: 'brands', entryCount: 1, revision: 2, updatedAtMs: clock.now() });
      expect((await store.getLexicon('acct_l', 'brands'))?.entries).toEqual([TAMIL]);
      // Another account's lexicons and version are its own.
      expect(await store.lexiconVersion('acct_other')).toBe(0);
      expect(await store.getLexicon('acct_other', 'brands')).toBeNull();
      expect(await store.listLexicons('acct_other')).toEqual([]);
    });

    it('lists by name, deletes, and bumps the version on each change only', async () => {
      const { store } = await setup();
      await store.putLexicon('acct_l', 'zeta', [HDFC]);
      await store.putLexicon('acct_l', 'default', []);
      await store.putLexicon('acct_l', 'alpha', [ZOMATO, TAMIL]);
      expect((await store.listLexicons('acct_l')).map((l) => [l.name, l.entryCount, l.revision])).toEqual([
        ['alpha', 2, 3],
        ['default', 0, 2],
        ['zeta', 1, 1],
      ]);
      await store.getLexicon('acct_l', 'alpha');
      await store.listLexicons('acct_l');
      expect(await store.lexiconVersion('acct_l')).toBe(3);
      expect(await store.deleteLexicon('acct_l', 'zeta')).toBe(true);
      expect(await store.lexiconVersion('acct_l')).toBe(4);
      expect(await store.deleteLexicon('acct_l', 'zeta')).toBe(false);
      expect(await store.deleteLexicon('acct_l', 'never')).toBe(false);
      expect(await store.lexiconVersion('acct_l')).toBe(4);
      expect(await store.getLexicon('acct_l', 'zeta')).toBeNull();
      expect((await store.listLexicons('acct_l')).map((l) => l.name)).toEqual(['alpha', 'default']);
      // A lexicon made again after its deletion starts empty.
      expect((await store.editLexicon('acct_l', 'zeta', { put: [], remove: [] })).entryCount).toBe(0);
    });

    it('edits in one step: removals first, then puts; a Latin grapheme in another case is the same entry', async () => {
      const { store } = await setup();
      await store.putLexicon('acct_l', 'brands', [HDFC, ZOMATO]);
      const edited = await store.editLexicon('acct_l', 'brands', {
        remove: [{ language: 'en-IN', grapheme: 'ZOMATO' }, { language: 'en-IN', grapheme: 'absent' }],
        put: [{ language: 'hi-IN', grapheme: 'hdfc', alias: 'एचडीएफसी' }, TAMIL],
      });
      expect(edited).toMatchObject({ entryCount: 2, revision: 2 });
      expect((await store.getLexicon('acct_l', 'brands'))?.entries).toEqual([{ language: 'hi-IN', grapheme: 'hdfc', alias: 'एचडीएफसी' }, TAMIL]);
      // Removing and putting the same entry in one edit leaves the new one.
      await store.editLexicon('acct_l', 'brands', { remove: [TAMIL], put: [{ ...TAMIL, alias: 'திருவனந்தபுரம்' }] });
      expect((await store.getLexicon('acct_l', 'brands'))?.entries.at(-1)).toEqual({ ...TAMIL, alias: 'திருவனந்தபுரம்' });
      // An edit creates the lexicon it names.
      expect(await store.editLexicon('acct_l', 'fresh', { put: [HDFC], remove: [] })).toMatchObject({ name: 'fresh', entryCount: 1 });
    });

    it('refuses past each cap, storing nothing of the refused change', async () => {
      const { store } = await setup();
      for (let i = 0; i < LEXICON_LIMITS.lexiconsPerAccount; i++) await store.putLexicon('acct_l', `l${i}`, []);
      // `default` is not counted: it always exists.
      await store.putLexicon('acct_l', 'default', [HDFC]);
      const version = await store.lexiconVersion('acct_l');
      await expect(store.putLexicon('acct_l', 'one-more', [HDFC])).rejects.toThrow(LexiconLimitError);
      await expect(store.editLexicon('acct_l', 'one-more', { put: [HDFC], remove: [] })).rejects.toThrow(/20 lexicons besides 'default'/);
      expect(await store.getLexicon('acct_l', 'one-more')).toBeNull();
      expect(await store.lexiconVersion('acct_l')).toBe(version);
      // Replacing one the account has is no new lexicon.
      await store.putLexicon('acct_l', 'l0', [HDFC]);

      const full = manyEntries(LEXICON_LIMITS.entriesPerLexicon);
      await store.putLexicon('acct_l', 'l1', full);
      expect((await store.getLexicon('acct_l', 'l1'))?.entryCount).toBe(LEXICON_LIMITS.entriesPerLexicon);
      await expect(store.putLexicon('acct_l', 'l2', manyEntries(LEXICON_LIMITS.entriesPerLexicon + 1))).rejects.toThrow(LexiconLimitError);
      const before = await store.lexiconVersion('acct_l');
      await expect(store.editLexicon('acct_l', 'l1', { remove: [{ language: 'en-IN', grapheme: 'brand0' }], put: [HDFC, ZOMATO] })).rejects.toThrow(
        /would hold 10001 entries; a lexicon holds at most 10000/,
      );
      expect(await store.lexiconVersion('acct_l')).toBe(before);
      const kept = await store.getLexicon('acct_l', 'l1');
      expect(kept?.entryCount).toBe(LEXICON_LIMITS.entriesPerLexicon);
      expect(kept?.entries.some((e) => e.grapheme === 'brand0')).toBe(true);
      // Within the cap: one removed, one added.
      expect((await store.editLexicon('acct_l', 'l1', { remove: [{ language: 'en-IN', grapheme: 'brand0' }], put: [HDFC] })).entryCount).toBe(LEXICON_LIMITS.entriesPerLexicon);
    });

    it('refuses malformed input and unknown accounts', async () => {
      const { store } = await setup();
      await expect(store.putLexicon('acct_none', 'brands', [HDFC])).rejects.toThrow(AccountNotFoundError);
      await expect(store.editLexicon('acct_none', 'brands', { put: [HDFC], remove: [] })).rejects.toThrow(AccountNotFoundError);
      await expect(store.putLexicon('acct_l', 'Brands', [HDFC])).rejects.toThrow(/invalid lexicon name/);
      await expect(store.putLexicon('acct_l', 'a'.repeat(65), [HDFC])).rejects.toThrow(/invalid lexicon name/);
      await expect(store.putLexicon('acct_l', 'brands', [{ ...HDFC, grapheme: ' ' }])).rejects.toThrow(/grapheme must not be empty/);
      await expect(store.putLexicon('acct_l', 'brands', [{ ...HDFC, alias: 'x'.repeat(201) }])).rejects.toThrow(/alias must be at most 200/);
      await expect(store.putLexicon('acct_l', 'brands', [{ ...HDFC, grapheme: 'x'.repeat(101) }])).rejects.toThrow(/grapheme must be at most 100/);
      await expect(store.putLexicon('acct_l', 'brands', [{ ...ZOMATO, alphabet: 'sapi' } as unknown as LexiconEntry])).rejects.toThrow(/invalid lexicon entry/);
      await expect(store.putLexicon('acct_l', 'brands', [HDFC, { ...HDFC, grapheme: 'hdfc' }])).rejects.toThrow(/repeats an earlier entry/);
      expect(await store.lexiconVersion('acct_l')).toBe(0);
      expect(await store.getLexicon('acct_none', 'brands')).toBeNull();
      expect(await store.lexiconVersion('acct_none')).toBe(0);
    });
  });
}
