// What ElevenLabs' requests name, in Raaga's terms: `output_format` (`pcm_22050`, `ulaw_8000`, `mp3_44100_128`, …),
// `language_code` (ISO 639-1), `voice_settings.speed` and `pronunciation_dictionary_locators` (the account's lexicons).
// Every refusal names the field and what it accepts.

import { z } from 'zod';
import type { OutputFormat, SampleRateHz } from '../../audio/formats.js';
import { ApiError } from '../../errors.js';
import { LANGUAGE_CODES, type LanguageCode } from '../../languages.js';

export interface ElevenLabsAudioFormat {
  readonly format: OutputFormat;
  readonly sampleRateHz: SampleRateHz;
  /** The response's Content-Type on the HTTP routes. */
  readonly contentType: string;
}

/** ElevenLabs' default when a request names none. */
export const DEFAULT_ELEVENLABS_OUTPUT_FORMAT = 'mp3_44100_128';

const PCM_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
const MP3_RATES = [22050, 24000, 44100] as const;

/** Every output_format Raaga serves in this dialect (the MP3 and Opus bitrates are ElevenLabs' names; see docs). */
export const ELEVENLABS_OUTPUT_FORMATS: readonly string[] = [
  ...PCM_RATES.map((rate) => `pcm_${rate}`),
  'ulaw_8000',
  'alaw_8000',
  'mp3_22050_32',
  'mp3_24000_48',
  ...[32, 64, 96, 128, 192].map((kbps) => `mp3_44100_${kbps}`),
  ...[32, 64, 96, 128, 192].map((kbps) => `opus_48000_${kbps}`),
];

export function parseOutputFormat(value: string | undefined): ElevenLabsAudioFormat {
  const name = value ?? DEFAULT_ELEVENLABS_OUTPUT_FORMAT;
  if (!ELEVENLABS_OUTPUT_FORMATS.includes(name)) {
    throw new ApiError('validation_error', `output_format '${name}' is not served; use one of ${ELEVENLABS_OUTPUT_FORMATS.join(', ')}.`, {
      field: 'output_format',
    });
  }
  const [codec, rate] = name.split('_') as [string, string];
  const sampleRateHz = Number(rate) as SampleRateHz;
  switch (codec) {
    case 'pcm':
      return { format: 'pcm', sampleRateHz, contentType: 'audio/pcm' };
    case 'ulaw':
      return { format: 'mulaw', sampleRateHz, contentType: 'audio/basic' };
    case 'alaw':
      return { format: 'alaw', sampleRateHz, contentType: 'audio/x-alaw-basic' };
    case 'opus':
      return { format: 'opus', sampleRateHz, contentType: 'audio/ogg' };
    default:
      if (!(MP3_RATES as readonly number[]).includes(sampleRateHz)) throw new Error(`unreachable: ${name}`);
      return { format: 'mp3', sampleRateHz, contentType: 'audio/mpeg' };
  }
}

/** ISO 639-1 (`hi`), or one of Raaga's own codes (`hi-IN`); undefined: read the language from each text's script. */
export function parseLanguageCode(value: string | undefined): LanguageCode | undefined {
  if (value === undefined || value === '') return undefined;
  const exact = LANGUAGE_CODES.find((code) => code.toLowerCase() === value.toLowerCase());
  if (exact) return exact;
  const byBase = LANGUAGE_CODES.find((code) => code.split('-')[0] === value.toLowerCase());
  if (byBase) return byBase;
  const bases = LANGUAGE_CODES.map((code) => code.split('-')[0]).join(', ');
  throw new ApiError('validation_error', `language_code '${value}' is not spoken; use one of ${bases} (or leave it out to read each text's script).`, {
    field: 'language_code',
  });
}

/** Raaga's tempo range: ElevenLabs' own (0.7–1.2) lies inside it. */
const MIN_SPEED = 0.5;
const MAX_SPEED = 2;

/** `voice_settings.speed`, when given: a number in Raaga's 0.5–2.0. The other voice settings shape a neural ElevenLabs voice and mean nothing here. */
export function parseVoiceSpeed(voiceSettings: unknown): number | undefined {
  if (voiceSettings === undefined || voiceSettings === null) return undefined;
  if (typeof voiceSettings !== 'object') throw new ApiError('validation_error', 'voice_settings must be an object.', { field: 'voice_settings' });
  const speed = (voiceSettings as { speed?: unknown }).speed;
  if (speed === undefined || speed === null) return undefined;
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed < MIN_SPEED || speed > MAX_SPEED) {
    throw new ApiError('validation_error', `voice_settings.speed must be a number from ${MIN_SPEED} to ${MAX_SPEED}.`, { field: 'voice_settings.speed' });
  }
  return speed;
}

/** The request field that names pronunciation dictionaries: each one's id is the name of one of the account's lexicons. */
export const DICTIONARY_LOCATORS_FIELD = 'pronunciation_dictionary_locators';

const DictionaryLocatorsSchema = z
  .array(z.object({ pronunciation_dictionary_id: z.string().min(1).max(200), version_id: z.string().max(200).nullish() }).loose())
  .max(20);

/**
 * `pronunciation_dictionary_locators` as lexicon names: each `pronunciation_dictionary_id` names one of the account's
 * lexicons (docs/elevenlabs.md); `version_id` is not needed, a lexicon is always read as it is now. Absent: none.
 */
export function parseDictionaryLocators(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = DictionaryLocatorsSchema.safeParse(value);
  if (!parsed.success) {
    throw new ApiError(
      'validation_error',
      `${DICTIONARY_LOCATORS_FIELD} must be a list of at most 20 {"pronunciation_dictionary_id": "<lexicon name>"} objects.`,
      { field: DICTIONARY_LOCATORS_FIELD },
    );
  }
  return parsed.data.map((locator) => locator.pronunciation_dictionary_id);
}
