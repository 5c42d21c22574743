// The text front end's entry points: the text to hand an engine for a range of the input (markup gone,
// numbers, money, dates and symbols in words of the language), and the same for a whole input.

import type { LanguageCode } from '../../languages.js';
import { withLexicon, type TextLexicon } from './apply-lexicon.js';
import { findReplacements, type Replacement } from './find-replacements.js';
import { languagePack } from './languages/index.js';
import { isSsml, parseSsml } from './ssml.js';
import { plainSource, type SourceText } from './source-text.js';

/** Plain text as it is; SSML-lite (text starting with `<speak`) parsed, or a `validation_error` when malformed. */
export function toSourceText(text: string): SourceText {
  return isSsml(text) ? parseSsml(text) : plainSource(text);
}

/** What to read instead of the written forms; without a language, only the author's `<sub>` and say-as content. */
export function replacementsFor(source: SourceText, language: LanguageCode | undefined): Replacement[] {
  if (language) return findReplacements(source, languagePack(language));
  return source.forced.map((span) => ({
    start: span.start,
    end: span.end,
    spoken: span.alias ?? source.chars.slice(span.start, span.end).join(''),
  }));
}

/**
 * The engine text for source characters [start, end): replacements (which never straddle the range) spoken,
 * the rest as written, whitespace collapsed. Plain text: eSpeak and other engines get no markup from us.
 */
export function spokenText(source: SourceText, replacements: readonly Replacement[], start: number, end: number): string {
  return spokenTextMapped(source, replacements, start, end).text;
}

/** Engine text and, for each of its code points, how much of the input it accounts for (spokenText's map). */
export interface MappedSpokenText {
  readonly text: string;
  /**
   * `sourceAt[k]`: input code points (weights, counted from `start`) fully spoken once the first k code points of
   * `text` have been. A replacement counts only when its last spoken character has: "one lakh" of ₹1,25,000 is not
   * the amount.
   */
  readonly sourceAt: readonly number[];
}

const CLOSING_PUNCTUATION = /^[,.;:!?।॥]$/u;
const WHITESPACE = /^\s$/u;

export function spokenTextMapped(source: SourceText, replacements: readonly Replacement[], start: number, end: number): MappedSpokenText {
  const chars: string[] = [];
  const after: number[] = [];
  const push = (char: string, sourceAfter: number): void => {
    chars.push(char);
    after.push(sourceAfter);
  };
  let weight = 0;
  const literal = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      weight += source.weights[i] as number;
      push(source.chars[i] as string, weight);
    }
  };
  let i = start;
  // Replacements are sorted and non-overlapping: skip those before the range by bisection, not one by one (a text
  // of 1000 one-number sentences would otherwise walk 1000 replacements for each of its 1000 chunks).
  for (let k = firstEndingAfter(replacements, start); k < replacements.length; k++) {
    const replacement = replacements[k] as Replacement;
    if (replacement.end <= start || replacement.start < i) continue;
    if (replacement.start >= end) break;
    literal(i, replacement.start);
    push(' ', weight);
    const spoken = [...replacement.spoken];
    let whole = weight;
    for (let r = replacement.start; r < replacement.end; r++) whole += source.weights[r] as number;
    spoken.forEach((char, index) => push(char, index === spoken.length - 1 ? whole : weight));
    weight = whole;
    push(' ', weight);
    i = replacement.end;
  }
  literal(i, end);
  return collapse(chars, after);
}

/** Index of the first replacement ending after `position` (`replacements.length` when none does). */
function firstEndingAfter(replacements: readonly Replacement[], position: number): number {
  let low = 0;
  let high = replacements.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((replacements[middle] as Replacement).end <= position) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whitespace runs to one space, no space before closing punctuation, trimmed: the map follows each character. */
function collapse(chars: readonly string[], after: readonly number[]): MappedSpokenText {
  const out: string[] = [];
  const sourceAt: number[] = [0];
  for (let k = 0; k < chars.length; k++) {
    const char = chars[k] as string;
    const sourceAfter = after[k] as number;
    if (WHITESPACE.test(char)) {
      if (out.length === 0) continue;
      if (out[out.length - 1] === ' ') {
        sourceAt[out.length] = sourceAfter;
        continue;
      }
      out.push(' ');
      sourceAt.push(sourceAfter);
      continue;
    }
    if (CLOSING_PUNCTUATION.test(char) && out[out.length - 1] === ' ') {
      out[out.length - 1] = char;
      sourceAt[out.length] = sourceAfter;
      continue;
    }
    out.push(char);
    sourceAt.push(sourceAfter);
  }
  if (out[out.length - 1] === ' ') {
    out.pop();
    sourceAt.pop();
  }
  return { text: out.join(''), sourceAt };
}

/** The whole input as an engine would hear it (tests and tools; synthesis goes chunk by chunk). */
export function normalizeText(text: string, language: LanguageCode, lexicon?: TextLexicon): string {
  const source = withLexicon(toSourceText(text), lexicon);
  return spokenText(source, replacementsFor(source, language), 0, source.chars.length);
}
