// Raw eSpeak NG output of one text chunk (`_` between phonemes, ` | ` between clauses, `(en)` switches) in the two
// shapes Kokoro's front ends read: kokoro-js's plain IPA, and the tied IPA (`a^ɪ`) misaki's EspeakG2P maps from.

import { LANGUAGE_SWITCH } from '../espeak/espeak-phonemizer.js';

/** The tie misaki asks phonemizer for (`tie='^'`); it only marks which letters form one phoneme. */
export const TIE = '^';

const STRESS = new Set(['ˈ', 'ˌ']);

/**
 * kokoro-js's view: its eSpeak build (the `phonemizer` package) prints no separators and joins clauses with a space.
 * Language switches are dropped but their phonemes kept: that build has only English, so it silently skipped
 * non-Latin words; ours says them with that language's rules instead.
 */
export function plainChunk(raw: string): string {
  return raw.replace(LANGUAGE_SWITCH, '').replace(/_/g, '').replace(/\s*\|\s*/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * misaki's view (phonemizer with `tie='^'`, `language_switch='remove-flags'`): eSpeak's tie mode puts the tie before
 * every non-initial letter of a multi-letter phoneme, except superscripts and diacritics (U+02B0-036F), so it is
 * rebuilt here from the `_` boundaries this build prints instead (its glue cannot ask for tie mode).
 */
export function tiedChunk(raw: string): string {
  return raw
    .replace(LANGUAGE_SWITCH, '')
    .replace(/\s*\|\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .split(' ')
    .map((word) => word.split('_').map(tiePhoneme).join(''))
    .join(' ');
}

/**
 * `ˈaɪ` → `ˈa^ɪ`: the stress mark eSpeak writes before a phoneme is not one of its letters. A doubled segment
 * (`ʈʰʈʰ`, Hindi geminates) is a phoneme plus its lengthening, which eSpeak appends after the tie step: untied.
 */
function tiePhoneme(segment: string): string {
  let stress = '';
  for (const char of segment) {
    if (!STRESS.has(char)) break;
    stress += char;
  }
  const body = segment.slice(stress.length);
  const half = body.length / 2;
  if (half > 0 && Number.isInteger(half) && body.slice(0, half) === body.slice(half)) return stress + tieLetters(body.slice(0, half)) + body.slice(half);
  return stress + tieLetters(body);
}

/** eSpeak's rule: a tie before every non-initial letter that is not a superscript or diacritic (U+02B0-036F). */
function tieLetters(phoneme: string): string {
  let out = '';
  let count = 0;
  for (const char of phoneme) {
    const code = char.codePointAt(0) ?? 0;
    if (count > 0 && (code < 0x2b0 || code > 0x36f) && /\p{L}/u.test(char)) out += TIE;
    out += char;
    count++;
  }
  return out;
}
