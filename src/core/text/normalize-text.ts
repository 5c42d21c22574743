// The text front end's entry points: the text to hand an engine for a range of the input (markup gone,
// numbers, money, dates and symbols in words of the language), and the same for a whole input.

import type { LanguageCode } from '../../languages.js';
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
  const parts: string[] = [];
  let i = start;
  for (const replacement of replacements) {
    if (replacement.end <= start || replacement.start < i) continue;
    if (replacement.start >= end) break;
    parts.push(source.chars.slice(i, replacement.start).join(''), ` ${replacement.spoken} `);
    i = replacement.end;
  }
  parts.push(source.chars.slice(i, end).join(''));
  return parts
    .join('')
    .replace(/\s+/gu, ' ')
    .replace(/ ([,.;:!?।॥])/gu, '$1')
    .trim();
}

/** The whole input as an engine would hear it (tests and tools; synthesis goes chunk by chunk). */
export function normalizeText(text: string, language: LanguageCode): string {
  const source = toSourceText(text);
  return spokenText(source, replacementsFor(source, language), 0, source.chars.length);
}
