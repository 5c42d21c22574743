// How identifiers are read: codes that mix letters and digits (`6E-2134`, `AB12CD34`, `HDFC0001234`), vehicle
// registrations (`MH 12 AB 1234`) and hyphenated digit codes (`4521-873`) letter by letter and digit by digit, with
// a pause at each hyphen or written group. Pure functions of the text and the language's digit names.

import type { LanguagePack } from './languages/language-pack.js';
import { digitNames, groupedDigits, GROUP_PAUSE } from './verbalize.js';

/** A letter run this long or longer is a word (`COVID`, `iPhone`), not letters to spell. */
const SPELL_MAX_LETTERS = 4;

/**
 * A code's words: letter runs spelled (short) or kept (words), digit runs named; each hyphen-, space- or
 * slash-separated part read on its own, a pause between parts.
 */
export function codeWords(code: string, pack: LanguagePack): string {
  let afterWord = false;
  const partWords = (part: string): string => {
    const spoken: string[] = [];
    for (const run of part.match(/[A-Za-z]+|\d+/gu) ?? []) {
      if (/^\d/u.test(run)) {
        // `COVID-19`, `iPhone15`: a short number after a word is a number, as people say it.
        spoken.push(afterWord && run.length <= 2 ? pack.cardinal(Number(run)) : run.length > 4 ? groupedDigits(run, pack) : digitNames(run, pack));
        afterWord = false;
      } else if (run.length > SPELL_MAX_LETTERS) {
        spoken.push(run);
        afterWord = true;
      } else {
        spoken.push([...run.toUpperCase()].join(' '));
        afterWord = false;
      }
    }
    return spoken.join(' ');
  };
  const parts = code.split(/[\s/-]+/u).filter((part) => part !== '');
  const spoken = parts.map(partWords);
  // A word then its number is one name (`COVID nineteen`), not two parts.
  return spoken.reduce((text, part, k) => (k === 0 ? part : /^[A-Za-z]{5,}$/u.test(parts[k - 1] ?? '') && /^\d{1,2}$/u.test(parts[k] ?? '') ? `${text} ${part}` : `${text}${GROUP_PAUSE}${part}`), '');
}

/** True when a token mixes letters and digits: a code, not a word or a number. */
export function isMixedCode(token: string): boolean {
  return /\p{L}/u.test(token) && /\d/u.test(token);
}

/**
 * Hyphenated digits that are a code, not a range: three or more groups (`1234-5678-9012`), a group with a leading
 * zero (`0123-456`), or a second group smaller than the first (`4521-873`: no range runs downwards).
 */
export function isDigitCode(groups: readonly string[]): boolean {
  if (groups.length >= 3) return true;
  const [first = '', second = ''] = groups;
  return /^0\d/u.test(first) || /^0\d/u.test(second) || Number(second) < Number(first);
}
