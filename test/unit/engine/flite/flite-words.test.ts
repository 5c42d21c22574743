// Word boundaries laid from each token's own phones over a clause's timed phones: one vowel substitution per token is
// context, anything else means no boundaries at all.

import { describe, expect, it } from 'vitest';
import type { Segment } from '../../../../src/engine/flite/flite-phones.js';
import { alignWords, textTokens } from '../../../../src/engine/flite/flite-words.js';

const seg = (phone: string, endMs: number): Segment => ({ phone, endMs });
// "Hello world, a test." as flite times it: a pause after the comma, `a` said ax.
const SEGMENTS = [
  seg('pau', 160), seg('hh', 250), seg('ax', 300), seg('l', 410), seg('ow', 550),
  seg('w', 660), seg('er', 790), seg('l', 970), seg('d', 1020), seg('pau', 1140),
  seg('ax', 1200), seg('t', 1300), seg('eh', 1400), seg('s', 1500), seg('t', 1600), seg('pau', 1800),
];
const TEXT = 'Hello world, a test.';
const ALONE = [['hh', 'ax', 'l', 'ow'], ['w', 'er', 'l', 'd'], ['ey'], ['t', 'eh', 's', 't']];

describe('textTokens', () => {
  it('gives code-point offsets of whitespace-separated tokens with a letter or digit', () => {
    expect(textTokens(' Hi  — 25 नमस्ते, 😀x ')).toEqual([
      { text: 'Hi', start: 1, end: 3 },
      { text: '25', start: 7, end: 9 },
      { text: 'नमस्ते,', start: 10, end: 17 },
      { text: '😀x', start: 18, end: 20 },
    ]);
  });
});

describe('alignWords', () => {
  it('says where each word after the first starts, pauses before it included in the gap', () => {
    expect(alignWords(textTokens(TEXT), ALONE, SEGMENTS)).toEqual([
      { textEnd: 5, atMs: 550 },
      { textEnd: 12, atMs: 1140 },
      { textEnd: 14, atMs: 1200 },
    ]);
  });

  it('returns none when the phone counts differ', () => {
    const drive = [ALONE[0]!, ALONE[1]!, ['ey', 'ey'], ALONE[3]!];
    expect(alignWords(textTokens(TEXT), drive, SEGMENTS)).toBeUndefined();
  });

  it('returns none for a layout shifted by a phone, even when the counts add up', () => {
    // `Hello` one phone longer alone and `world,` one shorter: the boundary would land a phone late.
    const shifted = [['hh', 'ax', 'l', 'ow', 'ow'], ['er', 'l', 'd'], ['ey'], ['t', 'eh', 's', 't']];
    expect(alignWords(textTokens(TEXT), shifted, SEGMENTS)).toBeUndefined();
  });

  it('returns none for two vowel substitutions in one token', () => {
    const twice = [['hh', 'eh', 'l', 'ax'], ALONE[1]!, ['ey'], ALONE[3]!];
    expect(alignWords(textTokens(TEXT), twice, SEGMENTS)).toBeUndefined();
  });

  it('returns none when there is not one phone list per token, and nothing for one word', () => {
    expect(alignWords(textTokens(TEXT), ALONE.slice(1), SEGMENTS)).toBeUndefined();
    expect(alignWords(textTokens('Hello'), [ALONE[0]!], SEGMENTS.slice(0, 5))).toEqual([]);
  });

  it('skips a token that has no phones of its own', () => {
    const segments = [seg('pau', 100), seg('a', 200), seg('b', 300), seg('pau', 400)];
    expect(alignWords(textTokens('x y z'), [['a'], [], ['b']], segments)).toEqual([{ textEnd: 1, atMs: 200 }]);
  });
});
