// Piper's text-to-ids stages without eSpeak: clause and sentence split, ids with BOS/PAD/EOS, unknown phonemes,
// character (`phoneme_type: text`) voices, and the cleaning of eSpeak's raw phoneme output.

import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../../src/engine/piper/clauses.js';
import { cleanEspeakPhonemes } from '../../../../src/engine/espeak/espeak-phonemizer.js';
import { phonemesToIds, toPhonemes } from '../../../../src/engine/piper/phoneme-ids.js';
import { phonemizeText } from '../../../../src/engine/piper/piper-phonemizer.js';
import { parsePiperSidecar } from '../../../../src/engine/piper/piper-sidecar.js';

const MAP = { _: [0], '^': [1], $: [2], ' ': [3], ',': [4], '.': [5], '?': [6], a: [10], b: [11], c: [12], ə: [13], '\u0303': [14] };

describe('clause split', () => {
  it('ends sentences at . ? ! । ॥ and clauses at , : ;', () => {
    expect(splitSentences('नमस्ते, दुनिया। कैसे हो? ठीक॥ अच्छा')).toEqual([
      [
        { text: 'नमस्ते', terminator: ',' },
        { text: 'दुनिया', terminator: '.' },
      ],
      [{ text: 'कैसे हो', terminator: '?' }],
      [{ text: 'ठीक', terminator: '.' }],
      [{ text: 'अच्छा', terminator: '' }],
    ]);
  });

  it('keeps decimals, times and addresses whole and folds runs of punctuation', () => {
    expect(splitSentences('Pay 3.50 at 10:30 on example.com?!')).toEqual([[{ text: 'Pay 3.50 at 10:30 on example.com', terminator: '?' }]]);
    expect(splitSentences('Wait... now; then: go')).toEqual([
      [{ text: 'Wait', terminator: '.' }],
      [
        { text: 'now', terminator: ';' },
        { text: 'then', terminator: ':' },
        { text: 'go', terminator: '' },
      ],
    ]);
  });

  it('drops clauses with nothing speakable', () => {
    expect(splitSentences(' , -- . ')).toEqual([]);
  });
});

describe('phoneme ids', () => {
  it('puts BOS, PAD after BOS and after every phoneme, then EOS', () => {
    expect(phonemesToIds(['a', 'b', ' ', 'c'], MAP).ids).toEqual([1, 0, 10, 0, 11, 0, 3, 0, 12, 0, 2]);
  });

  it('drops and counts phonemes missing from the map', () => {
    const { ids, unknown } = phonemesToIds(['a', 'x', 'b', 'x', 'y'], MAP);
    expect(ids).toEqual([1, 0, 10, 0, 11, 0, 2]);
    expect([...unknown]).toEqual([
      ['x', 2],
      ['y', 1],
    ]);
  });

  it('splits phonemes into NFD code points (a nasal vowel is vowel + combining tilde)', () => {
    expect(toPhonemes('ã')).toEqual(['a', '\u0303']);
    expect(phonemesToIds(toPhonemes('ãə'), MAP).ids).toEqual([1, 0, 10, 0, 14, 0, 13, 0, 2]);
  });
});

describe('text voices and eSpeak output cleaning', () => {
  it('uses lower-cased characters as tokens, with clause punctuation, one id list per sentence', () => {
    const sidecar = parsePiperSidecar({ audio: { sample_rate: 16000 }, phoneme_type: 'text', phoneme_id_map: MAP }, 'x');
    const { sentences, unknown } = phonemizeText('AB, c. Cab? Zz', sidecar, undefined);
    expect(sentences).toEqual([
      [1, 0, 10, 0, 11, 0, 4, 0, 3, 0, 12, 0, 5, 0, 2],
      [1, 0, 12, 0, 10, 0, 11, 0, 6, 0, 2],
    ]);
    expect(unknown.get('z')).toBe(2);
  });

  it('removes separators, sub-clause bars and language-switch markers from eSpeak output', () => {
    expect(cleanEspeakPhonemes('m_ˌeː_ɾ_aː (en)_ˈiː_m_eɪ_l t_ˈɛ_s_t_(hi) h_ɛː')).toBe('mˌeːɾaː ˈiːmeɪl tˈɛst hɛː'.normalize('NFD'));
    expect(cleanEspeakPhonemes('h_ə_l_ˈəʊ | w_ˈɜː_l_d')).toBe('həlˈəʊ wˈɜːld');
  });
});
