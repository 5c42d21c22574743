// What a lexicon entry may say, checked before any store is written (the API, `raaga lexicon`, `raaga store import`):
// a grapheme and an alias or phonemes, each within its length; a grapheme in Latin letters or in its own language's
// script; an alias that does not say its own grapheme again; phonemes an engine could read; no entry twice. Entries
// come back canonical (NFC, trimmed, one space between words), which is how the stores keep them.
// Refusals are `validation_error`s naming the entry (`entries[3]`, `line 4`, `lexeme 2`) and the field.

import { ApiError } from '../../errors.js';
import { LANGUAGE_CODES, type LanguageCode } from '../../languages.js';
import { LEXICON_LIMITS, LEXICON_NAME_PATTERN, PHONEME_ALPHABETS, type LexiconEntry, type LexiconEntryRef } from '../../store/lexicon.js';
import { countCodePoints } from '../../util/code-points.js';
import { LexiconMatcher, matchKey } from '../text/lexicon-matcher.js';
import { indicScriptLanguage } from '../text/script-language.js';
import { phonemesAsIpa } from './phonemes.js';

/** An entry as a client writes it: one of alias or phoneme (with its alphabet). */
export interface LexiconEntryInput {
  readonly language: string;
  readonly grapheme: string;
  readonly alias?: string | undefined;
  readonly phoneme?: string | undefined;
  readonly alphabet?: string | undefined;
}

/** How refusals name an entry: `entries[3]` over the API, `line 5` in a CSV file, `lexeme 2` in a PLS one. */
export type EntryLabel = (index: number) => string;
export const JSON_ENTRY_LABEL: EntryLabel = (index) => `entries[${index}]`;

/** The Indic script each language writes in (Marathi shares Devanagari with Hindi). */
const SCRIPT_OF: Readonly<Record<LanguageCode, { readonly block: LanguageCode | undefined; readonly name: string }>> = {
  'en-IN': { block: undefined, name: 'Latin' },
  'hi-IN': { block: 'hi-IN', name: 'Devanagari' },
  'mr-IN': { block: 'hi-IN', name: 'Devanagari' },
  'bn-IN': { block: 'bn-IN', name: 'Bengali' },
  'gu-IN': { block: 'gu-IN', name: 'Gujarati' },
  'ta-IN': { block: 'ta-IN', name: 'Tamil' },
  'te-IN': { block: 'te-IN', name: 'Telugu' },
  'kn-IN': { block: 'kn-IN', name: 'Kannada' },
};
const SCRIPT_NAME_OF_BLOCK: Readonly<Partial<Record<LanguageCode, string>>> = {
  'hi-IN': 'Devanagari', 'bn-IN': 'Bengali', 'gu-IN': 'Gujarati', 'ta-IN': 'Tamil', 'te-IN': 'Telugu', 'kn-IN': 'Kannada',
};

