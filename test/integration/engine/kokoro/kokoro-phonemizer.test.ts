// The Kokoro phonemizer on the embedded eSpeak NG build: each language's eSpeak voice and call, the fixes this build
// needs, Hindi in misaki's symbols; and the tie rebuilt from `_` separators checked against eSpeak NG's own tie mode
// (the Debian `espeak-ng` binary, when installed).

import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { tiedChunk } from '../../../../src/engine/kokoro/kokoro-espeak-output.js';
import { KokoroPhonemizer } from '../../../../src/engine/kokoro/kokoro-phonemizer.js';
import { tokenize } from '../../../../src/engine/kokoro/kokoro-vocab.js';
import { LONG_HINDI, SENTENCES } from '../sentences.js';

let phonemizer: KokoroPhonemizer;
beforeAll(async () => {
  phonemizer = await KokoroPhonemizer.create();
});

const HINDI = [
  SENTENCES['hi-IN'],
  LONG_HINDI,
  'क़िला ज़रूर फ़ोन ग़लत ख़ुश',
  'अट्ठावन अस्सी पच्चीस',
  'ऋषि कृष्ण क्षत्रिय ज्ञान',
  'चाय जल्दी ठंडा ढोल झंडा',
  'मेरा email test है, (कृपया) “ध्यान दें”!',
];

describe('Kokoro phonemizer, English', () => {
  it('reads American with en-us and British with en, as kokoro-js does', () => {
    expect(phonemizer.phonemize('Your account balance is ninety dollars.', 'a')).toBe('jʊɹ ɐkˈaʊnt bˈæləns ɪz nˈaɪndi dˈɑːlɚz.');
    expect(phonemizer.phonemize('Your account balance is ninety dollars.', 'b')).toBe('jɔːɹ ɐkˈaʊnt bˈaləns ɪz nˈaɪnti dˈɒləz.');
  });

  it('keeps the stress eSpeak`s intonation pass gives a chunk with no stressed word (a synthesis trace)', () => {
    expect(phonemizer.phonemize('It is, for you.', 'a')).toBe('ɪɾ ˈɪz, fɔːɹ jˈuː.');
    expect(phonemizer.phonemize('Yes, and?', 'b')).toBe('jˈɛs, ˈand?');
  });

  it('says "Kokoro" right with this build`s en-us spelling too', () => {
    expect(phonemizer.phonemize('Kokoro', 'a')).toBe('kˈoʊkəɹoʊ');
    expect(phonemizer.phonemize('Kokoro', 'b')).toBe('kˈəʊkəɹəʊ');
  });

  it('says Devanagari inside English with Hindi rules, without eSpeak`s switch markers', () => {
    expect(phonemizer.phonemize('नमस्ते means hello', 'b')).toBe('nəmˈʌsteː mˈiːnz həlˈəʊ');
  });

  it('turns empty text into nothing and punctuation alone into itself', () => {
    expect(phonemizer.phonemize('', 'a')).toBe('');
    expect(phonemizer.phonemize('…', 'a')).toBe('…');
  });
});

describe('Kokoro phonemizer, Hindi', () => {
  it('uses misaki`s single symbols for tied phonemes and keeps geminates apart', () => {
    expect(phonemizer.phonemize('अट्ठावन अस्सी पच्चीस', 'h')).toBe('ʌʈʰʈʰˈaːʋən ˈʌssi pəcːˈiːs');
    expect(phonemizer.phonemize('मेरा email test है', 'h')).toBe('mˌeːɾaː ˈiːmAl tˈɛst hɛː');
    expect(phonemizer.phonemize('चाय जल्दी ठंडा ढोल झंडा', 'h')).toBe('cˈaːj ɟˈʌldi ʈʰˈʌɳɖaː ɖʰˈoːl ɟʰˈʌɳɖaː');
  });

  it('keeps brackets and quotes as punctuation tokens, without the intonation pass`s stress', () => {
    // `और` alone: no stress (a synthesis trace would say ˈɔːɾ); Python phonemizer also calls espeak_TextToPhonemes.
    expect(phonemizer.phonemize('और (कृपया) “ध्यान दें”!', 'h')).toBe('ɔːɾ (kɾˈɪpjˌaː) “dʰjˈaːn dˈe\u0303ː”!');
  });

  it('produces only symbols in Kokoro`s vocabulary for everyday Hindi', () => {
    for (const text of HINDI) expect([...tokenize(phonemizer.phonemize(text, 'h')).unknown], text).toEqual([]);
  });
});

const nativeEspeak = ((): boolean => {
  try {
    execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// Under CI (.ci/run installs espeak-ng) this never skips: a missing binary fails the suite instead.
describe.skipIf(!nativeEspeak && process.env.CI === undefined)('tie rebuilt from separators, against eSpeak NG`s own tie mode', () => {
  const native = (voice: string, text: string, option: string): string => execFileSync('espeak-ng', ['-q', '-v', voice, '--ipa', option, text], { encoding: 'utf8' });
  const ENGLISH = 'my house is a joyful choice of bridges, the judge said: eight nations avoid the strange Kokoro';

  it('agrees word for word on Hindi, English, and English read by the Hindi voice', () => {
    for (const [voice, text] of [...HINDI.map((text) => ['hi', text] as const), ['en-us', ENGLISH], ['en', ENGLISH], ['hi', ENGLISH]] as const) {
      const rebuilt = tiedChunk(native(voice, text, '--sep=_').replace(/\n/g, ' | '));
      const tied = native(voice, text, '--tie=^').replace(/\([^)]*\)/g, '').replace(/\s+/g, ' ').trim();
      expect(rebuilt, `${voice}: ${text}`).toBe(tied);
    }
  });
});
