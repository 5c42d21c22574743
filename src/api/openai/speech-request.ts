// POST /v1/audio/speech's body as OpenAI documents it, plus the extras self-hosted servers take through the SDKs'
// `extra_body` (`language`, `sample_rate`), and its translation into one of Raaga's HTTP syntheses. Other fields are
// ignored, not refused: OpenAI's clients send extras of their own. Checked in the order docs/api.md gives.

import { z } from 'zod';
import { OUTPUT_FORMATS, SAMPLE_RATES, type OutputFormat, type SampleRateHz } from '../../audio/formats.js';
import { checkText } from '../../core/text/text-limits.js';
import { ApiError, isApiError } from '../../errors.js';
import type { LanguageCode } from '../../languages.js';
import type { HttpSynthesis } from '../http-utterance.js';
import { checkModel } from './openai-models.js';
import { requireLanguage, speechLanguage, type LanguageSource } from './speech-language.js';
import { speechVoice, type SpeechVoice, type VoiceNames } from './speech-voice.js';

/** OpenAI's limit for `input`, in code points here (Raaga's /v1/tts/* limit is 3000). */
export const MAX_INPUT_CODE_POINTS = 4096;

/** The speeds OpenAI accepts; Raaga speaks RAAGA_SPEED of them and clamps the rest into it. */
const OPENAI_SPEED = { min: 0.25, max: 4 } as const;
const OPENAI_SPEEDS = `${OPENAI_SPEED.min} to ${OPENAI_SPEED.max.toFixed(1)}`;
const RAAGA_SPEED = { min: 0.5, max: 2 } as const;

const RESPONSE_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

/** What each response format is sent as (Kokoro-FastAPI's `audio/pcm` for raw PCM; Opus is an Ogg file). */
const CONTENT_TYPES: Readonly<Record<ResponseFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** The response formats Raaga encodes: Opus once the audio layer has its Ogg/Opus encoder (audio/formats.ts). */
function encodedFormats(): ResponseFormat[] {
  return (['mp3', 'wav', 'pcm', 'opus'] as const).filter((format) => (OUTPUT_FORMATS as readonly string[]).includes(format));
}

const voiceName = z.string().min(1, 'must not be empty').max(200);

export const SpeechBodySchema = z.object(
  {
    model: z.string({ error: 'is required and must be a string' }).meta({
      description: "tts-1, tts-1-hd, gpt-4o-mini-tts (and dated snapshots) or raaga-v1; all are spoken by raaga-v1. Anything else is 400.",
      examples: ['tts-1'],
    }),
    input: z.string({ error: 'is required and must be a string' }).meta({ description: `At most ${MAX_INPUT_CODE_POINTS} Unicode code points (4096 here, 3000 on /v1/tts/*).` }),
    voice: z.union([voiceName, z.object({ id: voiceName })], { error: 'must be a voice name or an object {"id": "<voice>"}' }).meta({
      description: 'A preset (priya), a preset with a language (priya:hi-IN), a vc_ custom voice id, or an alias (alloy … cedar, af_heart); also as {"id": …}.',
    }),
    instructions: z.string({ error: 'must be a string' }).optional().meta({ description: 'Accepted and ignored: Raaga has no style prompt.' }),
    response_format: z
      .enum(RESPONSE_FORMATS, { error: `must be one of ${RESPONSE_FORMATS.join(', ')}` })
      .optional()
      .meta({ description: 'mp3, wav, pcm (raw 16-bit little-endian mono, 24 kHz unless sample_rate) or opus (Ogg/Opus); aac and flac are 400.', default: 'mp3' }),
    speed: z
      .number({ error: `must be a number from ${OPENAI_SPEEDS}` })
      .min(OPENAI_SPEED.min, `must be from ${OPENAI_SPEEDS}`)
      .max(OPENAI_SPEED.max, `must be from ${OPENAI_SPEEDS}`)
      .optional()
      .meta({ description: 'Raaga speaks 0.5-2.0 and clamps the rest into it; X-Raaga-Speed-Applied says what was used.', default: 1 }),
    stream_format: z
      .enum(['audio', 'sse'], { error: "must be 'audio' or 'sse'" })
      .optional()
      .meta({ description: 'audio: the bytes, chunked as synthesized; sse: speech.audio.delta events, then speech.audio.done.', default: 'audio' }),
    language: z.string({ error: 'must be a string' }).max(20).optional().meta({
      description: "Raaga's extra: one of its eight BCP 47 codes (hi-IN) or their ISO 639-1 halves (hi). Absent: the voice's suffix, else the input's script.",
    }),
    sample_rate: z
      .number({ error: `must be one of ${SAMPLE_RATES.join(', ')}` })
      .refine((rate) => (SAMPLE_RATES as readonly number[]).includes(rate), `must be one of ${SAMPLE_RATES.join(', ')}`)
      .optional()
      .meta({ description: "Raaga's extra: Hz.", enum: [...SAMPLE_RATES], default: 24000 }),
  },
  { error: 'body must be a JSON object' },
);

export type SpeechBody = z.output<typeof SpeechBodySchema>;

export interface SpeechRequest {
  readonly synthesis: HttpSynthesis;
  readonly streamFormat: 'audio' | 'sse';
  /** Content-Type of the audio (of each SSE delta's bytes, for `sse`). */
  readonly contentType: string;
  readonly languageSource: LanguageSource;
  readonly voice: SpeechVoice;
}

/** The rules beyond the schema, in order: model, input, response format, voice, language; then speed. */
export function speechRequest(body: SpeechBody, names: VoiceNames): SpeechRequest {
  checkModel(body.model);
  const codePoints = aboutField('input', () => checkText(body.input, { field: 'input', maxCodePoints: MAX_INPUT_CODE_POINTS }));
  const format = outputFormat(body.response_format ?? 'mp3');
  const voice = speechVoice(body.voice, names);
  const fromField: LanguageCode | undefined = body.language === undefined ? undefined : requireLanguage(body.language, 'language', 'Language');
  const { language, source } = speechLanguage(fromField, voice.language, body.input);
  const requestedSpeed = body.speed ?? 1;
  return {
    synthesis: {
      text: body.input,
      codePoints,
      voice: voice.voice,
      language,
      format,
      sampleRateHz: (body.sample_rate ?? 24000) as SampleRateHz,
      speed: Math.min(RAAGA_SPEED.max, Math.max(RAAGA_SPEED.min, requestedSpeed)),
      endpoint: 'openai_speech',
    },
    streamFormat: body.stream_format ?? 'audio',
    contentType: CONTENT_TYPES[body.response_format ?? 'mp3'],
    languageSource: source,
    voice,
  };
}

function outputFormat(format: ResponseFormat): OutputFormat {
  const encoded = encodedFormats();
  if ((encoded as string[]).includes(format)) return format as OutputFormat;
  const problem = format === 'opus' ? "response_format 'opus' is not available on this server yet (its Ogg/Opus encoder is not installed)" : `unsupported response_format '${format}'`;
  throw new ApiError('validation_error', `${problem}; use one of ${encoded.join(', ')}.`, { field: 'response_format' });
}

/** Errors of a check over one field (the text rules' SSML errors name none) are about that field. */
function aboutField<T>(field: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (isApiError(error) && error.field === undefined) throw new ApiError(error.code, error.message, { field });
    throw error;
  }
}
