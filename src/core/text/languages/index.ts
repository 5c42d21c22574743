// The language pack for each of the eight service languages.

import { LANGUAGE_CODES, type LanguageCode } from '../../../languages.js';
import { bengali } from './bn.js';
import { english } from './en.js';
import { gujarati } from './gu.js';
import { hindi } from './hi.js';
import { kannada } from './kn.js';
import type { LanguagePack } from './language-pack.js';
import { marathi } from './mr.js';
import { tamil } from './ta.js';
import { telugu } from './te.js';

const PACKS: Readonly<Record<LanguageCode, LanguagePack>> = {
  'en-IN': english,
  'hi-IN': hindi,
  'ta-IN': tamil,
  'te-IN': telugu,
  'kn-IN': kannada,
  'mr-IN': marathi,
  'gu-IN': gujarati,
  'bn-IN': bengali,
};

export function languagePack(language: LanguageCode): LanguagePack {
  return PACKS[language];
}

/** Every language's month names, twelve per language, January first: dates may name months in any of them. */
export const ALL_MONTH_NAMES: readonly string[] = LANGUAGE_CODES.flatMap((code) => PACKS[code].months);