const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LATIN_OR_SHARED = /[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;
/** Control, format (but ZWJ and ZWNJ, which Indic spelling needs), surrogate, private-use and unassigned code points. */
const UNSPEAKABLE = /[\p{Cc}\p{Cs}\p{Co}\p{Cn}]|(?![\u200c\u200d])\p{Cf}/u;

function refuse(where: string, field: string, problem: string): ApiError {
  return new ApiError('validation_error', `Lexicon ${where}: '${field}' ${problem}.`, { field: `${where}.${field}` });
}

/** NFC, trimmed, whitespace runs as one space: the form entries are stored and matched in. */
export function canonicalText(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

function codePointName(char: string): string {
  return `'${char}' (U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')})`;
}

/** The first character of `grapheme` that the language cannot write, as a refusal's reason; undefined when none. */
function scriptProblem(grapheme: string, language: LanguageCode): string | undefined {
  const own = SCRIPT_OF[language];
  for (const char of grapheme) {
    const block = indicScriptLanguage(char.codePointAt(0) as number);
    if (block !== undefined) {
      if (block === own.block) continue;
      return `has ${codePointName(char)}, a ${SCRIPT_NAME_OF_BLOCK[block]} letter, but the entry is ${language} (${own.block ? `${own.name} or Latin` : 'Latin'} letters); declare it under the language that writes it`;
    }
    if (LETTER_OR_MARK.test(char) && !LATIN_OR_SHARED.test(char)) {
      return `has ${codePointName(char)}, in a script none of Raaga's languages is written in (${language} takes ${own.block ? `${own.name} or Latin` : 'Latin'} letters)`;
    }
  }
  return undefined;
}

function checkText(value: unknown, where: string, field: string, max: number): string {
  if (typeof value !== 'string') throw refuse(where, field, 'must be a string');
  const text = canonicalText(value);
  if (text === '') throw refuse(where, field, 'must not be empty');
  const length = countCodePoints(text);
  if (length > max) throw refuse(where, field, `is ${length} characters; the most is ${max}`);
  const bad = UNSPEAKABLE.exec(text);
  if (bad) throw refuse(where, field, `has the control or unassigned character ${codePointName(bad[0])}`);
  if (!LETTER_OR_DIGIT.test(text)) throw refuse(where, field, 'has no letter or digit to say');
  return text;
}

/** True when `alias` says `grapheme` again as a whole word (as the matcher would find it). */
function aliasRepeatsGrapheme(grapheme: string, alias: string): boolean {
  const builder = LexiconMatcher.builder<true>();
  builder.add(grapheme, true);
  return builder.build().find([...alias]).length > 0;
}

/** One entry checked and made canonical; throws a `validation_error` naming `where` and the field. */
export function checkLexiconEntry(input: LexiconEntryInput, where: string): LexiconEntry {
  if (typeof input !== 'object' || input === null) throw new ApiError('validation_error', `Lexicon ${where} must be an object with language, grapheme and alias (or phoneme and alphabet).`);
  const { language } = input;
  if (typeof language !== 'string' || !(LANGUAGE_CODES as readonly string[]).includes(language)) {
    throw refuse(where, 'language', `must be one of ${LANGUAGE_CODES.join(', ')}`);
  }
  const code = language as LanguageCode;
  const grapheme = checkText(input.grapheme, where, 'grapheme', LEXICON_LIMITS.graphemeCodePoints);
  const problem = scriptProblem(grapheme, code);
  if (problem) throw refuse(where, 'grapheme', problem);
  const hasAlias = input.alias !== undefined;
  const hasPhoneme = input.phoneme !== undefined || input.alphabet !== undefined;
  if (hasAlias === hasPhoneme) throw new ApiError('validation_error', `Lexicon ${where} ('${grapheme}') needs either 'alias' or 'phoneme' with 'alphabet', not ${hasAlias ? 'both' : 'neither'}.`, { field: where });
  if (hasAlias) {
    const alias = checkText(input.alias, where, 'alias', LEXICON_LIMITS.aliasCodePoints);
    if (aliasRepeatsGrapheme(grapheme, alias)) {
      throw refuse(where, 'alias', `says '${grapheme}' again, the word it replaces (a loop); write how the word sounds instead, e.g. letters apart or in another script`);
    }
    return { language: code, grapheme, alias };
  }
  if (typeof input.alphabet !== 'string' || !(PHONEME_ALPHABETS as readonly string[]).includes(input.alphabet)) {
    throw refuse(where, 'alphabet', `must be one of ${PHONEME_ALPHABETS.join(', ')}${typeof input.alphabet === 'string' ? `, not '${input.alphabet}'` : ''}`);
  }
  const alphabet = input.alphabet as (typeof PHONEME_ALPHABETS)[number];
  const phoneme = checkText(input.phoneme ?? '', where, 'phoneme', LEXICON_LIMITS.phonemeCodePoints);
  const checked = phonemesAsIpa(phoneme, alphabet);
  if (!checked.ok) throw refuse(where, 'phoneme', `${checked.problem}`);
  return { language: code, grapheme, phoneme, alphabet };
}

/** What makes two entries one: their language and their grapheme as the matcher compares it. */
export function sameEntryKey(entry: LexiconEntryRef): string {
  return `${entry.language}\u0000${matchKey(entry.grapheme).join(',')}`;
}

/** Every entry checked (the first problem refused, nothing kept), none twice. */
export function checkLexiconEntries(inputs: readonly LexiconEntryInput[], label: EntryLabel = JSON_ENTRY_LABEL): LexiconEntry[] {
  if (inputs.length > LEXICON_LIMITS.entriesPerLexicon) {
    throw new ApiError('validation_error', `A lexicon holds at most ${LEXICON_LIMITS.entriesPerLexicon} entries; this one has ${inputs.length}. Split it into several lexicons.`, {
      field: 'entries',
    });
  }
  const seen = new Map<string, number>();
  return inputs.map((input, index) => {
    const entry = checkLexiconEntry(input, label(index));
    const key = sameEntryKey(entry);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new ApiError('validation_error', `Lexicon ${label(index)} (${entry.language} '${entry.grapheme}') repeats ${label(earlier)}; keep one of them.`, { field: label(index) });
    }
    seen.set(key, index);
    return entry;
  });
}

/** A lexicon name, or a `validation_error` saying what one looks like. */
export function checkLexiconName(name: string, field = 'name'): string {
  if (!LEXICON_NAME_PATTERN.test(name)) {
    throw new ApiError('validation_error', `Lexicon name '${name.slice(0, 80)}' is not valid: use 1-64 of a-z, 0-9, _ and -.`, { field });
  }
  return name;
}

/** The entry a removal names, canonical as stored. */
export function checkEntryRef(input: { readonly language: string; readonly grapheme: string }, where: string): LexiconEntryRef {
  if (!(LANGUAGE_CODES as readonly string[]).includes(input.language)) throw refuse(where, 'language', `must be one of ${LANGUAGE_CODES.join(', ')}`);
  const grapheme = canonicalText(String(input.grapheme));
  if (grapheme === '') throw refuse(where, 'grapheme', 'must not be empty');
  return { language: input.language as LanguageCode, grapheme };
}
