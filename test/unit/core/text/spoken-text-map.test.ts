// The engine text's map back to the input: what a listener heard, word by word, as the text the caller sent.
// Numbers and symbols count only once the last of their spoken words is out; markup and entities are the input.

import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../../../src/core/text/normalize-text.js';
import { splitUtterance, type TextChunk } from '../../../../src/core/text/split-utterance.js';

const split = (text: string, language?: 'en-IN' | 'hi-IN'): TextChunk[] =>
  splitUtterance(text, { firstChunkMaxChars: 300, maxChunkChars: 300, ...(language ? { language } : {}) });

/** The input heard once the engine text up to the end of `spokenPrefix` was spoken. */
function heardAfter(input: string, chunk: TextChunk, spokenPrefix: string): string {
  expect(chunk.text.startsWith(spokenPrefix)).toBe(true);
  return [...input].slice(0, chunk.sourceAt[[...spokenPrefix].length]).join('');
}

describe('TextChunk.sourceAt', () => {
  it('is one entry per engine code point plus one, ends within the chunk, never goes back', () => {
    const input = 'Your OTP is 482913, valid till 5:30 pm. Pay ₹1,25,000  now!';
    for (const chunk of split(input, 'en-IN')) {
      expect(chunk.sourceAt.length).toBe([...chunk.text].length + 1);
      expect(chunk.sourceAt[0]).toBe(0);
      expect(chunk.sourceAt.at(-1)).toBeLessThanOrEqual(chunk.codePoints);
      for (let k = 1; k < chunk.sourceAt.length; k++) expect(chunk.sourceAt[k]).toBeGreaterThanOrEqual(chunk.sourceAt[k - 1]!);
    }
  });

  it('counts a reading only when its last word is spoken', () => {
    const input = 'Your OTP is 482913, valid till 5:30 pm.';
    const [chunk] = split(input, 'en-IN');
    expect(chunk!.text).toBe('Your OTP is four eight two, nine one three, valid till five thirty PM.');
    expect(heardAfter(input, chunk!, 'Your OTP')).toBe('Your OTP');
    expect(heardAfter(input, chunk!, 'Your OTP is four eight two, nine one')).toBe('Your OTP is ');
    expect(heardAfter(input, chunk!, 'Your OTP is four eight two, nine one three')).toBe('Your OTP is 482913');
    expect(heardAfter(input, chunk!, 'Your OTP is four eight two, nine one three, valid till five thirty PM')).toBe('Your OTP is 482913, valid till 5:30 pm');
  });

  it('maps through collapsed whitespace and a lakh amount in Hindi', () => {
    const input = 'कुल  ₹1,25,000 देय   है।';
    const [chunk] = split(input, 'hi-IN');
    expect(chunk!.text).toBe(normalizeText(input, 'hi-IN'));
    const amountWords = chunk!.text.slice('कुल '.length, chunk!.text.indexOf(' देय'));
    expect(heardAfter(input, chunk!, `कुल ${amountWords.split(' ')[0]}`)).toBe('कुल  ');
    expect(heardAfter(input, chunk!, `कुल ${amountWords}`)).toBe('कुल  ₹1,25,000');
    expect(heardAfter(input, chunk!, `कुल ${amountWords} देय`)).toBe('कुल  ₹1,25,000 देय');
  });

  it('counts SSML markup and entities as the input they were written as', () => {
    const input = '<speak>Hello <break time="300ms"/> Tom &amp; Jerry</speak>';
    const [first, second] = split(input, 'en-IN');
    expect(first!.text).toBe('Hello');
    expect(heardAfter(input, first!, 'Hello')).toBe('<speak>Hello');
    expect(second!.text).toBe('Tom and Jerry');
    const offset = first!.codePoints;
    const heard = (prefix: string) => [...input].slice(0, offset + second!.sourceAt[[...prefix].length]!).join('');
    expect(heard('Tom and')).toBe('<speak>Hello <break time="300ms"/> Tom &amp;');
    expect(heard('Tom and Jerry')).toBe(input);
  });
});
