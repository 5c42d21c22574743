// Text that arrives in pieces (an LLM's tokens forwarded as they are written) cut into segments that can be spoken
// at once: a segment ends where a sentence ends, or at a clause mark once enough text waits, so synthesis starts
// after the first whole clause instead of after the whole reply. A segment is never cut where more text could still
// change its reading: a sentence mark must be followed by a space ("3." may become "3.5", "Rs." an abbreviation).
// The pending text is bounded: past `maxPendingChars` without any mark it is cut at its last space, else hard.

import { sentenceSpans } from './sentence-ends.js';
import { CLAUSE_PAUSE_MS, SENTENCE_PAUSE_MS } from './split-utterance.js';

export interface StreamedTextOptions {
  /** Pending text this long (UTF-16 units) or longer is cut at its last clause mark followed by a space. */
  readonly clauseCutChars: number;
  /** Pending text is never longer than this: a cut at the last space, else at this length. */
  readonly maxPendingChars: number;
}

/** One piece of text ready to speak, and what kind of boundary ended it. */
export interface StreamedSegment {
  readonly text: string;
  readonly endsSentence: boolean;
  /**
   * The silence to speak after it (the Utterance's `trailingPauseMs`): what the chunker puts after a sentence or a
   * clause inside one text; none after a flush, where the speaker has stopped until more text comes.
   */
  readonly pauseAfterMs: number;
}

const CLAUSE_MARK_THEN_SPACE = /[,;:—–]\s/gu;
const SPACE = /\s/u;
/** A letter standing for text still to come. */
const MORE_TEXT = 'x';

export class StreamedText {
  #pending = '';

  constructor(private readonly options: StreamedTextOptions) {}

  /** Text received and not yet released as a segment. */
  get pending(): string {
    return this.#pending;
  }

  /** Adds a piece; returns the segments it completed, in order (often none). */
  append(piece: string): StreamedSegment[] {
    this.#pending += piece;
    const out: StreamedSegment[] = [];
    for (;;) {
      const segment = this.#nextSegment();
      if (!segment) return out;
      out.push(segment);
    }
  }

  /** Releases everything pending as one segment (undefined when nothing but whitespace waits). */
  flush(): StreamedSegment | undefined {
    const text = this.#pending;
    this.#pending = '';
    return text.trim().length > 0 ? { text, endsSentence: true, pauseAfterMs: 0 } : undefined;
  }

  /** Drops what is pending (a context closed or interrupted): it will not be spoken. */
  discard(): string {
    const text = this.#pending;
    this.#pending = '';
    return text;
  }

  #nextSegment(): StreamedSegment | undefined {
    // Only the first `maxPendingChars` can make the next segment, so a 60 KiB piece costs linear time, not quadratic.
    const limit = this.options.maxPendingChars;
    const window = this.#pending.slice(0, limit + 1);
    if (window.trim().length === 0) return undefined;
    const sentenceEnd = completeSentenceEnd(window);
    if (sentenceEnd > 0) return this.#take(sentenceEnd, true);
    if (window.length >= this.options.clauseCutChars) {
      const clauseEnd = lastClauseEnd(window.slice(0, limit));
      if (clauseEnd > 0) return this.#take(clauseEnd, false);
    }
    if (window.length > limit) {
      let cut = limit;
      while (cut > 0 && !SPACE.test(window[cut - 1] as string)) cut--;
      // No space at all in the window: a hard cut, never inside a surrogate pair.
      if (cut === 0) cut = isHighSurrogate(window.charCodeAt(limit - 1)) ? limit - 1 : limit;
      return this.#take(cut, false);
    }
    return undefined;
  }

  #take(end: number, endsSentence: boolean): StreamedSegment {
    const text = this.#pending.slice(0, end);
    this.#pending = this.#pending.slice(end);
    return { text, endsSentence, pauseAfterMs: endsSentence ? SENTENCE_PAUSE_MS : CLAUSE_PAUSE_MS };
  }
}

/**
 * Where the first complete sentence of `text` ends (its marks and following spaces included), in UTF-16 units; 0 when
 * none is complete yet. A sentence at the very end counts only once a space follows its mark: the chunker's own rule
 * (sentence-ends.ts) decides, asked as if more text followed, so "Dr. " or "3." never end one early.
 */
function completeSentenceEnd(text: string): number {
  const chars = Array.from(text);
  const spans = sentenceSpans([...chars, MORE_TEXT]);
  const first = spans[0];
  if (!first || spans.length < 2) return 0;
  if (first.end >= chars.length && !SPACE.test(chars[chars.length - 1] as string)) return 0;
  return chars.slice(0, Math.min(first.end, chars.length)).join('').length;
}

/** The end (after its space) of the last clause mark followed by a space, or 0. */
function lastClauseEnd(text: string): number {
  let end = 0;
  for (const match of text.matchAll(CLAUSE_MARK_THEN_SPACE)) end = (match.index ?? 0) + match[0].length;
  return end;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
