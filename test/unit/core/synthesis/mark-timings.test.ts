// A mark stands where the first word after it starts in the audio, or where its chunk's audio ends.

import { describe, expect, it } from 'vitest';
import { chunkMarks } from '../../../../src/core/synthesis/mark-timings.js';
import type { TimedWord } from '../../../../src/core/synthesis/word-timings.js';
import type { TextChunk } from '../../../../src/core/text/split-utterance.js';

const word = (text: string, sourceStart: number, sourceEnd: number, startMs: number, endMs: number): TimedWord => ({ text, sourceStart, sourceEnd, startMs, endMs });

describe('chunkMarks', () => {
  // The chunk starts 10 code points into the text; its words: "Hello " [10,16) at 1000 ms, "world" [16,21) at 1400 ms.
  const words = [word('Hello', 10, 16, 1000, 1400), word('world', 16, 21, 1400, 1800)];
  const chunk = (marks: { name: string; at: number }[]): TextChunk => ({ text: 'Hello world', codePoints: 11, sourceAt: [], pauseAfterMs: 0, marks });

  it('places each mark at the start of the word after it, and at the audio end after the last word', () => {
    const marks = chunkMarks(chunk([{ name: 'start', at: 0 }, { name: 'between', at: 6 }, { name: 'mid-word', at: 8 }, { name: 'end', at: 11 }]), 10, words, 1000, 900);
    expect(marks).toEqual([
      { name: 'start', atMs: 1000 },
      { name: 'between', atMs: 1400 },
      { name: 'mid-word', atMs: 1400 },
      { name: 'end', atMs: 1900 },
    ]);
  });

  it('without the audio length, a mark after the last word is at that word`s end', () => {
    expect(chunkMarks(chunk([{ name: 'end', at: 11 }]), 10, words, 1000, undefined)).toEqual([{ name: 'end', atMs: 1800 }]);
  });

  it('a chunk without marks has none', () => {
    expect(chunkMarks({ text: 'a', codePoints: 1, sourceAt: [], pauseAfterMs: 0 }, 0, words, 0, 10)).toEqual([]);
  });
});
