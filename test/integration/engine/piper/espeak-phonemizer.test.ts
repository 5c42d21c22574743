// The Piper phonemizer on the real eSpeak NG WASM build: IPA per clause with no separators or language-switch
// markers, NFD, and sentences split at the Devanagari danda and double danda.

import { beforeAll, describe, expect, it } from 'vitest';
import { EspeakPhonemizer } from '../../../../src/engine/espeak/espeak-phonemizer.js';
import { phonemizeText } from '../../../../src/engine/piper/piper-phonemizer.js';
import { parsePiperSidecar } from '../../../../src/engine/piper/piper-sidecar.js';

let phonemizer: EspeakPhonemizer;
beforeAll(async () => {
  phonemizer = await EspeakPhonemizer.create();
});

describe('eSpeak phonemizer', () => {
  it('gives clean NFD IPA for one clause', () => {
    const ipa = phonemizer.phonemize('नमस्ते', 'hi');
    expect(ipa).toBe('nəmˈʌsteː'.normalize('NFD'));
    expect(phonemizer.phonemize('మీ ఖాతా', 'te')).toMatch(/^[^_|()]+ [^_|()]+$/);
  });

  it('strips the markers eSpeak puts around words read with another language', () => {
    const ipa = phonemizer.phonemize('मेरा email test है', 'hi');
    expect(ipa).not.toMatch(/[()_|]/);
    expect(ipa).toContain('ˈiːmeɪl');
  });

  it('runs one sentence per danda, with the clause punctuation Piper adds', () => {
    const map: Record<string, number[]> = { _: [0], '^': [1], $: [2] };
    for (const ch of new Set([...'nəmˈʌsteː ,.?!'.normalize('NFD'), ...'ʋɦɪɾaːdʒdʊkʊɳɔːʈʰbɛɡjʊɲtʃ'])) map[ch] ??= [Object.keys(map).length];
    const sidecar = parsePiperSidecar({ audio: { sample_rate: 22050 }, espeak: { voice: 'hi' }, phoneme_id_map: map }, 'x');
    const { sentences } = phonemizeText('नमस्ते, नमस्ते। नमस्ते॥ नमस्ते?', sidecar, phonemizer);
    expect(sentences).toHaveLength(3);
    const symbols = Object.fromEntries(Object.entries(map).map(([symbol, [id]]) => [id, symbol]));
    const text = (ids: number[]) => ids.filter((_, i) => i % 2 === 0).map((id) => symbols[id]).join('');
    const word = 'nəmˈʌsteː'.normalize('NFD');
    expect(sentences.map(text)).toEqual([`^${word}, ${word}.$`, `^${word}.$`, `^${word}?$`]);
  });

  it('refuses an eSpeak voice it does not have', () => {
    expect(() => phonemizer.phonemize('x', 'xx-nope')).toThrow(/no voice 'xx-nope'/);
  });
});
