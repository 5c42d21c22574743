// The clips that pin the embedded eSpeak NG build's samples: catalog voices of different pitch, breath and rate, two
// speeds and a pitch shift, over one sentence per language and a few Hindi and English IVR texts (a six-word clause,
// an OTP, a phone number, SSML-escaped characters). Shared by the identity test against the npm build and the
// golden hashes (espeak-build.test.ts, espeak-samples.test.ts).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EmbeddedVoiceParams } from '../../../src/engine/espeak/espeak-voice-params.js';
import { DEFAULT_ESPEAK_LANGUAGE_IDS } from '../../../src/engine/espeak/espeak-languages.js';
import { LANGUAGE_CODES, type LanguageCode } from '../../../src/languages.js';
import { SENTENCES } from './sentences.js';

export interface SampleCase {
  readonly name: string;
  readonly language: LanguageCode;
  readonly espeakLanguage: string;
  readonly text: string;
  readonly voiceName: string;
  readonly voice: EmbeddedVoiceParams;
  readonly speed: number;
  readonly pitchShiftSemitones: number;
}

const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../../models/raaga-v1/manifest.json', import.meta.url)), 'utf8')) as {
  voices: Array<{ voice_name: string; embedded: EmbeddedVoiceParams }>;
};

function catalogVoice(name: string): EmbeddedVoiceParams {
  const voice = manifest.voices.find((entry) => entry.voice_name === name);
  if (voice === undefined) throw new Error(`no catalog voice ${name}`);
  return voice.embedded;
}

/** priya: high, breath 1 (the benches' voice); imran: breath 6, shifted up 2 semitones; sanjay: no breath; vikram: low, slow. */
const VOICES = [
  { voiceName: 'priya', pitchShiftSemitones: 0 },
  { voiceName: 'imran', pitchShiftSemitones: 2 },
  { voiceName: 'sanjay', pitchShiftSemitones: 0 },
  { voiceName: 'vikram', pitchShiftSemitones: 0 },
] as const;
const SPEEDS = [1, 1.3] as const;

const EXTRA_TEXTS: ReadonlyArray<{ readonly language: LanguageCode; readonly label: string; readonly text: string }> = [
  { language: 'hi-IN', label: 'six-word', text: 'आपका ऑर्डर कल शाम तक आएगा' },
  { language: 'hi-IN', label: 'otp', text: 'नमस्ते दोस्तों, आपका OTP चार आठ दो नौ है, कृपया 98765 43210 पर कॉल करें।' },
  { language: 'en-IN', label: 'ivr', text: 'Thank you for calling. Your balance is 500 rupees & your bill <due> Friday.' },
];

const TEXTS = [
  ...LANGUAGE_CODES.map((language) => ({ language, label: 'sentence', text: SENTENCES[language] })),
  ...EXTRA_TEXTS,
];

export const SAMPLE_CASES: readonly SampleCase[] = TEXTS.flatMap(({ language, label, text }) =>
  VOICES.flatMap(({ voiceName, pitchShiftSemitones }) =>
    SPEEDS.map((speed) => ({
      name: `${language} ${label} ${voiceName}${pitchShiftSemitones === 0 ? '' : ` +${pitchShiftSemitones}st`} x${speed}`,
      language,
      espeakLanguage: DEFAULT_ESPEAK_LANGUAGE_IDS[language],
      text,
      voiceName,
      voice: catalogVoice(voiceName),
      speed,
      pitchShiftSemitones,
    })),
  ),
);

/** What the phonemizers read (Piper: text_to_phonemes; Kokoro: the synthesis trace too), per eSpeak voice. */
export const PHONEME_CASES: ReadonlyArray<{ readonly espeakVoice: string; readonly text: string }> = [
  ...LANGUAGE_CODES.map((language) => ({ espeakVoice: DEFAULT_ESPEAK_LANGUAGE_IDS[language], text: SENTENCES[language] })),
  ...EXTRA_TEXTS.map(({ language, text }) => ({ espeakVoice: DEFAULT_ESPEAK_LANGUAGE_IDS[language], text })),
  { espeakVoice: 'en-us', text: 'For you, the order of the day. Hello world!' },
  { espeakVoice: 'en-us', text: SENTENCES['en-IN'] },
];
