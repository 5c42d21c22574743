// The Kokoro phonemizer's stages without eSpeak: language choice, text preparation, punctuation split, the two
// readings of raw eSpeak output (plain, and misaki's tied form) and each language's post-processing.

import { describe, expect, it } from 'vitest';
import { plainChunk, tiedChunk } from '../../../../src/engine/kokoro/kokoro-espeak-output.js';
import { kokoroLanguageFor, phonemizeWith, postProcess, prepareText, splitPunctuation } from '../../../../src/engine/kokoro/kokoro-phonemizer.js';
import { normalizeKokoroText } from '../../../../src/engine/kokoro/kokoro-text-norm.js';

describe('Kokoro language', () => {
  it('follows the voice letter, else British English for en-IN and Hindi for hi-IN', () => {
    expect(kokoroLanguageFor('en-IN', 'af_heart')).toBe('a');
    expect(kokoroLanguageFor('en-IN', 'bf_emma')).toBe('b');
    expect(kokoroLanguageFor('hi-IN', 'hf_alpha')).toBe('h');
    expect(kokoroLanguageFor('en-IN', 'custom')).toBe('b');
    expect(kokoroLanguageFor('hi-IN', 'custom')).toBe('h');
  });
});

describe('text preparation', () => {
  it('normalises English as kokoro-js does (titles, money, years, times, brackets)', () => {
    expect(normalizeKokoroText('Dr. Smith paid $5.50 (cash) in 1990 at 10:05.')).toBe('Doctor Smith paid 5 dollars and 50 cents «cash» in 19 90 at 10 oh 5.');
    expect(normalizeKokoroText('£1 and 12.34, yeah')).toBe("1 pound and 12 point 3 4, ye'a");
    expect(prepareText('Dr. Who', 'b', { normalize: false })).toBe('Dr. Who');
  });

  it('swaps brackets for guillemets in Hindi, as misaki does, and leaves the rest', () => {
    expect(prepareText('«नमस्ते» (जी) Dr. 1990', 'h')).toBe('“नमस्ते” «जी» Dr. 1990');
  });

  it('splits off punctuation runs with their spaces', () => {
    expect(splitPunctuation('Hello, world! «Yes»', 'a')).toEqual([
      { text: 'Hello', punctuation: false },
      { text: ', ', punctuation: true },
      { text: 'world', punctuation: false },
      { text: '! «', punctuation: true },
      { text: 'Yes', punctuation: false },
      { text: '»', punctuation: true },
    ]);
    // Python phonemizer's marks have no brackets: for Hindi `[x]` stays inside the word piece.
    expect(splitPunctuation('a [x] b', 'h')).toEqual([{ text: 'a [x] b', punctuation: false }]);
    expect(splitPunctuation('a [x] b', 'b').map((piece) => piece.text)).toEqual(['a', ' [', 'x', '] ', 'b']);
  });
});

describe('raw eSpeak output', () => {
  it('plain: no separators, clauses and language switches gone', () => {
    expect(plainChunk('h_ə_l_ˈoʊ | (hi)_n_ə_m_ˈʌ_s_t_eː_(en-us) w_ˈɜː_l_d')).toBe('həlˈoʊ nəmˈʌsteː wˈɜːld');
  });

  it('tied: a tie inside each multi-letter phoneme, not after a stress mark, not before a superscript', () => {
    expect(tiedChunk('m_aɪ h_ˈaʊ_s dʒ_ˈɔɪ_f_əl tʃ_ˈɔɪ_s')).toBe('ma^ɪ hˈa^ʊs d^ʒˈɔ^ɪfə^l t^ʃˈɔ^ɪs');
    expect(tiedChunk('kʰ_ˈaː_t_aː xʰχ_ˈʊ_ʃ pəh_ˈũ')).toBe('kʰˈaːtaː xʰ^χˈʊʃ p^ə^hˈũ');
  });

  it('tied: a doubled segment is a geminate (phoneme + its lengthening), tied only in its first half', () => {
    expect(tiedChunk('ʌ_ʈʰʈʰ_ˈaː_ʋ_ə_n')).toBe('ʌʈʰʈʰˈaːʋən');
    expect(tiedChunk('ʌ_ss_i tʃtʃ')).toBe('ʌssi t^ʃtʃ');
  });

  it('tied: stray separators (eSpeak bug 694) and switches vanish', () => {
    expect(tiedChunk('(en)_c_ˈaː_j_ ɔː_ɾ ˈaː_ɪ__ˌeː_(hi)')).toBe('cˈaːj ɔːɾ ˈaːɪˌeː');
  });
});

describe('post-processing', () => {
  it('English: kokoro-js`s fixes, and "ninety" as "ninedy" only in American', () => {
    expect(postProcess('kəkˈoːɹoʊ rʲox ɬ nˈaɪnti sˈɛvənhˈʌndɹɪd dˈɑːlɚ z.', 'a')).toBe('kˈoʊkəɹoʊ ɹjok l nˈaɪndi sˈɛvən hˈʌndɹɪd dˈɑːlɚz.');
    expect(postProcess('nˈaɪnti', 'b')).toBe('nˈaɪnti');
    expect(postProcess('kəkˈɔːɹəʊ', 'b')).toBe('kˈəʊkəɹəʊ');
    // This eSpeak build's en-us spelling of the name (horse-hoarse merger) gets the same fix.
    expect(postProcess('kəkˈɔːɹoʊ', 'a')).toBe('kˈoʊkəɹoʊ');
  });

  it('Hindi: misaki`s tied symbols to single letters, then ties, hyphens and guillemets resolved', () => {
    expect(postProcess(' ma^ɪ t^ʃa^ʊ d^ʒe^ɪ o^ʊ ə^ʊ ɔ^ɪ t^s d^z s^s p^ə-h «x» ', 'h')).toBe('mI ʧW ʤA O Q Y ʦ ʣ S pəh (x)');
  });

  it('joins pieces with punctuation copied (Hindi: its spaces become plain spaces)', () => {
    const raw = (chunk: string): string => ({ Hello: 'h_ə_l_ˈoʊ', world: 'w_ˈɜː_l_d', 'नमस्ते': 'n_ə_m_ˈʌ_s_t_eː', 'जी': 'dʒ_ˈiː' })[chunk] ?? '?';
    expect(phonemizeWith('Hello,\tworld!', 'a', raw, { normalize: false })).toBe('həlˈoʊ,\twˈɜːld!');
    expect(phonemizeWith('नमस्ते,\tजी!', 'h', raw)).toBe('nəmˈʌsteː, ʤˈiː!');
  });
});
