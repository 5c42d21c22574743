// The linear chain matchers give, at every position of generated texts, exactly the match of the regex each
// replaces (the regexes the text front end used before, kept here as the specification).

import { describe, expect, it } from 'vitest';
import { ChainMatchers } from '../../../../src/core/text/chain-matchers.js';
import { seeded } from '../../../helpers/seeded-random.js';

const NUM = String.raw`(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?`;
const DIGIT_GROUPS = /\d+(?:-\d+)+(?![\d-])/uy;
const DOMAIN = /[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:com|in|org|net|io|co|gov|edu|info|app|ai)(?![A-Za-z0-9-])(?:\/[^\s<>"'\uFFFC]*)?/iuy;
const MASKED_DIGITS = /[Xx*•]{2,}[\s-]?(\d{3,4})(?!\d)/uy;
const ARITHMETIC = new RegExp(String.raw`${NUM}(?:\s?([+×*÷−-]|x(?=\s))\s?${NUM})+\s?=\s?${NUM}(?![\d.])`, 'uy');

function regexEnd(pattern: RegExp, s: string, i: number): number {
  pattern.lastIndex = i;
  const m = pattern.exec(s);
  return m ? i + m[0].length : -1;
}

/** Short texts of `tokens`, so the backtracking regexes stay cheap; every position of each is compared. */
function texts(seed: number, tokens: readonly string[], count: number, maxTokens: number): string[] {
  const random = seeded(seed);
  return Array.from({ length: count }, () => {
    let text = '';
    const n = 1 + Math.floor(random() * maxTokens);
    for (let k = 0; k < n; k++) text += tokens[Math.floor(random() * tokens.length)];
    return text;
  });
}

interface Case {
  readonly name: string;
  readonly tokens: readonly string[];
  readonly expected: (s: string, i: number) => unknown;
  readonly actual: (matchers: ChainMatchers, i: number) => unknown;
}

const CASES: readonly Case[] = [
  {
    name: 'hyphenated digit groups',
    tokens: ['1', '23', '1-', '23-', '-', '-', '--', '.', ' ', 'a', '०'],
    expected: (s, i) => regexEnd(DIGIT_GROUPS, s, i),
    actual: (matchers, i) => matchers.digitGroupsEnd(i),
  },
  {
    name: 'bare domains',
    tokens: ['a', 'b1', '-', '.', '.', '..', 'com', 'COM', 'in', 'info', 'co', 'ai', 'app', '/', '/x', ' ', '@', 'ſ', 'K', '"', '\uFFFC', 'é'],
    expected: (s, i) => regexEnd(DOMAIN, s, i),
    actual: (matchers, i) => matchers.domainEnd(i),
  },
  {
    name: 'masked digits',
    tokens: ['X', 'x', '*', '•', 'XX', '1', '12', '123', '1234', ' ', '-', 'a'],
    expected: (s, i) => {
      MASKED_DIGITS.lastIndex = i;
      const m = MASKED_DIGITS.exec(s);
      return m ? { end: i + m[0].length, digits: m[1] } : null;
    },
    actual: (matchers, i) => matchers.maskedDigits(i),
  },
  {
    name: 'arithmetic',
    tokens: ['1', '2', '12', '123', '1234', '1+', '2-', '3 × ', '4 x ', '5÷', '6−', '7*', '8 =', '=9', '= 10', ',', ',00', ',000', '.', '.5', ' ', '  ', '+', '-', 'x', 'x ', ' = ', '/', 'a', '\u00a0'],
    expected: (s, i) => regexEnd(ARITHMETIC, s, i),
    actual: (matchers, i) => matchers.arithmeticEnd(i),
  },
];

describe('chain matchers', () => {
  for (const { name, tokens, expected, actual } of CASES) {
    it(`${name}: the regex's match at every position, positions taken in order and in reverse`, () => {
      let matches = 0;
      const mismatches: unknown[] = [];
      for (const s of texts(name.length, tokens, 3000, 14)) {
        const want = Array.from({ length: s.length + 1 }, (_, i) => JSON.stringify(expected(s, i)));
        const forward = new ChainMatchers(s);
        const backward = new ChainMatchers(s);
        for (let i = 0; i <= s.length; i++) if (JSON.stringify(actual(forward, i)) !== want[i]) mismatches.push({ s, i, order: 'forward', want: want[i] });
        for (let i = s.length; i >= 0; i--) if (JSON.stringify(actual(backward, i)) !== want[i]) mismatches.push({ s, i, order: 'backward', want: want[i] });
        matches += want.filter((end) => end !== '-1' && end !== 'null').length;
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
      // The generated texts exercise matches, not only failures.
      expect(matches).toBeGreaterThan(300);
    });
  }

  it('answers every start of a 3000-character chain from the chain it learnt (the request-size worst cases)', () => {
    const s = '1-'.repeat(1500);
    const matchers = new ChainMatchers(s);
    for (let i = 0; i < s.length; i += 2) {
      expect(matchers.digitGroupsEnd(i)).toBe(-1);
      expect(matchers.arithmeticEnd(i)).toBe(-1);
      expect(matchers.domainEnd(i)).toBe(-1);
    }
    const domain = 'a.'.repeat(1499) + 'in';
    const domains = new ChainMatchers(domain);
    for (let i = 0; i < domain.length - 3; i += 2) expect(domains.domainEnd(i)).toBe(domain.length);
  });
});
