import { describe, expect, it } from 'vitest';
import { StreamedText } from '../../../../src/core/text/streamed-text.js';

const options = { clauseCutChars: 40, maxPendingChars: 120 };

/** Feeds `pieces` one by one; returns the segments' texts in order and what stays pending. */
function feed(pieces: readonly string[], opts = options): { segments: string[]; pending: string } {
  const text = new StreamedText(opts);
  const segments = pieces.flatMap((piece) => text.append(piece).map((segment) => segment.text));
  return { segments, pending: text.pending };
}

describe('StreamedText', () => {
  it('releases a sentence once a space follows its mark, not before', () => {
    const text = new StreamedText(options);
    expect(text.append('Namaste')).toEqual([]);
    expect(text.append('. Your order')).toEqual([{ text: 'Namaste. ', endsSentence: true, pauseAfterMs: 250 }]);
    expect(text.pending).toBe('Your order');
    expect(text.append(' is ready.')).toEqual([]);
    expect(text.append(' ')).toEqual([{ text: 'Your order is ready. ', endsSentence: true, pauseAfterMs: 250 }]);
    expect(text.pending).toBe('');
  });

  it('never ends a sentence where more text could change its reading', () => {
    // A decimal in the making, an abbreviation, an initial: all wait for what follows.
    expect(feed(['The total is Rs', '. 1,200', '.', '50 only'])).toEqual({ segments: [], pending: 'The total is Rs. 1,200.50 only' });
    expect(feed(['Dr. ', 'Sharma will call.'])).toEqual({ segments: [], pending: 'Dr. Sharma will call.' });
    expect(feed(['A. P. J. Abdul Kalam'])).toEqual({ segments: [], pending: 'A. P. J. Abdul Kalam' });
  });

  it('ends Indic sentences at the danda and keeps every character of the input', () => {
    const pieces = ['आपका ऑर्डर ', 'तैयार है। ', 'धन्यवाद', '। बाकी'];
    const { segments, pending } = feed(pieces);
    expect(segments).toEqual(['आपका ऑर्डर तैयार है। ', 'धन्यवाद। ']);
    expect(segments.join('') + pending).toBe(pieces.join(''));
  });

  it('cuts a long sentence at its last clause mark once enough text waits', () => {
    const text = new StreamedText(options);
    expect(text.append('Your parcel, ')).toEqual([]);
    const segments = text.append('which left Chennai on Monday, is now in Bengaluru and will');
    expect(segments).toEqual([{ text: 'Your parcel, which left Chennai on Monday, ', endsSentence: false, pauseAfterMs: 120 }]);
    expect(text.pending).toBe('is now in Bengaluru and will');
  });

  it('bounds what waits: a flood without marks is cut at a space, then hard', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const { segments, pending } = feed([...words]);
    expect(segments.length).toBeGreaterThan(1);
    for (const segment of segments) expect(segment.length).toBeLessThanOrEqual(options.maxPendingChars);
    expect(segments.every((segment) => segment.endsWith(' '))).toBe(true);
    expect(segments.join('') + pending).toBe(words);

    const noSpaces = 'क'.repeat(300);
    const flood = feed([noSpaces]);
    expect(flood.segments).toEqual(['क'.repeat(120), 'क'.repeat(120)]);
    expect(flood.pending).toBe('क'.repeat(60));
  });

  it('never splits a surrogate pair on a hard cut', () => {
    const text = 'a' + '😀'.repeat(100);
    const { segments, pending } = feed([text]);
    expect(segments.join('') + pending).toBe(text);
    // A lone surrogate would not survive a UTF-8 round trip.
    for (const segment of segments) expect(Buffer.from(segment, 'utf8').toString('utf8')).toBe(segment);
  });

  it('is linear on one huge piece of many sentences', () => {
    const sentence = 'This is one short sentence. ';
    const huge = sentence.repeat(3000);
    const { segments, pending } = feed([huge]);
    expect(segments).toHaveLength(3000);
    expect(pending).toBe('');
  });

  it('flush releases the rest as a sentence; discard drops it', () => {
    const text = new StreamedText(options);
    text.append('Thank you');
    expect(text.flush()).toEqual({ text: 'Thank you', endsSentence: true, pauseAfterMs: 0 });
    expect(text.flush()).toBeUndefined();
    text.append('   ');
    expect(text.flush()).toBeUndefined();
    text.append('never spoken');
    expect(text.discard()).toBe('never spoken');
    expect(text.pending).toBe('');
  });
});
