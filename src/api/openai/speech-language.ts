// The language of an OpenAI speech request, which OpenAI's API has no field for: the `language` extra, else the
// voice's suffix (`priya:hi-IN`), else the input's script (core/text/script-language.ts). Accounts keep no default
// language in the store, so there is no account step. Names are Raaga's BCP 47 codes or their ISO 639-1 halves.

import { ApiError } from '../../errors.js';
import { languageOfScript } from '../../core/text/script-language.js';
import { LANGUAGE_CODES, type LanguageCode } from '../../languages.js';

/** `hi`, `hi-in`, `HI_IN` → `hi-IN`: case and separator as clients happen to write them. */
const BY_NAME = new Map<string, LanguageCode>(LANGUAGE_CODES.flatMap((code) => [[code.toLowerCase(), code] as const, [code.slice(0, 2), code] as const]));

const ACCEPTED = `${LANGUAGE_CODES.join(', ')} (or ${LANGUAGE_CODES.map((code) => code.slice(0, 2)).join(', ')})`;

/** A language as a client names it, or undefined when it is none of Raaga's eight. */
export function parseLanguage(name: string): LanguageCode | undefined {
  return BY_NAME.get(name.trim().toLowerCase().replace('_', '-'));
}

/** The same, refusing what is not one of the eight as a 400 naming the field. */
export function requireLanguage(name: string, field: string, what: string): LanguageCode {
  const language = parseLanguage(name);
  if (language === undefined) throw new ApiError('validation_error', `${what} '${name}' is not a language Raaga speaks; use one of ${ACCEPTED}.`, { field });
  return language;
}

export type LanguageSource = 'language' | 'voice' | 'script';

/** The first of: the request's `language`, the voice's suffix, the input's script; with where it came from. */
export function speechLanguage(fromField: LanguageCode | undefined, fromVoice: LanguageCode | undefined, input: string): { language: LanguageCode; source: LanguageSource } {
  if (fromField !== undefined) return { language: fromField, source: 'language' };
  if (fromVoice !== undefined) return { language: fromVoice, source: 'voice' };
  return { language: languageOfScript(input), source: 'script' };
}
