// Which of Raaga's languages a text's script points to, for requests that name no language (the OpenAI dialect):
// the Indic script with the most letters wins, since Raaga's Indic front ends read embedded English and the English
// one cannot read Indic letters; a text without Indic letters is en-IN. Devanagari is Hindi: Marathi shares the
// script, and only the request can say it is Marathi. One pass over the code points, no regular expression.

import type { LanguageCode } from '../../languages.js';

/** Unicode blocks of the scripts Raaga speaks, by the language each stands for. */
const SCRIPT_BLOCKS: readonly (readonly [first: number, last: number, language: LanguageCode])[] = [
  [0x0900, 0x097f, 'hi-IN'], // Devanagari
  [0xa8e0, 0xa8ff, 'hi-IN'], // Devanagari Extended
  [0x0980, 0x09ff, 'bn-IN'], // Bengali
  [0x0a80, 0x0aff, 'gu-IN'], // Gujarati
  [0x0b80, 0x0bff, 'ta-IN'], // Tamil
  [0x0c00, 0x0c7f, 'te-IN'], // Telugu
  [0x0c80, 0x0cff, 'kn-IN'], // Kannada
];

/** Below this nothing is an Indic letter (the common case: Latin text skips the block search). */
const FIRST_INDIC = 0x0900;
/** The danda and double danda sit in the Devanagari block but end sentences in Bengali and other scripts too. */
const DANDA = 0x0964;
const DOUBLE_DANDA = 0x0965;

/**
 * The language whose Indic script holds this code point (Devanagari as Hindi), or undefined for Latin, digits,
 * punctuation, the dandas (shared by several scripts) and every other script.
 */
export function indicScriptLanguage(codePoint: number): LanguageCode | undefined {
  if (codePoint < FIRST_INDIC || codePoint === DANDA || codePoint === DOUBLE_DANDA) return undefined;
  for (const [first, last, language] of SCRIPT_BLOCKS) if (codePoint >= first && codePoint <= last) return language;
  return undefined;
}

export function languageOfScript(text: string): LanguageCode {
  const counts = new Map<LanguageCode, number>();
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (codePoint < FIRST_INDIC || codePoint === DANDA || codePoint === DOUBLE_DANDA) continue;
    for (const [first, last, language] of SCRIPT_BLOCKS) {
      if (codePoint >= first && codePoint <= last) {
        counts.set(language, (counts.get(language) ?? 0) + 1);
        break;
      }
    }
  }
  let best: LanguageCode = 'en-IN';
  let most = 0;
  for (const [language, count] of counts) {
    if (count > most) {
      best = language;
      most = count;
    }
  }
  return best;
}
