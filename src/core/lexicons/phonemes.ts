// The phonemes of a lexicon entry: IPA checked symbol by symbol, X-SAMPA converted to IPA by its table (the ASCII
// spelling of IPA that Google and eSpeak accept), so an entry no engine could read is refused when it is written, not
// when it is spoken. Where they are used: docs/lexicons.md ("Phoneme entries": no engine takes them yet).

import type { PhonemeAlphabet } from '../../store/lexicon.js';

/** IPA's letters, diacritics and suprasegmentals, by code point range (the IPA chart's symbols, with extensions). */
const IPA_RANGES: readonly (readonly [number, number])[] = [
  [0x61, 0x7a], // a-z
  [0x20, 0x20], // a space between words
  [0x2e, 0x2e], // . syllable break
  [0x7c, 0x7c], // | minor group
  [0xe6, 0xe6], // æ
  [0xe7, 0xe7], // ç
  [0xf0, 0xf0], // ð
  [0xf8, 0xf8], // ø
  [0x127, 0x127], // ħ
  [0x14b, 0x14b], // ŋ
  [0x153, 0x153], // œ
  [0x1c0, 0x1c3], // ǀ ǁ ǂ ǃ clicks
  [0x250, 0x2af], // IPA Extensions
  [0x2b0, 0x2ff], // Spacing Modifier Letters: ʰ ʲ ʷ ˈ ˌ ː ˑ, tone letters
  [0x300, 0x36f], // Combining Diacritical Marks (tie bars included)
  [0x3b2, 0x3b2], // β
  [0x3b8, 0x3b8], // θ
  [0x3c7, 0x3c7], // χ
  [0x1d00, 0x1dbf], // Phonetic Extensions
  [0x1dc0, 0x1dff], // Combining Diacritical Marks Supplement
  [0x2016, 0x2016], // ‖ major group
  [0x203f, 0x203f], // ‿ linking
  [0x2071, 0x207f], // ⁱ ⁿ
  [0x2191, 0x2198], // ↑ ↓ ↗ ↘ intonation
  [0x2c71, 0x2c71], // ⱱ
  [0xa71b, 0xa71c], // ꜛ ꜜ
];

function isIpa(codePoint: number): boolean {
  return IPA_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
}

/** ASCII look-alikes people type for IPA symbols, named in the refusal so the fix is one character. */
const IPA_HINTS: Readonly<Record<string, string>> = { ':': 'ː (U+02D0)', "'": 'ˈ (U+02C8)', ',': 'ˌ (U+02CC)' };

/**
 * X-SAMPA symbols to IPA (longest symbol first when tokenizing). Lower-case letters are themselves (but g → ɡ);
 * a backslash, backtick or `_` continues a symbol.
 */
