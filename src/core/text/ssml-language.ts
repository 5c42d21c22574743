// The language of an SSML `xml:lang`: one of the eight, matched on its primary subtag, since Raaga speaks one variety of
// each ("en-US", "en-GB" and "en" are read as en-IN, "hi" as hi-IN); any other language is unknown (undefined).

import { LANGUAGE_CODES, type LanguageCode } from '../../languages.js';

const BY_PRIMARY = new Map<string, LanguageCode>(LANGUAGE_CODES.map((code) => [code.split('-')[0] as string, code]));

export function ssmlLanguage(tag: string): LanguageCode | undefined {
  const match = /^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*\s*$/u.exec(tag);
  return match ? BY_PRIMARY.get((match[1] as string).toLowerCase()) : undefined;
}
