import { describe, expect, it } from 'vitest';
import { splitUtterance } from '../../../../src/core/text/split-utterance.js';
import { countCodePoints } from '../../../../src/util/code-points.js';

const options = { firstChunkMaxChars: 100, maxChunkChars: 300 };

describe('splitUtterance', () => {
  it('splits at . ? ! । ॥ and keeps the chunks a partition of the input', () => {
    const text = 'Hello there. How are you? नमस्ते। आप कैसे हैं॥ Fine!';
    const chunks = splitUtterance(text, options);
    expect(chunks.map((c) => c.text)).toEqual(['Hello there.', 'How are you?', 'नमस्ते।', 'आप कैसे हैं॥', 'Fine!']);
    expect(chunks.reduce((n, c) => n + c.codePoints, 0)).toBe(countCodePoints(text));
  });

  it('does not split at abbreviations, decimals, times or initials', () => {
    const text = 'Dr. Rao paid Rs. 12.50 at 10.30 today. A. P. J. Kalam spoke.';
    expect(splitUtterance(text, options).map((c) => c.text)).toEqual(['Dr. Rao paid Rs. 12.50 at 10.30 today.', 'A. P. J. Kalam spoke.']);
  });

  it('caps the first chunk at a clause mark, then at a space', () => {
    const clause = 'पहला हिस्सा यहाँ है, ';
    const text = `${clause.repeat(8)}अंत।`;
    const chunks = splitUtterance(text, options);
    expect(countCodePoints(chunks[0]!.text)).toBeLessThanOrEqual(100);
    expect(chunks[0]!.text.endsWith(',')).toBe(true);
    expect(chunks[0]!.pauseAfterMs).toBeLessThan(chunks.at(-1)!.pauseAfterMs);
    const words = 'word '.repeat(60);
    const first = splitUtterance(words, options)[0]!;
    expect(countCodePoints(first.text)).toBeLessThanOrEqual(100);
    expect(first.text.endsWith('word')).toBe(true);
    expect(splitUtterance(text, options).reduce((n, c) => n + c.codePoints, 0)).toBe(countCodePoints(text));
  });

  it('cuts a text without spaces hard and still partitions it', () => {
    const text = 'क'.repeat(250);
    const chunks = splitUtterance(text, options);
    expect(chunks[0]!.codePoints).toBe(100);
    expect(chunks.reduce((n, c) => n + c.codePoints, 0)).toBe(250);
  });

  it('counts emoji once and combining marks each', () => {
    expect(countCodePoints('नमस्ते 😀')).toBe(8);
    expect(countCodePoints('😀'.repeat(3))).toBe(3);
  });
});
