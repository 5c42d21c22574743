// The zod schemas of every client message on /v1/tts/websocket and the parser that turns one raw text
// message into a session event, or an ApiError the session answers with `error` (the socket stays open).

import { z } from 'zod';
import { readTypedJson, unreadableMessage } from '../util/typed-json.js';
import type { ClientEvent } from '../session/session-messages.js';
import { checkVoiceAndModel, lexiconsField, outputFormatWithDefault, ssmlStrictField, validationError, voiceAndAudioShape } from './synthesis-request.js';

const unknownField = { error: (issue: { code: string }) => (issue.code === 'unrecognized_keys' ? 'unknown field' : 'must be a JSON object') };

// `config` and `text` are strict so typos (`sample_rte`) are reported; field-less messages ignore extra
// fields, because an unexpected field must never stop a `cancel` from cancelling.
export const ConfigMessageSchema = z.strictObject(
  {
    type: z.literal('config'),
    ...voiceAndAudioShape,
    output_format: outputFormatWithDefault('pcm'),
    lexicons: lexiconsField,
    word_timings: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .meta({
        description:
          "Raaga's extension: true sends a word_timings message (each word of the text with start_ms and end_ms in its utterance's audio) after the audio frames of each clause, before end_of_utterance; only for engines with word timings.",
        default: false,
      }),
    ssml_strict: ssmlStrictField,
  },
  unknownField,
);
export const TextMessageSchema = z.strictObject(
  { type: z.literal('text'), text: z.string({ error: 'is required and must be a string' }) },
  unknownField,
);
export const CancelMessageSchema = z.object({ type: z.literal('cancel') });
export const PingMessageSchema = z.object({ type: z.literal('ping') });
export const DisconnectMessageSchema = z.object({ type: z.literal('disconnect') });

export const ClientMessageSchema = z.discriminatedUnion('type', [
  ConfigMessageSchema,
  TextMessageSchema,
  CancelMessageSchema,
  PingMessageSchema,
  DisconnectMessageSchema,
]);

const MESSAGE_TYPES = ['config', 'text', 'cancel', 'ping', 'disconnect'] as const;

export function parseClientMessage(raw: string): ClientEvent {
  const json = readTypedJson(raw, 'type', MESSAGE_TYPES);
  if (!json.ok) throw unreadableMessage(json, MESSAGE_TYPES);
  const parsed = ClientMessageSchema.safeParse(json.value);
  if (!parsed.success) throw validationError(parsed.error);
  const message = parsed.data;
  switch (message.type) {
    case 'config':
      return {
        type: 'config',
        config: {
          ...checkVoiceAndModel(message, { outputFormat: 'pcm' }),
          ...(message.word_timings === true ? { wordTimings: true } : {}),
          ...(message.lexicons !== undefined ? { lexicons: message.lexicons } : {}),
          ...(message.ssml_strict === true ? { ssmlStrict: true } : {}),
        },
      };
    case 'text':
      return { type: 'text', text: message.text };
    default:
      return { type: message.type };
  }
}

