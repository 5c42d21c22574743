// Chunks of SSML with prosody, emphasis, lang and marks: a chunk boundary at every change of voicing and never a
// chunk of two; each chunk carries the voicing it is spoken with; a <lang> span is read by its own language's front
// end; marks land in the chunk they stand in, counted in input code points; the chunks still partition the input.

import { describe, expect, it } from 'vitest';
import { ignoredMarkup, splitUtterance, type SplitOptions, type TextChunk } from '../../../../src/core/text/split-utterance.js';
import { countCodePoints } from '../../../../src/util/code-points.js';

const english: SplitOptions = { firstChunkMaxChars: 100, maxChunkChars: 300, language: 'en-IN' };
const split = (text: string, options: SplitOptions = english): TextChunk[] => {
  const chunks = splitUtterance(text, options);
  // Billing: the chunks add up to the input, markup included.
  expect(chunks.reduce((sum, chunk) => sum + chunk.codePoints, 0)).toBe(countCodePoints(text));
  return chunks;
};
const summary = (chunks: readonly TextChunk[]) => chunks.map((chunk) => [chunk.text, chunk.voicing ?? null, chunk.pauseAfterMs]);

describe('chunks of voiced SSML', () => {
  it('cuts at each prosody change, with no pause where a clause goes on, and gives each chunk its voicing', () => {
    const chunks = split('<speak>Please say <prosody rate="slow" volume="-6dB">your account number</prosody> now. Thank you.</speak>');
    expect(summary(chunks)).toEqual([
      ['Please say', null, 0],
      ['your account number', { rate: 0.75, pitchSemitones: 0, gainDb: -6 }, 0],
      ['now.', null, 250],
      ['Thank you.', null, 250],
    ]);
  });

  it('never merges chunks of different voicing, and keeps one chunk for a span of the same voicing', () => {
    const chunks = split('<speak><emphasis level="strong">One</emphasis><emphasis level="strong"> two</emphasis><emphasis level="reduced">three</emphasis></speak>');
    expect(summary(chunks)).toEqual([
      ['One two', { rate: 0.9, pitchSemitones: 0, gainDb: 3 }, 0],
      ['three', { rate: 1.05, pitchSemitones: 0, gainDb: -3 }, 250],
    ]);
  });

  it('leaves spaces and closing punctuation with the chunk before, and opening quotes with the span', () => {
    const chunks = split('<speak>He said, <prosody pitch="+2st">"hello"</prosody>, and left.</speak>');
    expect(chunks.map((chunk) => chunk.text)).toEqual(['He said,', '"hello",', 'and left.']);
    expect(chunks[1]!.voicing).toEqual({ rate: 1, pitchSemitones: 2, gainDb: 0 });
  });

  it('a neutral element makes no boundary, and a span in the request language is the request language', () => {
    expect(split('<speak>A <emphasis level="none">b</emphasis> <lang xml:lang="en-IN">c</lang> <prosody rate="medium">d</prosody>.</speak>').map((chunk) => chunk.text)).toEqual(['A b c d.']);
  });

  it('a <lang> span is read by its own front end and spoken in its language', () => {
    const chunks = split('<speak>Your bill is ₹500. <lang xml:lang="hi-IN">आपका बिल ₹500 है।</lang> <lang xml:lang="ta">₹500</lang></speak>');
    expect(summary(chunks)).toEqual([
      ['Your bill is five hundred rupees.', null, 250],
      ['आपका बिल पाँच सौ रुपये है।', { rate: 1, pitchSemitones: 0, gainDb: 0, language: 'hi-IN' }, 250],
      ['ஐநூறு ரூபாய்', { rate: 1, pitchSemitones: 0, gainDb: 0, language: 'ta-IN' }, 250],
    ]);
  });

  it('a <lang> the voice does not speak is spoken in the request language and reported', () => {
    const text = '<speak>Hello <lang xml:lang="ta-IN">வணக்கம்</lang></speak>';
    const speaks = (language: string): boolean => language !== 'ta-IN';
    expect(split(text, { ...english, speaks }).map((chunk) => chunk.voicing ?? null)).toEqual([null]);
    expect(ignoredMarkup(text, { language: 'en-IN', speaks })).toEqual(['lang']);
    expect(ignoredMarkup(text, { language: 'en-IN' })).toEqual([]);
    expect(ignoredMarkup('<speak><foo>a</foo><phoneme ph="x">b</phoneme><lang xml:lang="xx">c</lang></speak>', { language: 'en-IN' })).toEqual(['foo', 'phoneme', 'lang']);
    expect(ignoredMarkup('plain <foo> text', { language: 'en-IN' })).toEqual([]);
  });

  it('a reading the front end makes whole is never cut by a prosody boundary: it is spoken as its start is', () => {
    const chunks = split('<speak>Pay ₹1,25,<prosody rate="slow">000 today</prosody></speak>');
    expect(summary(chunks)).toEqual([
      ['Pay one lakh twenty-five thousand rupees', null, 0],
      ['today', { rate: 0.75, pitchSemitones: 0, gainDb: 0 }, 250],
    ]);
  });

  it('a sentence in a long span is still cut at clause marks, each piece with the span voicing', () => {
    const long = `${'word, '.repeat(30)}end.`;
    const chunks = split(`<speak><prosody rate="fast">${long}</prosody></speak>`);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.voicing).toEqual({ rate: 1.25, pitchSemitones: 0, gainDb: 0 });
  });

  it('marks go to the chunk they stand in, at input code points from its start', () => {
    const text = '<speak><mark name="a"/>Hello <mark name="b"/>there. <prosody rate="slow">Slow <mark name="c"/>words</prosody><mark name="end"/></speak>';
    const chunks = split(text);
    expect(chunks.map((chunk) => [chunk.text, chunk.marks ?? []])).toEqual([
      [
        'Hello there.',
        [
          { name: 'a', at: 0 },
          { name: 'b', at: '<speak><mark name="a"/>Hello '.length },
        ],
      ],
      [
        'Slow words',
        [
          { name: 'c', at: '<prosody rate="slow">Slow '.length },
          { name: 'end', at: countCodePoints('<prosody rate="slow">Slow <mark name="c"/>words</prosody><mark name="end"/></speak>') },
        ],
      ],
    ]);
  });
});