const X_SAMPA: Readonly<Record<string, string>> = {
  a: 'a', b: 'b', c: 'c', d: 'd', e: 'e', f: 'f', g: 'ɡ', h: 'h', i: 'i', j: 'j', k: 'k', l: 'l', m: 'm', n: 'n', o: 'o', p: 'p', q: 'q', r: 'r',
  s: 's', t: 't', u: 'u', v: 'v', w: 'w', x: 'x', y: 'y', z: 'z',
  A: 'ɑ', B: 'β', C: 'ç', D: 'ð', E: 'ɛ', F: 'ɱ', G: 'ɣ', H: 'ɥ', I: 'ɪ', J: 'ɲ', K: 'ɬ', L: 'ʎ', M: 'ɯ', N: 'ŋ', O: 'ɔ', P: 'ʋ', Q: 'ɒ', R: 'ʁ',
  S: 'ʃ', T: 'θ', U: 'ʊ', V: 'ʌ', W: 'ʍ', X: 'χ', Y: 'ʏ', Z: 'ʒ',
  '1': 'ɨ', '2': 'ø', '3': 'ɜ', '4': 'ɾ', '5': 'ɫ', '6': 'ɐ', '7': 'ɤ', '8': 'ɵ', '9': 'œ', '&': 'ɶ', '@': 'ə', '{': 'æ', '}': 'ʉ', '?': 'ʔ',
  'b_<': 'ɓ', 'd_<': 'ɗ', 'g_<': 'ʛ', 'J\\_<': 'ʄ', 'G\\_<': 'ʠ',
  'B\\': 'ʙ', 'G\\': 'ɢ', 'H\\': 'ʜ', 'I\\': 'ᵻ', 'J\\': 'ɟ', 'K\\': 'ɮ', 'L\\': 'ʟ', 'M\\': 'ɰ', 'N\\': 'ɴ', 'O\\': 'ʘ', 'R\\': 'ʀ', 'U\\': 'ᵿ',
  'X\\': 'ħ', 'h\\': 'ɦ', 'j\\': 'ʝ', 'l\\': 'ɺ', 'p\\': 'ɸ', 'r\\': 'ɹ', 's\\': 'ɕ', 'x\\': 'ɧ', 'z\\': 'ʑ', 'v\\': 'ʋ', '3\\': 'ɞ', '@\\': 'ɘ',
  '?\\': 'ʕ', '<\\': 'ʢ', '>\\': 'ʡ', '!\\': 'ǃ', '|\\': 'ǀ', '|\\|\\': 'ǁ', '=\\': 'ǂ', '4\\': 'ɺ',
  // Retroflex consonants, the heart of Indian phonologies: a backtick after the consonant.
  't`': 'ʈ', 'd`': 'ɖ', 'n`': 'ɳ', 's`': 'ʂ', 'z`': 'ʐ', 'l`': 'ɭ', 'r`': 'ɽ', 'r\\`': 'ɻ', '`': '˞',
  '"': 'ˈ', '%': 'ˌ', ':': 'ː', ':\\': 'ˑ', '.': '.', ' ': ' ', '|': '|', '||': '‖', '-\\': '‿', '^': 'ꜛ', '!': 'ꜜ',
  _h: 'ʰ', _w: 'ʷ', _j: 'ʲ', _G: 'ˠ', '_?\\': 'ˤ', _e: '\u0334', _n: 'ⁿ', _l: 'ˡ', '_>': 'ʼ', '_~': '\u0303', '~': '\u0303', '_0': '\u0325',
  _t: '\u0324', _d: '\u032a', '_=': '\u0329', '=': '\u0329', '_^': '\u032f', '_"': '\u0308', _a: '\u033a', _A: '\u0318', _c: '\u031c',
  _k: '\u0330', _m: '\u033b', _N: '\u033c', _o: '\u031e', _q: '\u0319', _r: '\u031d', _v: '\u032c', _x: '\u033d', _X: '\u0306',
  '_+': '\u031f', '_-': '\u0320', '_}': '\u031a', _H: '\u030b', _M: '\u0304', _L: '\u0300', _B: '\u030f', _T: '\u030b', _F: '\u0302', _R: '\u030c',
};
const X_SAMPA_LONGEST = Math.max(...Object.keys(X_SAMPA).map((symbol) => symbol.length));

/** An entry's phonemes as IPA, or the problem with them (a sentence naming the symbol and where it is). */
export type PhonemeCheck = { readonly ok: true; readonly ipa: string } | { readonly ok: false; readonly problem: string };

export function phonemesAsIpa(phoneme: string, alphabet: PhonemeAlphabet): PhonemeCheck {
  const text = phoneme.normalize('NFC').trim();
  if (text === '') return { ok: false, problem: 'is empty' };
  return alphabet === 'ipa' ? checkIpa(text) : xSampaToIpa(text);
}

function checkIpa(text: string): PhonemeCheck {
  let position = 0;
  for (const char of text.normalize('NFD')) {
    position++;
    if (isIpa(char.codePointAt(0) as number)) continue;
    const hint = IPA_HINTS[char];
    const code = `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
    return { ok: false, problem: `has '${char}' (${code}) at symbol ${position}, which is not IPA${hint ? `: write ${hint}` : ' (write X-SAMPA with alphabet "x-sampa")'}` };
  }
  return { ok: true, ipa: text };
}

function xSampaToIpa(text: string): PhonemeCheck {
  let ipa = '';
  let i = 0;
  while (i < text.length) {
    let matched = '';
    for (let length = Math.min(X_SAMPA_LONGEST, text.length - i); length > 0; length--) {
      const symbol = text.slice(i, i + length);
      if (X_SAMPA[symbol] !== undefined) {
        matched = symbol;
        break;
      }
    }
    if (matched === '') return { ok: false, problem: `has '${text.slice(i, i + 3)}' at character ${i + 1}, which starts no X-SAMPA symbol` };
    ipa += X_SAMPA[matched] as string;
    i += matched.length;
  }
  return { ok: true, ipa: ipa.normalize('NFC') };
}
