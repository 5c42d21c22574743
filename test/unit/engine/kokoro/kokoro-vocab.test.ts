// Kokoro's vocabulary and tokenizer without a model: the table's shape, pads, unknown symbols, and runs of at most
// 510 tokens split at word boundaries (sentence ends preferred) with nothing lost.

import { describe, expect, it } from 'vitest';
import { KOKORO_MAX_TOKENS, KOKORO_PAD_ID, KOKORO_VOCAB, tokenize } from '../../../../src/engine/kokoro/kokoro-vocab.js';

const id = (symbol: string): number => KOKORO_VOCAB[symbol] as number;

describe('Kokoro vocabulary', () => {
  it('is config.json`s table: 114 single code points, distinct ids 1..177, no pad among them', () => {
    const entries = Object.entries(KOKORO_VOCAB);
    expect(entries).toHaveLength(114);
    expect(entries.every(([symbol]) => [...symbol].length === 1)).toBe(true);
    const ids = entries.map(([, value]) => value);
    expect(new Set(ids).size).toBe(114);
    expect(Math.min(...ids)).toBe(1);
    expect(Math.max(...ids)).toBe(177);
    expect(ids).not.toContain(KOKORO_PAD_ID);
    // Spot checks against the published table, incl. misaki's single-symbol diphthongs and the IPA g (U+0261).
    expect([id(';'), id(' '), id('\u0303'), id('A'), id('ʤ'), id('\u0261'), id('ˈ'), id('ː'), id('ᵻ')]).toEqual([1, 16, 17, 24, 82, 92, 156, 158, 177]);
    expect(KOKORO_VOCAB.g).toBeUndefined();
  });
});

describe('tokenize', () => {
  it('pads a run with 0 at both ends and maps each code point', () => {
    const { runs, unknown } = tokenize('həlˈoʊ.');
    expect(runs).toEqual([{ phonemes: 'həlˈoʊ.', ids: [0, 50, 83, 54, 156, 57, 135, 4, 0] }]);
    expect(unknown.size).toBe(0);
  });

  it('drops symbols the vocabulary lacks and counts them, without normalising what it keeps', () => {
    const { runs, unknown } = tokenize('ɦaɦ «x» ç');
    expect(runs[0]?.phonemes).toBe('a x ç');
    expect(runs[0]?.ids).toEqual([0, id('a'), id(' '), id('x'), id(' '), id('ç'), 0]);
    expect([...unknown]).toEqual([
      ['ɦ', 2],
      ['«', 1],
      ['»', 1],
    ]);
    // NFD `ç` is c + U+0327, and the combining cedilla is not in the table.
    expect(tokenize('ç'.normalize('NFD')).unknown.get('\u0327')).toBe(1);
  });

  it('gives no run for text with nothing to say', () => {
    expect(tokenize('').runs).toEqual([]);
    expect(tokenize('   «»').runs).toEqual([]);
  });

  it('splits long input at word boundaries into runs of at most 510 tokens, losing no word', () => {
    const words = Array.from({ length: 300 }, (_, i) => ['wˈʌn', 'tˈuː', 'θɹˈiː'][i % 3] as string);
    const text = words.join(' ');
    const { runs } = tokenize(text);
    expect(runs.length).toBeGreaterThan(1);
    for (const run of runs) {
      expect(run.ids.length - 2).toBeLessThanOrEqual(KOKORO_MAX_TOKENS);
      expect(run.ids[0]).toBe(0);
      expect(run.ids[run.ids.length - 1]).toBe(0);
      expect(run.phonemes).toBe(run.phonemes.trim());
    }
    expect(runs.map((run) => run.phonemes).join(' ')).toBe(text);
  });

  it('prefers to end a run after a sentence, then a clause, in its second half', () => {
    const sentence = `${Array.from({ length: 20 }, () => 'wˈʌn').join(' ')}.`;
    const clause = `${Array.from({ length: 10 }, () => 'tˈuː').join(' ')},`;
    const text = [sentence, sentence, sentence, clause, sentence].join(' ');
    const { runs } = tokenize(text, 300);
    expect(runs.map((run) => run.phonemes.at(-1))).toEqual(['.', '.']);
    expect(runs.map((run) => run.phonemes).join(' ')).toBe(text);

    const clauses = [clause, clause, clause, clause, clause, clause].join(' ');
    expect(tokenize(clauses, 200).runs[0]?.phonemes.at(-1)).toBe(',');
  });

  it('ignores a sentence end in the first half of the run, where it would leave a stub', () => {
    const text = `ʌ. ${Array.from({ length: 200 }, () => 'wˈʌn').join(' ')}`;
    const [first] = tokenize(text, 300).runs;
    expect(first?.phonemes.length).toBeGreaterThan(150);
  });

  it('cuts a word longer than a run rather than drop it', () => {
    const word = 'a'.repeat(1200);
    const { runs } = tokenize(word);
    expect(runs.map((run) => run.ids.length - 2)).toEqual([510, 510, 180]);
  });
});
