// Input escaping for eSpeak NG, whose Emscripten build always parses SSML and [[phoneme]] input.

import { describe, expect, it } from 'vitest';
import { toEspeakInput } from '../../../src/engine/espeak/espeak-text.js';

const toEspeakPlainText = (text: string): string => toEspeakInput(text).text;

describe('toEspeakInput', () => {
  it('escapes SSML markup characters, ampersand first', () => {
    expect(toEspeakPlainText('a < b & c > d')).toBe('a &lt; b &amp; c &gt; d');
    expect(toEspeakPlainText('<break time="3s"/>')).toBe('&lt;break time="3s"/&gt;');
    expect(toEspeakPlainText('&lt;')).toBe('&amp;lt;');
  });

  it('breaks up phoneme brackets and removes control characters', () => {
    expect(toEspeakPlainText('say [[h@l@U]] now')).toBe('say [h@l@U] now');
    expect(toEspeakPlainText('[[[x]]]')).toBe('[x]');
    expect(toEspeakPlainText('a\u0000b\u0007c')).toBe('a b c');
  });

  it('leaves Indic scripts, newlines and punctuation untouched', () => {
    const text = 'नमस्ते, आप कैसे हैं?\nவணக்கம்! ₹500 (approx.)';
    expect(toEspeakPlainText(text)).toBe(text);
  });

  it('maps each code point eSpeak reads back to the one it came from', () => {
    const input = toEspeakInput('a&b [[x]]');
    expect(input.text).toBe('a&amp;b [x]');
    expect(input.sourceIndex).toEqual([0, 1, 1, 1, 1, 1, 2, 3, 4, 6, 7]);
  });
});
