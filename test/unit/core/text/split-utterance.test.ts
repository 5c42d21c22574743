import { describe, expect, it } from 'vitest';
import { SENTENCE_PAUSE_MS, splitUtterance } from '../../../../src/core/text/split-utterance.js';
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

describe('splitUtterance with the text front end', () => {
  const hindi = { ...options, language: 'hi-IN' as const };
  const total = (text: string, chunks: readonly { codePoints: number }[]) => {
    expect(chunks.reduce((n, c) => n + c.codePoints, 0)).toBe(countCodePoints(text));
  };

  it('hands the engine words, not digits, and still bills the raw input', () => {
    const text = 'आपका बिल ₹1,250.50 है। कॉल करें 9876543210 पर।';
    const chunks = splitUtterance(text, hindi);
    expect(chunks.map((c) => c.text)).toEqual([
      'आपका बिल एक हज़ार दो सौ पचास रुपये पचास पैसे है।',
      'कॉल करें नौ आठ सात छह पाँच, चार तीन दो एक शून्य पर।',
    ]);
    total(text, chunks);
  });

  it('never cuts inside an amount or a phone number, even at the first-chunk cap', () => {
    const lead = 'क'.repeat(90);
    for (const written of ['12,34,56,789', '+91 98765 43210', 'support@raaga.in']) {
      const text = `${lead} ${written} और बाकी।`;
      const chunks = splitUtterance(text, { ...hindi, firstChunkMaxChars: 95 });
      expect(chunks.some((c) => c.text.includes(written))).toBe(false);
      expect(chunks.filter((c) => /[०-९0-9]/u.test(c.text))).toEqual([]);
      total(text, chunks);
    }
  });

  it('does not split at Dr., Rs., No., decimals or times, in any script', () => {
    const text = 'Dr. Rao paid Rs. 12.50 at 10.30 AM. Order No. 5 shipped. डॉ. शर्मा आए।';
    const chunks = splitUtterance(text, { ...options, language: 'en-IN' });
    expect(chunks).toHaveLength(3);
    expect(chunks[0]!.text).toBe('Doctor Rao paid twelve rupees and fifty paise at ten thirty AM.');
    total(text, chunks);
  });

  it('leaves a < in plain text literal (markup is only text that starts with <speak>)', () => {
    const chunks = splitUtterance('a < b and x > 5', { ...options, language: 'en-IN' });
    expect(chunks.map((c) => c.text)).toEqual(['a < b and x > five']);
  });

  it('turns an SSML break into a chunk boundary whose pause is the break, and bills the markup', () => {
    const text = '<speak>Press one. <break time="700ms"/>Or press two<break time="1.5s"/> now</speak>';
    const chunks = splitUtterance(text, { ...options, language: 'en-IN' });
    expect(chunks.map((c) => [c.text, c.pauseAfterMs, c.explicitPause ?? false])).toEqual([
      ['Press one.', 700, true],
      ['Or press two', 1500, true],
      ['now', SENTENCE_PAUSE_MS, false],
    ]);
    total(text, chunks);
  });

  it('keeps a leading and a trailing break as silence-only chunks', () => {
    const text = '<speak><break time="300ms"/>नमस्ते<break time="2s"/></speak>';
    const chunks = splitUtterance(text, hindi);
    expect(chunks.map((c) => [c.text, c.pauseAfterMs])).toEqual([
      ['', 300],
      ['नमस्ते', 2000],
    ]);
    expect(chunks[1]!.explicitPause).toBe(true);
    total(text, chunks);
  });

  it('reads say-as spans as asked and never cuts inside them', () => {
    const text = '<speak>Code <say-as interpret-as="digits">2026</say-as>, year <say-as interpret-as="cardinal">2026</say-as>, call <say-as interpret-as="telephone">9876543210</say-as>, on <say-as interpret-as="date" format="mdy">11/21/2026</say-as>.</speak>';
    const chunks = splitUtterance(text, { ...options, language: 'en-IN', firstChunkMaxChars: 20, maxChunkChars: 20 });
    expect(chunks.map((c) => c.text).join(' ')).toBe(
      'Code two zero two six, year two thousand twenty-six, call nine eight seven six five, four three two one zero, on twenty-first November twenty twenty-six.',
    );
    total(text, chunks);
  });

  it('decodes entities and reads <sub> aliases; <p> and <s> end sentences', () => {
    const text = '<speak><p>Tom &amp; Jerry</p><s><sub alias="World Health Organisation">WHO</sub> says hi</s></speak>';
    const chunks = splitUtterance(text, { ...options, language: 'en-IN' });
    expect(chunks.map((c) => c.text)).toEqual(['Tom and Jerry', 'World Health Organisation says hi']);
    total(text, chunks);
  });

  it('partitions a long mixed paragraph exactly with the first chunk within the cap', () => {
    const sentence = 'आपके खाते 123456789012 में ₹12,34,567.89 जमा हुए, दिनांक 21/11/2026 को 10:30 AM पर; ओटीपी 482913 है। ';
    const text = sentence.repeat(10);
    const chunks = splitUtterance(text, hindi);
    expect(chunks.length).toBeGreaterThan(10);
    total(text, chunks);
    for (const chunk of chunks) expect(chunk.text).not.toMatch(/\d/u);
  });
});

describe('splitUtterance never makes a chunk longer than maxChunkChars out of one reading', () => {
  const total = (text: string, chunks: readonly { codePoints: number }[]) => {
    expect(chunks.reduce((n, c) => n + c.codePoints, 0)).toBe(countCodePoints(text));
  };
  // Each is one "reading" of the front end if taken whole (a number, a web address, an e-mail, a phone number, an
  // identifier): kept whole, it would be one clause of many minutes of audio.
  const cases: [string, string, 'en-IN' | 'hi-IN'][] = [
    ['a dotted name', `${'a.'.repeat(1498)}com`, 'en-IN'],
    ['a 3,000-digit number', '1'.repeat(3000), 'en-IN'],
    ['an e-mail address', `${'a'.repeat(2980)}@example.com`, 'en-IN'],
    ['a web address', `https://example.com/${'a/'.repeat(1480)}`, 'en-IN'],
    ['a phone number', `+91 ${'9'.repeat(2990)}`, 'hi-IN'],
    ['a decimal', `1.${'5'.repeat(2997)}`, 'hi-IN'],
    ['an identifier', 'A1B2'.repeat(750), 'en-IN'],
  ];
  for (const [name, text, language] of cases) {
    it(`cuts ${name}`, () => {
      const chunks = splitUtterance(text, { firstChunkMaxChars: 100, maxChunkChars: 300, language });
      expect(chunks.length).toBeGreaterThanOrEqual(10);
      for (const chunk of chunks) expect(chunk.codePoints).toBeLessThanOrEqual(300);
      total(text, chunks);
    });
  }

  it('keeps a reading of ordinary length whole', () => {
    const chunks = splitUtterance('Call +91 98765 43210 today.', { firstChunkMaxChars: 100, maxChunkChars: 300, language: 'en-IN' });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.text).not.toMatch(/\d/u);
  });
});
