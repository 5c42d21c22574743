// zod schemas of what the HTTP routes answer: the source of the OpenAPI document's response bodies, and what the
// e2e tests validate real responses against, so the document and the wire cannot drift apart.

import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { LANGUAGE_CODES } from '../languages.js';
import { OUTPUT_FORMATS } from '../audio/formats.js';

const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export const ErrorEnvelopeSchema = z
  .strictObject({
    error: z.strictObject({
      status_code: z.number().int().meta({ description: 'Mirrors the HTTP status.' }),
      code: z.enum(ERROR_CODE_NAMES).meta({ description: 'Stable machine-readable code (docs/errors.md).' }),
      message: z.string().meta({ description: 'What went wrong and what to change.' }),
      request_id: z.string().optional().meta({ description: 'Raaga addition: the X-Request-Id of this request; quote it when reporting a problem.' }),
    }),
  })
  .meta({ description: 'Every HTTP error.' });

export const SynthesisResultSchema = z
  .strictObject({
    audio: z.string().meta({ description: 'Base64 of the audio bytes.', contentEncoding: 'base64' }),
    format: z.enum(OUTPUT_FORMATS),
    duration_seconds: z.number().meta({ description: 'Samples ÷ sample rate, up to six decimals.' }),
    characters_used: z.number().int().meta({ description: 'Unicode code points debited from the balance.' }),
  });

const VoiceGender = z.enum(['male', 'female']);

export const VoicesByLanguageSchema = z
  .record(z.enum(LANGUAGE_CODES), z.array(z.strictObject({ voice_name: z.string(), gender: VoiceGender })))
  .meta({ description: 'group_by=language: language code → voices that speak it.' });

export const VoicesByVoiceSchema = z
  .record(z.string(), z.strictObject({ gender: VoiceGender, languages: z.array(z.enum(LANGUAGE_CODES)) }))
  .meta({ description: 'group_by=voice: voice name → its gender and languages.' });

export const HealthSchema = z.strictObject({ status: z.literal('ok') });

export const ReadinessSchema = z
  .strictObject({
    status: z.enum(['ready', 'not_ready']),
    checks: z.strictObject({
      engine: z.enum(['ready', 'warming']),
      store: z.enum(['ok', 'unreachable']),
      shutting_down: z.boolean(),
      /** New calls refused while the event loop lags (TELEPHONY_SHED_LAG_MS): a balancer should send calls elsewhere. */
      shedding_calls: z.boolean(),
      /** Every call slot of this process (TELEPHONY_MAX_CALLS) is held by an authenticated call: a new call would be refused. */
      calls_saturated: z.boolean(),
    }),
  });
