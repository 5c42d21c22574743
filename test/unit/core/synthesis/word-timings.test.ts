// Word timings from an engine's boundaries: the input's own words (a normalised reading is one word as written,
// punctuation stays with its word), placed on the utterance's audio, touching; a chunk of unknown length leaves its
// last word open.

import { describe, expect, it } from 'vitest';
import { boundariesByChunk, chunkWords } from '../../../../src/core/synthesis/word-timings.js';
import { splitUtterance } from '../../../../src/core/text/split-utterance.js';

const source = (text: string) => ({ codePoints: [...text], chunks: splitUtterance(text, { firstChunkMaxChars: 200, maxChunkChars: 200, language: 'en-IN' }) });
/** The boundary an engine gives where `word` starts in the chunk's engine text. */
const at = (engineText: string, word: string, atMs: number) => ({ chunk: 0, atMs, textEnd: [...engineText.slice(0, engineText.indexOf(word))].length });

describe('chunkWords', () => {
  it('reads a normalised span as the client wrote it, from its first spoken word to its last', () => {
    const input = source('Pay ₹500 now.');
    const engine = input.chunks[0]!.text;
    expect(engine).toBe('Pay five hundred rupees now.');
    const boundaries = [at(engine, 'five', 300), at(engine, 'hundred', 500), at(engine, 'rupees', 800), at(engine, 'now', 1100)];
    expect(chunkWords(input, 0, boundaries, 1000, 1400).map(({ text, startMs, endMs }) => [text, startMs, endMs])).toEqual([
      ['Pay', 1000, 1300],
      ['₹500', 1300, 2100],
      ['now.', 2100, 2400],
    ]);
  });

  it('a boundary placed before a comma leaves the comma with the word before', () => {
    const input = source('Namaste Priya, your bill.');
    const engine = input.chunks[0]!.text;
    const beforeComma = { chunk: 0, atMs: 700, textEnd: [...engine.slice(0, engine.indexOf(','))].length };
    const words = chunkWords(input, 0, [at(engine, 'Priya', 300), beforeComma, at(engine, 'bill', 900)], 0, 1200);
    expect(words.map((word) => word.text)).toEqual(['Namaste', 'Priya,', 'your', 'bill.']);
  });

  it('without the chunk`s length its last word has no end; boundaries past the audio are held to it', () => {
    const input = source('one two three');
    const engine = input.chunks[0]!.text;
    const open = chunkWords(input, 0, [at(engine, 'two', 200), at(engine, 'three', 400)], 0, undefined);
    expect(open.map((word) => word.endMs)).toEqual([200, 400, undefined]);
    const held = chunkWords(input, 0, [at(engine, 'two', 200), at(engine, 'three', 900)], 0, 600);
    expect(held.map((word) => [word.startMs, word.endMs])).toEqual([[0, 200], [200, 600], [600, 600]]);
  });

  it('groups an utterance`s boundaries by chunk, in order', () => {
    const grouped = boundariesByChunk([{ chunk: 0, atMs: 1, textEnd: 2 }, { chunk: 2, atMs: 3, textEnd: 4 }, { chunk: 2, atMs: 5, textEnd: 6 }]);
    expect([...grouped.keys()]).toEqual([0, 2]);
    expect(grouped.get(2)?.map((boundary) => boundary.atMs)).toEqual([3, 5]);
  });
});
