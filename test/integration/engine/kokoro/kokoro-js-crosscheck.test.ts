// Kokoro's JavaScript reference, kokoro-js 1.2.1, run offline against ours: its phonemes (captured at its tokenizer,
// no model needed) for 15 sentences in American and British English, its style-row choice on its own voice files,
// and which voices it ships.

import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { KokoroTTS } from 'kokoro-js';
import { phonemize as espeakPackage } from 'phonemizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { KokoroPhonemizer, phonemizeWith, prepareText, splitPunctuation } from '../../../../src/engine/kokoro/kokoro-phonemizer.js';
import { KOKORO_STYLE_DIM, KokoroStyle } from '../../../../src/engine/kokoro/kokoro-style.js';

type Model = ConstructorParameters<typeof KokoroTTS>[0];
type Tokenizer = ConstructorParameters<typeof KokoroTTS>[1];
type Ids = Parameters<KokoroTTS['generate_from_ids']>[0];
const VOICES_DIR = join(dirname(createRequire(import.meta.url).resolve('kokoro-js')), '..', 'voices');

const SENTENCES = [
  'Hello, your order will arrive tomorrow morning.',
  'Thank you for calling. How can I help you today?',
  'Your account balance is ninety nine dollars; please pay by Friday.',
  'Dr. Smith will see you at 10:30 on Monday, the 5th of May.',
  'The payment of $1,250.75 was received in 1990, and again in 2005.',
  "I'm sorry, we couldn't verify your card — please try again.",
  'Press 1 for English, or 2 for Hindi.',
  'Kokoro is an open-weight text-to-speech model (eighty-two million parameters).',
  'Mr. and Mrs. Sharma’s flight leaves at 7:05 a.m. from Mumbai.',
  "Yeah, the U.S.A. office closes at five o'clock.",
  '"Your OTP is four two seven nine," said the agent!',
  'Nine hundred and ninety nine rupees, ninety nine paise.',
  'Is it 5-10 minutes, or more? Please hold…',
  'Yes, and? It is, for you.',
  'For security reasons, never share your PIN or password with anyone.',
] as const;

const LANGUAGES = [
  { language: 'a', voice: 'af_heart', espeakVoice: 'en-us' },
  { language: 'b', voice: 'bf_emma', espeakVoice: 'en' },
] as const;

// Hindi is not in kokoro-js (no 'h' voice listed, no `hi` in its eSpeak build): ours is checked against eSpeak NG's
// own tie mode instead (kokoro-phonemizer.test.ts). The two eSpeak builds (the `phonemizer` package, and ours: 1.52.0,
// giving the phonemes of the @echogarden/espeak-ng-emscripten build it replaced, espeak-build.test.ts) differ, over
// 5,000 words of this repository, only in en-us oːɹ → ɔːɹ (eSpeak NG commit 5b01dd86, the horse-hoarse merger of 1.52)
// and in non-Latin words, which kokoro-js's English-only build drops.

class Captured extends Error {}

/** kokoro-js's phonemes for `text`: generate() phonemizes, then hands the string to the tokenizer, caught here. */
async function kokoroJsPhonemes(text: string, voice: string): Promise<string> {
  let phonemes: string | undefined;
  const tokenizer = ((input: string) => {
    phonemes = input;
    throw new Captured();
  }) as unknown as Tokenizer;
  await new KokoroTTS(null as unknown as Model, tokenizer).generate(text, { voice: voice as 'af_heart' }).catch((error: unknown) => {
    if (!(error instanceof Captured)) throw error;
  });
  if (phonemes === undefined) throw new Error('kokoro-js did not reach its tokenizer');
  return phonemes;
}

let ours: KokoroPhonemizer;
beforeAll(async () => {
  ours = await KokoroPhonemizer.create();
});

describe.each(LANGUAGES)('phonemes against kokoro-js, language $language', ({ language, voice, espeakVoice }) => {
  it('agrees on normalisation, punctuation split and post-processing when fed the same eSpeak output', async () => {
    for (const text of SENTENCES) {
      // kokoro-js's own eSpeak build (the `phonemizer` package) as our raw stage.
      const raw = new Map<string, string>();
      for (const piece of splitPunctuation(prepareText(text, language), language)) {
        if (!piece.punctuation) raw.set(piece.text, (await espeakPackage(piece.text, espeakVoice)).join(' '));
      }
      const mine = phonemizeWith(text, language, (chunk) => raw.get(chunk) ?? '');
      expect(mine, text).toBe(await kokoroJsPhonemes(text, voice));
    }
  });

  it('agrees on full strings with our eSpeak build, except en-us ɔːɹ for oːɹ (eSpeak NG 1.52 horse-hoarse merger)', async () => {
    const differing: string[] = [];
    for (const text of SENTENCES) {
      const reference = await kokoroJsPhonemes(text, voice);
      const mine = ours.phonemize(text, language);
      if (mine !== reference) differing.push(text);
      expect(mine, text).toBe(language === 'a' ? reference.replace(/oː/g, 'ɔː') : reference);
    }
    expect(differing).toEqual(language === 'a' ? [SENTENCES[10], SENTENCES[12]] : []);
  });
});

describe('voices and style rows against kokoro-js', () => {
  it('ships 54 voice files of 510 x 256 float32, Hindi ones included, all of which load', async () => {
    const files = (await readdir(VOICES_DIR)).filter((name) => name.endsWith('.bin')).sort();
    expect(files).toHaveLength(54);
    expect(files.filter((name) => name.startsWith('h'))).toEqual(['hf_alpha.bin', 'hf_beta.bin', 'hm_omega.bin', 'hm_psi.bin']);
    for (const name of files) await KokoroStyle.load(join(VOICES_DIR, name));
  });

  it('lists only its 28 English voices: the Hindi files ship but kokoro-js cannot speak with them', () => {
    const names = Object.keys(new KokoroTTS(null as unknown as Model, null as unknown as Tokenizer).voices);
    expect(names).toHaveLength(28);
    expect(names.filter((name) => name.startsWith('a'))).toHaveLength(20);
    expect(names.filter((name) => name.startsWith('b')).sort()).toEqual(['bf_alice', 'bf_emma', 'bf_isabella', 'bf_lily', 'bm_daniel', 'bm_fable', 'bm_george', 'bm_lewis']);
  });

  it('picks the same style row from af_heart.bin for every run length, and passes ids and speed as given', async () => {
    const style = await KokoroStyle.load(join(VOICES_DIR, 'af_heart.bin'));
    for (const tokens of [1, 2, 47, 300, 509, 510]) {
      let fed: { input_ids: unknown; style: { data: Float32Array; dims: number[] }; speed: { data: ArrayLike<number> } } | undefined;
      const model = (async (inputs: NonNullable<typeof fed>) => {
        fed = inputs;
        return { waveform: { data: new Float32Array(1) } };
      }) as unknown as Model;
      // generate_from_ids reads only the ids' dims and passes them on, so a plain object stands for the tensor.
      const ids = { dims: [1, tokens + 2] } as unknown as Ids;
      await new KokoroTTS(model, null as unknown as Tokenizer).generate_from_ids(ids, { voice: 'af_heart', speed: 1.1 });
      expect(fed?.input_ids).toBe(ids);
      expect(fed?.style.dims).toEqual([1, KOKORO_STYLE_DIM]);
      expect(Array.from(fed?.speed.data ?? [])).toEqual([Math.fround(1.1)]);
      expect(fed?.style.data, `${tokens} tokens`).toEqual(style.forTokens(tokens));
    }
  });
});
