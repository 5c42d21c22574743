// A lexicon's worst cases cost about what ordinary text does (beside front-end-worst-case.test.ts, same method): a
// tenant controls both the entries and the text, so each family pairs 10,000 entries built to make the trie walks as
// deep as they go (shared prefixes of 99 code points, a script change at every character so every one is a word
// start, combining marks, whitespace runs, near misses at the last character) with the text of 3000 code points that
// walks them. The whole front end (limit check, lexicon, split) reads it at most WORST_FACTOR times as slowly per
// character as an ordinary notice with an ordinary 10,000-entry lexicon, and 4× the text takes well under 16× the time.
// CPU time, everything warmed up, the minimum of several alternated runs; a breach is measured again before it counts.

import { describe, expect, it } from 'vitest';
import { compileLexiconsNow, type AppliedLexicons } from '../../../../src/core/lexicons/applied-lexicons.js';
import { splitUtterance } from '../../../../src/core/text/split-utterance.js';
import { checkText, MAX_TEXT_CODE_POINTS } from '../../../../src/core/text/text-limits.js';
import { ApiError } from '../../../../src/errors.js';
import type { LanguageCode } from '../../../../src/languages.js';
import type { LexiconEntry } from '../../../../src/store/lexicon.js';
import { seeded } from '../../../helpers/seeded-random.js';
import { ordinaryText } from './worst-case-texts.js';

const WORST_FACTOR = 8;
const SCALING_FACTOR = 8;
const ENTRIES = 10_000;
const LENGTH = MAX_TEXT_CODE_POINTS;
const SHORT = LENGTH / 4;
const RUNS = 3;
const RETRIES = 4;

interface Family {
  readonly name: string;
  readonly language: LanguageCode;
  /** Entry i of the family's lexicon. */
  readonly grapheme: (i: number) => string;
  /** The repeated unit of its text (the text is cut to the length wanted). */
  readonly unit: string;
}

/** Each i as letters a grapheme can end in (no digit joins a word boundary). */
const tag = (i: number): string => i.toString(26).replace(/./gu, (d) => String.fromCharCode(0x61 + parseInt(d, 26)));

const FAMILIES: readonly Family[] = [
  { name: 'one-letter words sharing a 98-character prefix', language: 'en-IN', grapheme: (i) => `${'a '.repeat(49)}z${tag(i)}`, unit: 'a ' },
  { name: 'a script change at every character (each a word start)', language: 'hi-IN', grapheme: (i) => `${'aक'.repeat(49)}x${tag(i)}`, unit: 'aक' },
  { name: 'Devanagari syllables with vowel signs', language: 'hi-IN', grapheme: (i) => `${'कि '.repeat(33)}ख${tag(i)}`, unit: 'कि ' },
  { name: 'combining marks on every letter', language: 'en-IN', grapheme: (i) => `${'e\u0301 '.repeat(33)}q${tag(i)}`, unit: 'e\u0301 ' },
  { name: 'whitespace runs between letters', language: 'en-IN', grapheme: (i) => `${'a '.repeat(49)}b${tag(i)}`, unit: 'a \t\n  ' },
  { name: 'near misses: the walk fails at the word end', language: 'en-IN', grapheme: (i) => `${'ab '.repeat(32)}ab${tag(i)}`, unit: 'ab ' },
];

function textOf(unit: string, length: number): string {
  const chars = [...unit.repeat(Math.ceil(length / [...unit].length) + 1)].slice(0, length);
  // A letter last, so the limit check sees something to say whatever the cut.
  chars[length - 1] = 'a';
  return chars.join('');
}

function lexiconOf(language: LanguageCode, grapheme: (i: number) => string): AppliedLexicons {
  const entries: LexiconEntry[] = Array.from({ length: ENTRIES }, (_, i) => ({ language, grapheme: grapheme(i), alias: 'x' }));
  return compileLexiconsNow([{ name: 'worst', entries }], language);
}

function cost(text: string, language: LanguageCode, lexicon: AppliedLexicons): number {
  const before = process.cpuUsage();
  try {
    checkText(text);
    splitUtterance(text, { firstChunkMaxChars: 100, maxChunkChars: 300, language, lexicon: lexicon.text });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

describe('lexicon worst cases', () => {
  it.each(FAMILIES)('$name: at most 8× ordinary text per character, and linear', ({ language, grapheme, unit }) => {
    const adversarial = lexiconOf(language, grapheme);
    // An ordinary lexicon of the same size: brand names, a few of which the notice holds.
    const ordinaryLexicon = lexiconOf(language, (i) => (i % 1000 === 0 ? ['customer', 'account', 'ग्राहक', 'खाते'][(i / 1000) % 4] ?? 'x' : `brand${tag(i)}`));
    const ordinary = ordinaryText(seeded(7), language, LENGTH);
    const worst = textOf(unit, LENGTH);
    const short = textOf(unit, SHORT);
    expect(adversarial.entries).toBe(ENTRIES);
    // The walks really go deep: the text holds the prefix each entry shares.
    expect(worst.replace(/\s+/gu, ' ').startsWith(grapheme(0).slice(0, 20))).toBe(true);
    for (const [text, lexicon] of [[ordinary, ordinaryLexicon], [worst, adversarial], [short, adversarial]] as const) cost(text, language, lexicon);
    let ordinaryMin = Infinity;
    let worstMin = Infinity;
    let shortMin = Infinity;
    const measure = (runs: number): void => {
      for (let k = 0; k < runs; k++) {
        ordinaryMin = Math.min(ordinaryMin, cost(ordinary, language, ordinaryLexicon));
        worstMin = Math.min(worstMin, cost(worst, language, adversarial));
        shortMin = Math.min(shortMin, cost(short, language, adversarial));
      }
    };
    const breached = (): boolean => worstMin / Math.max(1, ordinaryMin) > WORST_FACTOR || worstMin / Math.max(1, shortMin) > SCALING_FACTOR;
    measure(RUNS);
    for (let retry = 0; retry < RETRIES && breached(); retry++) measure(RUNS * 2);
    expect({ worstMin, ordinaryMin, shortMin, breached: breached() }).toMatchObject({ breached: false });
    expect(ordinaryMin).toBeGreaterThan(100);
  });
});
