// zod schemas of what a phone call sends its agent (docs/telephony.md, "Agent protocol"): the session's replies
// with the turn's `utterance_id`, and the call events. They feed the AsyncAPI document; a compile-time check below
// keeps them inside the call's own AgentMessage type. (What the agent sends is parsed by telephony/agent/.)

import { GATHER_REASONS } from '../session/dtmf-gather.js';
import { z } from 'zod';
import { PROVIDER_NAMES } from '../telephony/providers.js';
import { CALL_DIRECTIONS } from '../session/call-events.js';
import type { AgentMessage } from '../telephony/agent/agent-events.js';
import { ANSWERED_BY } from '../store/outbound-call.js';
import {
  CancellationMessageSchema,
  ConfiguredMessageSchema,
  EndOfUtteranceMessageSchema,
  ErrorMessageSchema,
  PongMessageSchema,
} from './websocket-server-messages.js';

const utteranceId = z.string().optional().meta({ description: 'The text\'s utterance_id (utt_<n> when it gave none).' });
const nullableUtteranceId = z.string().nullable();

// A call's agent gets no ssml_ignored: that report is the WebSocket's (synthesis-session.ts).
export const AgentEndOfUtteranceSchema = EndOfUtteranceMessageSchema.omit({ ssml_ignored: true }).extend({ utterance_id: utteranceId });
export const AgentCancellationSchema = CancellationMessageSchema.extend({ utterance_id: utteranceId });
export const AgentErrorSchema = ErrorMessageSchema.extend({ utterance_id: utteranceId });

export const CallStartedSchema = z
  .strictObject({
    type: z.literal('call_started'),
    provider: z.enum(PROVIDER_NAMES).meta({ description: 'The telephony provider carrying the call.' }),
    call_sid: z.string().meta({ description: "The provider's call id (Twilio CallSid, Exotel call_sid, Plivo CallUUID, Asterisk channel id, AudioSocket UUID); REST call control takes it." }),
    stream_sid: z.string(),
    account_sid: z.string().meta({ description: "The provider's account (Twilio AC…, Exotel SID, Plivo auth id), not the Raaga account; empty when the provider sends none." }),
    from: z.string().nullable(),
    to: z.string().nullable(),
    direction: z.enum(CALL_DIRECTIONS).nullable().meta({ description: 'inbound or outbound, where the provider says (Twilio, Plivo); else null.' }),
    answered_by: z
      .enum(ANSWERED_BY)
      .nullable()
      .meta({ description: "The provider's answering-machine detection (Twilio MachineDetection: machine_* is machine); null without it." }),
    custom_parameters: z.record(z.string(), z.string()).meta({ description: 'The stream\'s custom parameters, credentials removed.' }),
  })
  .meta({ description: 'First, once the socket is open.' });

export const SpeechStartedSchema = z
  .strictObject({ type: z.literal('speech_started'), at_ms: z.number().int().meta({ description: 'Onset on the call\'s media clock.' }) })
  .meta({ description: 'Caller speech confirmed (min_speech_ms), whether or not it interrupts.' });

export const SpeechStoppedSchema = z
  .strictObject({ type: z.literal('speech_stopped'), at_ms: z.number().int(), duration_ms: z.number().int() })
  .meta({ description: 'The caller paused.' });

export const DtmfSchema = z.strictObject({ type: z.literal('dtmf'), digit: z.string() }).meta({ description: 'A key press.' });

export const UtterancePlayedSchema = z
  .strictObject({ type: z.literal('utterance_played'), utterance_id: nullableUtteranceId, duration_ms: z.number().int() })
  .meta({ description: 'Twilio confirmed the whole utterance played.' });

export const InterruptedSchema = z
  .strictObject({
    type: z.literal('interrupted'),
    utterance_id: nullableUtteranceId,
    played_ms: z.number().int(),
    heard_text: z.string().meta({ description: 'The start of the utterance text the caller is known to have heard: whole chunks confirmed by marks, then, where the engine gives word timings (the embedded engine), the words that ended before the last position mark came back.' }),
    cause: z.enum(['speech', 'dtmf', 'cancel']),
    suspect_id: z.string().nullable().optional().meta({ description: 'barge_in_events=2: the hold this commits (null: cut without a hold, e.g. a key).' }),
    decided_by: z
      .enum(['duration', 'verdict', 'dtmf', 'timeout', 'policy'])
      .optional()
      .meta({ description: 'barge_in_events=2: speech past long_min_ms, your verdict, a key, max_hold_ms, or ambiguous_default.' }),
    decision_ms: z.number().int().optional().meta({ description: 'barge_in_events=2: from the hold to the decision, counted in the caller\'s audio.' }),
  })
  .meta({ description: 'Audio of that utterance was cut (one per utterance cut).' });

export const InterruptionSuspectedSchema = z
  .strictObject({
    type: z.literal('interruption_suspected'),
    suspect_id: z.string(),
    utterance_id: nullableUtteranceId,
    onset_ms: z.number().int().meta({ description: "The caller's sound began, on the call's media clock." }),
    position_ms: z.number().int().meta({ description: 'Into the utterance: what the caller had certainly heard when the bot was held.' }),
  })
  .meta({ description: 'barge_in_events=2: caller sound held the bot (the caller hears silence); resumed or interrupted follows.' });

export const ResumedSchema = z
  .strictObject({
    type: z.literal('resumed'),
    suspect_id: z.string(),
    utterance_id: nullableUtteranceId,
    from_ms: z.number().int().meta({ description: 'Into the utterance: where the re-sent audio starts.' }),
    gap_ms: z.number().int().meta({ description: 'How long the bot was silent (the hold to the resume), counted in the caller\'s audio.' }),
    reason: z.enum(['short', 'echo', 'verdict', 'policy']),
  })
  .meta({ description: 'barge_in_events=2: the hold ended without an interruption; the utterance goes on from where the caller stopped hearing it.' });

export const GatherResultSchema = z
  .strictObject({
    type: z.literal('gather_result'),
    gather_id: z.string(),
    digits: z.string().meta({ description: 'The keys pressed, the finish key not included.' }),
    reason: z.enum(GATHER_REASONS).meta({ description: 'The finish key, num_digits reached, no key in time, a newer gather, or the call ended.' }),
  })
  .meta({ description: 'A gather (yours or one started over REST) was decided.' });

export const CallEndedSchema = z
  .strictObject({ type: z.literal('call_ended'), reason: z.string() })
  .meta({ description: 'Last message; then Raaga closes the socket.' });

export const ToAgentMessageSchema = z.discriminatedUnion('type', [
  CallStartedSchema,
  ConfiguredMessageSchema,
  AgentEndOfUtteranceSchema,
  AgentCancellationSchema,
  AgentErrorSchema,
  PongMessageSchema,
  UtterancePlayedSchema,
  SpeechStartedSchema,
  SpeechStoppedSchema,
  DtmfSchema,
  InterruptedSchema,
  InterruptionSuspectedSchema,
  ResumedSchema,
  GatherResultSchema,
  CallEndedSchema,
]);

// Fails to compile if a schema allows a shape the call cannot send.
type Extends<A, B> = [A] extends [B] ? true : false;
const schemasFitTheCall: Extends<z.infer<typeof ToAgentMessageSchema>, AgentMessage> = true;
void schemasFitTheCall;
