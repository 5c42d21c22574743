// What a call's agent may send (docs/telephony.md, "Agent protocol"): the /v1/tts/websocket messages (config,
// text, cancel, ping), with an optional `utterance_id` and `interruptible` on text and `barge_in` settings on
// config, plus `text_append` and `text_flush` (an LLM's tokens as they come), `hangup`, `transfer`, `gather` and
// `barge_in_verdict`.
// The call's audio is fixed (8 kHz mu-law), so config takes voice, language and speed only.

import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { readTypedJson, unreadableMessage } from '../../util/typed-json.js';
import { LANGUAGE_CODES } from '../../languages.js';
import type { BargeInOverrides } from '../../session/barge-in/barge-in-contract.js';
import { GATHER_DEFAULTS, type GatherRequest } from '../../session/dtmf-gather.js';
import type { ClientEvent, SessionConfig } from '../../session/session-messages.js';
import type { TransferOptions } from '../../session/call-events.js';

const strict = { error: (issue: { code: string }) => (issue.code === 'unrecognized_keys' ? 'unknown field' : 'must be a JSON object') };

/** One append is a few tokens; anything up to a whole text's worth is taken (the utterance's total is bounded too). */
const MAX_APPEND_UNITS = 3000 * 2;

export const UTTERANCE_ID = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 of A-Z a-z 0-9 . _ : -');

/** The call's barge-in settings an agent may change (same names, ranges and meaning as the call parameters). */
const BargeInConfigSchema = z.strictObject(
  {
    events: z.union([z.literal(1), z.literal(2)], { error: 'must be 1 or 2' }).optional(),
    suspect: z.enum(['vad', 'off']).optional(),
    short_max_ms: z.number().int().min(0).max(5000).optional(),
    long_min_ms: z.number().int().min(32).max(10_000).optional(),
    verdict_deadline_ms: z.number().int().min(0).max(5000).optional(),
    ambiguous_default: z.enum(['interrupt', 'resume', 'speech']).optional(),
    max_hold_ms: z.number().int().min(100).max(10_000).optional(),
  },
  strict,
);

const AgentConfigSchema = z.strictObject(
  {
    type: z.literal('config'),
    barge_in: BargeInConfigSchema.optional(),
    model_id: z.string().optional(),
    voice: z.string().min(1).max(200),
    language: z.enum(LANGUAGE_CODES, { error: `must be one of ${LANGUAGE_CODES.join(', ')}` }),
    speed: z.number().min(0.5).max(2).optional(),
    output_format: z.literal('mulaw', { error: "must be 'mulaw' on a call (or omitted)" }).optional(),
    sample_rate: z.literal(8000, { error: 'must be 8000 on a call (or omitted)' }).optional(),
  },
  strict,
);

const AgentTextSchema = z.strictObject(
  { type: z.literal('text'), text: z.string({ error: 'is required and must be a string' }), utterance_id: UTTERANCE_ID.optional(), interruptible: z.boolean().optional() },
  strict,
);

/** A piece of streamed text; the append that opens a streamed utterance names it and says whether it may be cut. */
const AgentTextAppendSchema = z.strictObject(
  {
    type: z.literal('text_append'),
    text: z.string({ error: 'is required and must be a string' }).max(MAX_APPEND_UNITS, `must be at most ${MAX_APPEND_UNITS} characters`),
    utterance_id: UTTERANCE_ID.optional(),
    interruptible: z.boolean().optional(),
  },
  strict,
);

