// IPA phonemes of one clause from the same eSpeak NG build the embedded engine uses, cleaned the way Piper
// cleans espeak output: no separators, no language-switch markers like `(en)`, NFD. One instance per worker thread.

import { EspeakInstance } from './espeak-instance.js';

/** eSpeak marks a switch to another language's rules with its code in brackets, e.g. `(en)` ... `(hi)`. */
export const LANGUAGE_SWITCH = /\([a-z]{2,3}(?:-[a-z0-9]+)*\)/gi;

export class EspeakPhonemizer {
  private constructor(private readonly espeak: EspeakInstance) {}

  static async create(): Promise<EspeakPhonemizer> {
    return new EspeakPhonemizer(await EspeakInstance.create());
  }

  /** IPA of one clause, words separated by single spaces; '' when eSpeak finds nothing to say. */
  phonemize(clause: string, espeakVoice: string): string {
    return cleanEspeakPhonemes(this.rawPhonemes(clause, espeakVoice));
  }

  /**
   * eSpeak's own output: phonemes of a word joined by `_` (not before a superscript-initial phoneme such as `ʰ`),
   * words by spaces, clauses by ` | `, language switches as `(en)`. Kokoro's post-processing starts from this.
   */
  rawPhonemes(text: string, espeakVoice: string): string {
    this.espeak.useVoice(espeakVoice);
    // text_to_phonemes reads plain text (no SSML, no [[phoneme]] input), so only control characters, which would
    // end or confuse the C string, are replaced.
    return this.espeak.textToPhonemes(text.replace(/[\u0000-\u001f\u007f]/g, ' '), true);
  }

  /**
   * rawPhonemes read from a synthesis trace instead (what kokoro-js's `phonemizer` package does): synthesis runs the
   * intonation pass, which gives a clause with no stressed word a primary stress (`for you`: `f_ɔːɹ j_ˈuː`, where
   * text_to_phonemes says `j_uː`). Costs one eSpeak synthesis of the text, about a thousandth of its duration.
   */
  synthesisPhonemes(text: string, espeakVoice: string): string {
    this.espeak.useVoice(espeakVoice);
    const { code, ipa } = this.espeak.synthesisPhonemes(text.replace(/[\u0000-\u001f\u007f]/g, ' '));
    if (code !== 0) throw new Error(`eSpeak could not synthesize phonemes (code ${code})`);
    return ipa.replace(/\n+/g, ' | ').replace(/^ \| | \| $/g, '');
  }
}

/**
 * `n_ə_m_ˈʌ_s_t_eː | ...` → `nəmˈʌsteː ...`: drops the `_` phoneme separators this build inserts, joins eSpeak's own
 * sub-clauses with a space, strips language-switch markers, and NFD-normalises (Piper's ids are per code point).
 */
export function cleanEspeakPhonemes(raw: string): string {
  return raw
    .replace(LANGUAGE_SWITCH, '')
    .replace(/_/g, '')
    .replace(/\s*\|\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .normalize('NFD');
}
