// Text to a Kokoro-82M phoneme string with the project's embedded eSpeak NG: English as kokoro-js 1.2.1 does it
// (normalise, split off punctuation, eSpeak per chunk, its regex fixes), Hindi as Kokoro's own pipeline does it
// for lang 'h' (misaki's EspeakG2P on eSpeak `hi`). Stages are exported so tests can feed them any eSpeak build.

import { EspeakPhonemizer } from '../espeak/espeak-phonemizer.js';
import { plainChunk, TIE, tiedChunk } from './kokoro-espeak-output.js';
import { KOKORO_ESPEAK_VOICE, type KokoroLanguage } from './kokoro-language.js';
import { normalizeKokoroText } from './kokoro-text-norm.js';

export { kokoroLanguageFor, KOKORO_ESPEAK_VOICE, type KokoroLanguage } from './kokoro-language.js';

export interface TextPiece {
  readonly text: string;
  /** A run of punctuation (with the spaces around it), copied to the phonemes instead of read by eSpeak. */
  readonly punctuation: boolean;
}

/** kokoro-js's PUNCTUATION; Python phonemizer's default marks (misaki, Hindi) lack the brackets. */
const KOKORO_JS_MARKS = ';:,.!?¡¿—…"«»“”(){}[]';
const PHONEMIZER_MARKS = ';:,.!?¡¿—…"«»“”';
const marksPattern = (marks: string): RegExp => new RegExp(`(\\s*[${marks.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}]+\\s*)+`, 'g');
const PUNCTUATION: Readonly<Record<KokoroLanguage, RegExp>> = {
  a: marksPattern(KOKORO_JS_MARKS),
  b: marksPattern(KOKORO_JS_MARKS),
  h: marksPattern(PHONEMIZER_MARKS),
};

export interface KokoroPhonemizeOptions {
  /** kokoro-js's English normalisation (titles, years, money); on by default as in kokoro-js. Ignored for Hindi. */
  readonly normalize?: boolean;
}

/** Stage 1: the text eSpeak and the splitter see. */
export function prepareText(text: string, language: KokoroLanguage, options: KokoroPhonemizeOptions = {}): string {
  // misaki EspeakG2P: guillemets to curly quotes, then brackets to guillemets (so they survive as punctuation).
  if (language === 'h') return text.replace(/«/g, '“').replace(/»/g, '”').replace(/\(/g, '«').replace(/\)/g, '»');
  return options.normalize === false ? text : normalizeKokoroText(text);
}

/** Stage 2: words and punctuation runs, in order (kokoro-js `split`, Python phonemizer `Punctuation.preserve`). */
export function splitPunctuation(text: string, language: KokoroLanguage): TextPiece[] {
  const pieces: TextPiece[] = [];
  let previous = 0;
  for (const match of text.matchAll(PUNCTUATION[language])) {
    if (previous < match.index) pieces.push({ text: text.slice(previous, match.index), punctuation: false });
    if (match[0].length > 0) pieces.push({ text: match[0], punctuation: true });
    previous = match.index + match[0].length;
  }
  if (previous < text.length) pieces.push({ text: text.slice(previous), punctuation: false });
  return pieces;
}

/** Stage 3: each word piece through eSpeak (`raw` is the build's own output), punctuation copied. */
export function joinPieces(pieces: readonly TextPiece[], language: KokoroLanguage, raw: (chunk: string) => string): string {
  const clean = language === 'h' ? tiedChunk : plainChunk;
  // Python phonemizer's restore turns each whitespace character of a punctuation run into the word separator.
  return pieces.map((piece) => (piece.punctuation ? (language === 'h' ? piece.text.replace(/\s/g, ' ') : piece.text) : clean(raw(piece.text)))).join('');
}

/** misaki EspeakG2P's `e2m` (version None, i.e. Kokoro v1.0): tied diphthongs and affricates to single symbols. */
const MISAKI_E2M: readonly (readonly [string, string])[] = [
  ['a^ɪ', 'I'],
  ['a^ʊ', 'W'],
  ['d^z', 'ʣ'],
  ['d^ʒ', 'ʤ'],
  ['e^ɪ', 'A'],
  ['o^ʊ', 'O'],
  ['s^s', 'S'],
  ['t^s', 'ʦ'],
  ['t^ʃ', 'ʧ'],
  ['ɔ^ɪ', 'Y'],
  ['ə^ʊ', 'Q'],
];

/** Stage 4: the language's fixes on the joined string. */
export function postProcess(phonemes: string, language: KokoroLanguage): string {
  if (language === 'h') {
    let out = phonemes.trim();
    for (const [from, to] of MISAKI_E2M) out = out.replaceAll(from, to);
    // misaki: leftover ties and hyphens go ("not sure what they mean"), guillemets back to brackets.
    return out.replaceAll(TIE, '').replaceAll('-', '').replace(/«/g, '(').replace(/»/g, ')');
  }
  let out = phonemes
    // eSpeak NG >= 1.52 (horse-hoarse merger, commit 5b01dd86) spells en-us "Kokoro" with ɔː where kokoro-js's
    // older build has oː; the same fix as kokoro-js's next rule, for this build's spelling.
    .replace(/kəkˈɔːɹoʊ/g, 'kˈoʊkəɹoʊ')
    // From here on exactly kokoro-js 1.2.1's post-processing.
    .replace(/kəkˈoːɹoʊ/g, 'kˈoʊkəɹoʊ')
    .replace(/kəkˈɔːɹəʊ/g, 'kˈəʊkəɹəʊ')
    .replace(/ʲ/g, 'j')
    .replace(/r/g, 'ɹ')
    .replace(/x/g, 'k')
    .replace(/ɬ/g, 'l')
    .replace(/(?<=[a-zɹː])(?=hˈʌndɹɪd)/g, ' ')
    .replace(/ z(?=[;:,.!?¡¿—…"«»“” ]|$)/g, 'z');
  if (language === 'a') out = out.replace(/(?<=nˈaɪn)ti(?!ː)/g, 'di');
  return out.trim();
}

/** All four stages; `raw` phonemizes one chunk with the language's eSpeak voice. */
export function phonemizeWith(text: string, language: KokoroLanguage, raw: (chunk: string) => string, options: KokoroPhonemizeOptions = {}): string {
  return postProcess(joinPieces(splitPunctuation(prepareText(text, language, options), language), language, raw), language);
}

/** One per worker thread: eSpeak keeps global state. */
export class KokoroPhonemizer {
  private constructor(private readonly espeak: EspeakPhonemizer) {}

  static async create(): Promise<KokoroPhonemizer> {
    return new KokoroPhonemizer(await EspeakPhonemizer.create());
  }

  phonemize(text: string, language: KokoroLanguage, options: KokoroPhonemizeOptions = {}): string {
    const voice = KOKORO_ESPEAK_VOICE[language];
    // Each reference's eSpeak call: kokoro-js's `phonemizer` reads a synthesis trace (stress promoted by intonation),
    // Python phonemizer under misaki calls espeak_TextToPhonemes (no intonation pass).
    const raw = language === 'h' ? (chunk: string) => this.espeak.rawPhonemes(chunk, voice) : (chunk: string) => this.espeak.synthesisPhonemes(chunk, voice);
    return phonemizeWith(text, language, raw, options);
  }
}