/** Where a call can be transferred: a phone number (E.164, or digits with * and #) or a sip:/sips: URI. */
export const TransferTargetSchema = z.string().regex(/^(\+?[0-9*#]{2,20}|sips?:[^\s<>"]{3,200})$/, 'must be a phone number (E.164) or a sip: URI');

/** An integer in [min, max], every violation named the same way ("must be an integer 5-600"). */
export function integerIn(min: number, max: number, { coerce = false } = {}): z.ZodNumber | z.ZodCoercedNumber {
  const message = `must be an integer ${min}-${max}`;
  return (coerce ? z.coerce.number({ error: message }) : z.number({ error: message })).int(message).min(min, message).max(max, message);
}

/** A gather's fields, the same in the agent's `gather` message and REST `POST /v1/calls/{sid}/gather`. */
export const GATHER_FIELDS = {
  gather_id: UTTERANCE_ID.optional(),
  prompt: z.string({ error: 'must be a string' }).optional(),
  num_digits: integerIn(1, 64).optional(),
  finish_on_key: z.enum(['', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'], { error: "must be one key of 0-9 * # or '' for none" }).optional(),
  timeout_ms: integerIn(0, 60_000).optional(),
  inter_digit_timeout_ms: integerIn(100, 60_000).optional(),
  interruptible: z.boolean({ error: 'must be true or false' }).optional(),
};

const GatherFieldsSchema = z.object(GATHER_FIELDS);
export type GatherFields = z.output<typeof GatherFieldsSchema>;

/** The gather a call runs for these fields (defaults filled in: '#' ends, 5 s for the first key, 3 s between keys). */
export function gatherRequest(fields: GatherFields): GatherRequest {
  return {
    gatherId: fields.gather_id,
    prompt: fields.prompt,
    numDigits: fields.num_digits,
    finishOnKey: fields.finish_on_key ?? GATHER_DEFAULTS.finishOnKey,
    timeoutMs: fields.timeout_ms ?? GATHER_DEFAULTS.timeoutMs,
    interDigitTimeoutMs: fields.inter_digit_timeout_ms ?? GATHER_DEFAULTS.interDigitTimeoutMs,
    interruptible: fields.interruptible ?? true,
  };
}

/** A transfer's fields, the same in the agent's `transfer` message, REST and Plivo's transfer XML URL. */
export const TRANSFER_FIELDS = {
  to: TransferTargetSchema,
  caller_id: z.string({ error: 'must be a phone number (E.164)' }).regex(/^\+?[0-9]{6,15}$/, 'must be a phone number (E.164)').optional(),
  timeout_s: integerIn(5, 600).optional(),
};

/** Exported for the AsyncAPI document (src/api/docs/); parse with parseAgentMessage. */
export const AgentMessageSchema = z.discriminatedUnion('type', [
  AgentConfigSchema,
  AgentTextSchema,
  AgentTextAppendSchema,
  z.strictObject({ type: z.literal('text_flush') }, strict),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('ping') }),
  z.strictObject({ type: z.literal('hangup'), drain: z.boolean().optional() }, strict),
  z.strictObject({ type: z.literal('transfer'), ...TRANSFER_FIELDS }, strict),
  z.strictObject({ type: z.literal('gather'), ...GATHER_FIELDS }, strict),
  z.strictObject(
    { type: z.literal('barge_in_verdict'), suspect_id: z.string().min(1).max(64), verdict: z.enum(['interrupt', 'resume'], { error: "must be 'interrupt' or 'resume'" }) },
    strict,
  ),
]);

const TYPES = ['config', 'text', 'text_append', 'text_flush', 'cancel', 'ping', 'hangup', 'transfer', 'gather', 'barge_in_verdict'] as const;

export type AgentCommand =
  | { readonly kind: 'session'; readonly event: ClientEvent; readonly bargeIn?: BargeInOverrides }
  | { readonly kind: 'append'; readonly text: string; readonly utteranceId: string | undefined; readonly interruptible: boolean | undefined }
  | { readonly kind: 'flush' }
  | { readonly kind: 'verdict'; readonly suspectId: string; readonly verdict: 'interrupt' | 'resume' }
  | { readonly kind: 'hangup'; readonly drain: boolean }
  | { readonly kind: 'transfer'; readonly to: string; readonly options: TransferOptions }
  | { readonly kind: 'gather'; readonly request: GatherRequest };

/** One agent text message → a command; throws ApiError (`validation_error`, `invalid_model_id`) the call answers with `error`. */
export function parseAgentMessage(raw: string): AgentCommand {
  const json = readTypedJson(raw, 'type', TYPES);
  if (!json.ok) throw unreadableMessage(json, TYPES);
  const parsed = AgentMessageSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    const what = issue?.code === 'unrecognized_keys' ? `Unknown field ${issue.keys.map((k) => `'${k}'`).join(', ')}` : `Field '${field}' ${issue?.message ?? 'is invalid'}`;
    throw new ApiError('validation_error', `${what}.`);
  }
  const message = parsed.data;
  switch (message.type) {
    case 'config': {
      if (message.model_id !== undefined && message.model_id !== 'raaga-v1') {
        throw new ApiError('invalid_model_id', `Unsupported model_id '${message.model_id}'; the only model is 'raaga-v1'.`);
      }
      const config: SessionConfig = {
        modelId: 'raaga-v1',
        voice: message.voice,
        language: message.language,
        outputFormat: 'mulaw',
        sampleRateHz: 8000,
        speed: message.speed ?? 1,
      };
      const b = message.barge_in;
      if (b === undefined) return { kind: 'session', event: { type: 'config', config } };
      const bargeIn: BargeInOverrides = {
        ...(b.events !== undefined ? { events: b.events } : {}),
        ...(b.suspect !== undefined ? { suspect: b.suspect } : {}),
        ...(b.short_max_ms !== undefined ? { shortMaxMs: b.short_max_ms } : {}),
        ...(b.long_min_ms !== undefined ? { longMinMs: b.long_min_ms } : {}),
        ...(b.verdict_deadline_ms !== undefined ? { verdictDeadlineMs: b.verdict_deadline_ms } : {}),
        ...(b.ambiguous_default !== undefined ? { ambiguousDefault: b.ambiguous_default } : {}),
        ...(b.max_hold_ms !== undefined ? { maxHoldMs: b.max_hold_ms } : {}),
      };
      return { kind: 'session', event: { type: 'config', config }, bargeIn };
    }
    case 'text':
      return {
        kind: 'session',
        event: {
          type: 'text',
          text: message.text,
          ...(message.utterance_id !== undefined ? { utteranceId: message.utterance_id } : {}),
          ...(message.interruptible !== undefined ? { interruptible: message.interruptible } : {}),
        },
      };
    case 'text_append':
      return { kind: 'append', text: message.text, utteranceId: message.utterance_id, interruptible: message.interruptible };
    case 'text_flush':
      return { kind: 'flush' };
    case 'cancel':
    case 'ping':
      return { kind: 'session', event: { type: message.type } };
    case 'hangup':
      return { kind: 'hangup', drain: message.drain ?? true };
    case 'transfer':
      return { kind: 'transfer', to: message.to, options: { callerId: message.caller_id, timeoutS: message.timeout_s } };
    case 'gather': {
      const { type: _type, ...fields } = message;
      return { kind: 'gather', request: gatherRequest(fields) };
    }
    case 'barge_in_verdict':
      return { kind: 'verdict', suspectId: message.suspect_id, verdict: message.verdict };
  }
}
