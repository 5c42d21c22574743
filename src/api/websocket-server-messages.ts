// zod schemas of the JSON messages the server sends on /v1/tts/websocket (audio goes as binary frames). The
// session builds them as plain typed objects; these feed the AsyncAPI document, the e2e tests validate every
// received message against them, and a compile-time check below keeps them inside the session's ServerMessage.

import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import type { ServerMessage } from '../session/session-messages.js';
import { OUTPUT_FORMATS, SAMPLE_RATES } from '../audio/formats.js';

const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
const seconds = z.number().min(0).meta({ description: 'Seconds of audio: samples ÷ sample rate, six decimals.' });

export const ConnectedMessageSchema = z
  .strictObject({ type: z.literal('connected'), user_id: z.string().meta({ description: 'The authenticated account id.' }) })
  .meta({ description: 'Once, after authentication.' });

export const ConfiguredMessageSchema = z
  .strictObject({
    type: z.literal('configured'),
    model_id: z.string(),
    voice: z.string(),
    language: z.string(),
    output_format: z.enum(OUTPUT_FORMATS),
    sample_rate: z.union(SAMPLE_RATES.map((rate) => z.literal(rate))),
    speed: z.number(),
    word_timings: z.literal(true).optional().meta({ description: "Only when the config asked for word timings (Raaga's extension)." }),
    ssml_strict: z.literal(true).optional().meta({ description: "Only when the config asked for SSML's strict mode (Raaga's extension)." }),
  })
  .meta({ description: 'After each accepted config: the active config, echoed.' });

export const WordTimingsMessageSchema = z
  .strictObject({
    type: z.literal('word_timings'),
    words: z.array(
      z.strictObject({
        text: z.string().min(1).meta({ description: 'The word as the text has it (numbers, symbols and punctuation as written: "₹500,").' }),
        start_ms: z.number().int().min(0).meta({ description: "Milliseconds from the start of this utterance's audio." }),
        end_ms: z.number().int().min(0).meta({ description: 'Where the next word starts (or the clause ends): words touch, never overlap.' }),
      }),
    ).min(1),
    marks: z
      .array(
        z.strictObject({
          name: z.string().min(1).meta({ description: 'The name of the SSML <mark>.' }),
          at_ms: z.number().int().min(0).meta({ description: "Where the word after the mark starts (or the clause ends), in milliseconds from the start of this utterance's audio." }),
        }),
      )
      .min(1)
      .optional()
      .meta({ description: 'The SSML <mark>s in this clause, in order; only when it has any.' }),
  })
  .meta({
    description:
      "Raaga's extension, only with config.word_timings: the words of the clause whose audio frames were just sent, in order, and the SSML marks in it. Never sent for an engine without word timings.",
  });

export const EndOfUtteranceMessageSchema = z
  .strictObject({
    type: z.literal('end_of_utterance'),
    characters_used: z.number().int().min(0),
    duration_seconds: seconds,
    truncated: z.boolean(),
    reason: z.literal('step_budget_exceeded').optional().meta({ description: 'Only when truncated.' }),
    ssml_ignored: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .meta({ description: "Raaga's extension: the SSML elements of the text that were dropped, their text spoken (lenient mode); only when there were any." }),
  })
  .meta({ description: 'After the last audio frame of an utterance.' });

export const CancellationMessageSchema = z
  .strictObject({ type: z.literal('cancellation'), characters_used: z.number().int().min(0), duration_seconds: seconds })
  .meta({ description: 'Answers every cancel; replaces end_of_utterance for a cancelled turn.' });

export const PongMessageSchema = z.strictObject({ type: z.literal('pong') }).meta({ description: 'After ping.' });

export const ErrorMessageSchema = z
  .strictObject({
    type: z.literal('error'),
    error: z.strictObject({
      code: z.enum(ERROR_CODE_NAMES),
      message: z.string(),
      retry_after_seconds: z.number().int().optional().meta({ description: 'Only for rate_limit_exceeded.' }),
    }),
  })
  .meta({ description: 'One message could not be served; the connection stays open.' });

export const WebSocketServerMessageSchema = z.discriminatedUnion('type', [
  ConnectedMessageSchema,
  ConfiguredMessageSchema,
  WordTimingsMessageSchema,
  EndOfUtteranceMessageSchema,
  CancellationMessageSchema,
  PongMessageSchema,
  ErrorMessageSchema,
]);

export type WebSocketServerMessage = z.infer<typeof WebSocketServerMessageSchema>;

// Fails to compile if a schema allows a shape the session cannot send.
type Extends<A, B> = [A] extends [B] ? true : false;
const schemasFitTheSession: Extends<WebSocketServerMessage, ServerMessage> = true;
void schemasFitTheSession;
