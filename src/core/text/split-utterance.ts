// Splits input text into speakable chunks (sentences, then clauses for long sentences) so audio can
// stream chunk by chunk. Chunks partition the input exactly: their code point counts add up to the
// whole text, which lets a cancelled utterance bill only the chunks whose audio was produced.

import { countCodePoints } from '../../util/code-points.js';

export interface TextChunk {
  /** The chunk's text, trimmed, as sent to the engine. Empty when the chunk has nothing to say. */
  readonly text: string;
  /** Code points of the original input this chunk covers (including surrounding whitespace). */
  readonly codePoints: number;
  /** Silence after the chunk: longer after a sentence than after a clause. */
  readonly pauseAfterMs: number;
}

export interface SplitOptions {
  /** The first chunk is cut at a clause mark or space before this many code points, for early first audio. */
  readonly firstChunkMaxChars: number;
  /** Later sentences longer than this are cut at clause marks. */
  readonly maxChunkChars: number;
}

export const SENTENCE_PAUSE_MS = 250;
export const CLAUSE_PAUSE_MS = 120;

const SENTENCE_END = new Set(['.', '?', '!', '।', '॥', '\n']);
const CLAUSE_MARK = new Set([',', ';', ':', '—', '–']);
// Period after these does not end a sentence (compared case-insensitively, without the period).
const ABBREVIATIONS = new Set(['dr', 'mr', 'mrs', 'ms', 'rs', 'no', 'st', 'sr', 'jr', 'prof', 'vs', 'etc', 'eg', 'ie', 'mt', 'smt', 'shri', 'govt', 'approx', 'inc', 'ltd', 'co']);

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && /\p{Nd}/u.test(ch);
}

/** True when the period at `index` ends a sentence rather than a decimal, time or abbreviation. */
function periodEndsSentence(chars: readonly string[], index: number): boolean {
  const prev = chars[index - 1];
  const next = chars[index + 1];
  if (isDigit(prev) && isDigit(next)) return false; // 3.14, 10.30
  if (next !== undefined && !/\s/u.test(next) && !/["')\]]/u.test(next)) return false; // example.com, a.m.
  let start = index;
  while (start > 0 && /\p{L}/u.test(chars[start - 1] ?? '')) start--;
  const word = chars.slice(start, index).join('').toLowerCase();
  if (ABBREVIATIONS.has(word)) return false;
  if (word.length === 1 && /[a-z]/.test(word)) return false; // initials: A. P. J.
  return true;
}

interface Span {
  readonly chars: string[];
  readonly endsSentence: boolean;
}

/** Sentence spans; each keeps its trailing whitespace so spans partition the input. */
function splitSentences(chars: readonly string[]): Span[] {
  const spans: Span[] = [];
  let current: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    current.push(ch);
    const isEnd = SENTENCE_END.has(ch) && (ch !== '.' || periodEndsSentence(chars, i));
    if (!isEnd) continue;
    // Keep runs like "?!" or "।।" and following closing quotes/spaces with this sentence.
    while (i + 1 < chars.length && (SENTENCE_END.has(chars[i + 1] as string) || /[\s"')\]]/u.test(chars[i + 1] as string))) {
      current.push(chars[++i] as string);
    }
    spans.push({ chars: current, endsSentence: true });
    current = [];
  }
  if (current.length > 0) spans.push({ chars: current, endsSentence: true });
  return spans;
}

/** Cuts a span at the last clause mark (else last space, else hard) at or before `limit` code points. */
function cutSpan(span: Span, limit: number): [Span, Span] | null {
  if (span.chars.length <= limit) return null;
  let cut = -1;
  for (let i = Math.min(limit, span.chars.length) - 1; i > 0; i--) {
    if (CLAUSE_MARK.has(span.chars[i] as string)) {
      cut = i + 1;
      break;
    }
  }
  if (cut < 0) {
    for (let i = Math.min(limit, span.chars.length) - 1; i > 0; i--) {
      if (/\s/u.test(span.chars[i] as string)) {
        cut = i + 1;
        break;
      }
    }
  }
  if (cut < 0) cut = limit;
  while (cut < span.chars.length && /\s/u.test(span.chars[cut] as string)) cut++;
  if (cut >= span.chars.length) return null;
  return [
    { chars: span.chars.slice(0, cut), endsSentence: false },
    { chars: span.chars.slice(cut), endsSentence: span.endsSentence },
  ];
}

export function splitUtterance(text: string, options: SplitOptions): TextChunk[] {
  const chars = [...text];
  const pending = splitSentences(chars);
  const chunks: TextChunk[] = [];
  while (pending.length > 0) {
    const span = pending.shift() as Span;
    const limit = chunks.length === 0 ? options.firstChunkMaxChars : options.maxChunkChars;
    const parts = cutSpan(span, limit);
    if (parts) {
      pending.unshift(parts[1]);
      pending.unshift(parts[0]);
      // Re-run with the head alone: it now fits.
      const head = pending.shift() as Span;
      chunks.push(toChunk(head));
      continue;
    }
    chunks.push(toChunk(span));
  }
  return chunks;
}

function toChunk(span: Span): TextChunk {
  const raw = span.chars.join('');
  return {
    text: raw.trim(),
    codePoints: countCodePoints(raw),
    pauseAfterMs: span.endsSentence ? SENTENCE_PAUSE_MS : CLAUSE_PAUSE_MS,
  };
}

/** True when a chunk has letters or digits to speak (pure punctuation yields no engine call). */
export function isSpeakable(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
