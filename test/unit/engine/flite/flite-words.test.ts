// Word boundaries from the tokens of the utterance flite spoke: laid back over the clause's UTF-8 bytes (multi-byte
// scripts, emoji, trailing whitespace), code-point offsets out, untimed tokens skipped, times scaled and bounded; when
// flite's file_pos disagrees with the layout, none at all.

import { describe, expect, it } from 'vitest';
import type { FliteToken } from '../../../../src/engine/flite/flite-wasm.js';
import { wordBoundaries } from '../../../../src/engine/flite/flite-words.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Tokens as flite's tokenizer records them for `parts`: [whitespace, prepunctuation, name, punctuation, start µs]. */
function tokens(text: string, parts: readonly (readonly [string, string, string, string, number | undefined])[]): FliteToken[] {
  let at = 0;
  const total = bytes(text);
  return parts.map(([whitespace, prepunctuation, name, punctuation, startUs]) => {
    at += bytes(whitespace) + bytes(prepunctuation) + bytes(name) + bytes(punctuation);
    return {
      whitespaceBytes: bytes(whitespace),
      prepunctuationBytes: bytes(prepunctuation),
      nameBytes: bytes(name),
      punctuationBytes: bytes(punctuation),
      // One past the character after the token, or the end of the text.
      filePos: at === total ? at : at + 1,
      startUs,
      endUs: startUs === undefined ? undefined : startUs + 100_000,
    };
  });
}

describe('wordBoundaries', () => {
  it('gives, for each timed token after the first, the end of the one before and its start', () => {
    const text = 'Your order, "please" now.';
    const spoken = tokens(text, [
      ['', '', 'Your', '', 221_741],
      [' ', '', 'order', ',', 547_782],
      [' ', '"', 'please', '"', 900_000],
      [' ', '', 'now', '.', 1_300_400],
    ]);
    expect(wordBoundaries(text, spoken, 1, 5000)).toEqual([
      { textEnd: 4, atMs: 548 },
      { textEnd: 11, atMs: 900 },
      { textEnd: 20, atMs: 1300 },
    ]);
  });

  it('counts code points, not bytes, in Devanagari and beyond the BMP, with whitespace left at the end', () => {
    const text = 'आपका 😀ऑर्डर कल ';
    const spoken = tokens(text, [
      ['', '', 'आपका', '', 200_000],
      [' ', '', '😀ऑर्डर', '', 600_000],
      [' ', '', 'कल', '', 1_000_000],
    ]);
    expect(wordBoundaries(text, spoken, 1, 5000)).toEqual([
      { textEnd: 4, atMs: 600 },
      { textEnd: 11, atMs: 1000 },
    ]);
  });

  it('skips tokens none of whose words has a phone, and scales and bounds the times', () => {
    const text = 'Call - now';
    const spoken = tokens(text, [
      ['', '', 'Call', '', 100_000],
      [' ', '', '-', '', undefined],
      [' ', '', 'now', '', 2_000_000],
    ]);
    expect(wordBoundaries(text, spoken, 0.5, 5000)).toEqual([{ textEnd: 4, atMs: 1000 }]);
    expect(wordBoundaries(text, spoken, 1, 1500)).toEqual([{ textEnd: 4, atMs: 1500 }]);
  });

  it('gives none for one word, and none rather than wrong ones when file_pos disagrees or times run backwards', () => {
    expect(wordBoundaries('Hello.', tokens('Hello.', [['', '', 'Hello', '.', 10_000]]), 1, 1000)).toEqual([]);
    const text = 'one two';
    const shifted = tokens(text, [
      ['', '', 'one', '', 0],
      [' ', '', 'two', '', 500_000],
    ]).map((token, i) => (i === 1 ? { ...token, filePos: token.filePos - 1 } : token));
    expect(wordBoundaries(text, shifted, 1, 1000)).toBeUndefined();
    const backwards = tokens(text, [
      ['', '', 'one', '', 600_000],
      [' ', '', 'two', '', 500_000],
    ]);
    expect(wordBoundaries(text, backwards, 1, 1000)).toBeUndefined();
    expect(wordBoundaries('one', tokens('one two', [['', '', 'one', ' two', 0]]), 1, 1000)).toBeUndefined();
  });
});
