// zod schemas of what the OpenAI dialect answers: the source of its OpenAPI responses and what its tests hold real
// responses to, as response-schemas.ts is for the spec's routes.

import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../../errors.js';
import { errorResponses } from '../route-schemas.js';
import { openAiStatus } from './openai-errors.js';

const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export const OpenAiErrorSchema = z
  .strictObject({
    error: z.strictObject({
      message: z.string().meta({ description: 'What went wrong and what to change.' }),
      type: z.enum(['invalid_request_error', 'insufficient_quota', 'requests', 'server_error']).meta({ description: "OpenAI's error type for the status." }),
      param: z.string().nullable().meta({ description: 'The request field at fault, or null.' }),
      code: z.enum(ERROR_CODE_NAMES).meta({ description: "Raaga's error code (docs/errors.md)." }),
      request_id: z.string().meta({ description: 'Raaga addition: the X-Request-Id of this request.' }),
    }),
  })
  .meta({ id: 'OpenAiError', description: "OpenAI's error envelope, on /v1/audio/* and /v1/models*." });

export const OpenAiModelSchema = z
  .strictObject({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.literal('raaga') })
  .meta({ id: 'OpenAiModel' });

export const OpenAiModelListSchema = z.strictObject({ object: z.literal('list'), data: z.array(OpenAiModelSchema) });

export const OpenAiVoiceListSchema = z
  .strictObject({ voices: z.array(z.string()) })
  .meta({ description: "Kokoro-FastAPI's shape: the presets, the aliases, and the account's vc_ custom voices (Growth plan)." });

/** A `speech.audio.delta` or `speech.audio.done` event's data (documentation; the stream writes them as they come). */
export const SpeechEventSchema = z
  .union([
    z.strictObject({ type: z.literal('speech.audio.delta'), audio: z.string().meta({ description: 'Base64 of the next audio bytes.', contentEncoding: 'base64' }) }),
    z.strictObject({
      type: z.literal('speech.audio.done'),
      usage: z.strictObject({
        input_tokens: z.number().int().meta({ description: "The input's Unicode code points: the credits a completed request costs." }),
        output_tokens: z.number().int().meta({ description: 'Always 0: Raaga bills the input only.' }),
        total_tokens: z.number().int(),
      }),
    }),
  ])
  .meta({ id: 'OpenAiSpeechEvent' });

/** Error responses grouped by the dialect's status, each naming Raaga's codes it can carry. */
export function openAiErrorResponses(codes: readonly ErrorCode[]) {
  return errorResponses(codes, { name: "OpenAI's error envelope", schema: OpenAiErrorSchema, statusOf: (code) => openAiStatus(ERROR_CODES[code].status) });
}
