// What a call's agent receives (docs/telephony.md, "Agent protocol"): the session's replies as they are, and the
// call's events (session/call-events.ts) put into their wire shape here: snake_case, whole milliseconds, null for
// an absent id. The zod schemas of the same shapes (api/call-agent-messages.ts) feed the AsyncAPI document.

import type { ResumeReason } from '../../session/barge-in/barge-in-controller.js';
import type { CallDirection, CallEvent, InterruptCause, SessionReply } from '../../session/call-events.js';
import type { GatherReason } from '../../session/dtmf-gather.js';
import type { AnsweredBy } from '../../store/outbound-call.js';

/** With barge_in_events=2, `interrupted` by the caller also says what decided it. */
export interface InterruptDecisionFields {
  /** The hold it committed; null when the bot was cut without one (a key, or barge_in_suspect=off). */
  readonly suspect_id: string | null;
  readonly decided_by: 'duration' | 'verdict' | 'dtmf' | 'timeout' | 'policy';
  /** From the hold to the decision (0 without a hold). */
  readonly decision_ms: number;
}

export type AgentEvent =
  | {
      readonly type: 'call_started';
      readonly provider: string;
      readonly call_sid: string;
      readonly stream_sid: string;
      readonly account_sid: string;
      readonly from: string | null;
      readonly to: string | null;
      readonly direction: CallDirection | null;
      readonly answered_by: AnsweredBy | null;
      readonly custom_parameters: Readonly<Record<string, string>>;
    }
  | { readonly type: 'speech_started'; readonly at_ms: number }
  | { readonly type: 'speech_stopped'; readonly at_ms: number; readonly duration_ms: number }
  | { readonly type: 'dtmf'; readonly digit: string }
  | { readonly type: 'utterance_played'; readonly utterance_id: string | null; readonly duration_ms: number }
  | ({
      readonly type: 'interrupted';
      readonly utterance_id: string | null;
      readonly played_ms: number;
      readonly heard_text: string;
      readonly cause: InterruptCause;
    } & Partial<InterruptDecisionFields>)
  | {
      readonly type: 'interruption_suspected';
      readonly suspect_id: string;
      readonly utterance_id: string | null;
      /** The caller's sound began, on the call's media clock (as speech_started's at_ms). */
      readonly onset_ms: number;
      /** Into the utterance, what the caller had certainly heard when the bot was held. */
      readonly position_ms: number;
    }
  | {
      readonly type: 'resumed';
      readonly suspect_id: string;
      readonly utterance_id: string | null;
      /** Into the utterance, where the re-sent audio starts. */
      readonly from_ms: number;
      /** How long the bot was silent. */
      readonly gap_ms: number;
      readonly reason: ResumeReason;
    }
  | { readonly type: 'gather_result'; readonly gather_id: string; readonly digits: string; readonly reason: GatherReason }
  | { readonly type: 'call_ended'; readonly reason: string };

export type AgentMessage = SessionReply | AgentEvent;

/** A call event in its wire shape. */
export function agentEvent(event: CallEvent): AgentEvent {
  switch (event.type) {
    case 'call_started': {
      const { info } = event;
      return {
        type: 'call_started',
        provider: info.provider,
        call_sid: info.callSid,
        stream_sid: info.streamSid,
        account_sid: info.providerAccountId,
        from: info.from ?? null,
        to: info.to ?? null,
        direction: info.direction ?? null,
        answered_by: info.answeredBy ?? null,
        custom_parameters: info.customParameters,
      };
    }
    case 'speech_started':
      return { type: 'speech_started', at_ms: Math.round(event.onsetMs) };
    case 'speech_stopped':
      return { type: 'speech_stopped', at_ms: Math.round(event.atMs), duration_ms: Math.round(event.durationMs) };
    case 'dtmf':
      return { type: 'dtmf', digit: event.digit };
    case 'utterance_played':
      return { type: 'utterance_played', utterance_id: event.utteranceId ?? null, duration_ms: Math.round(event.durationMs) };
    case 'interrupted': {
      const { utterance, decision } = event;
      return {
        type: 'interrupted',
        utterance_id: utterance.utteranceId ?? null,
        played_ms: utterance.playedMs,
        heard_text: utterance.heardText,
        cause: event.cause,
        ...(decision ? { suspect_id: decision.suspectId, decided_by: decision.decidedBy, decision_ms: Math.round(decision.decisionMs) } : {}),
      };
    }
    case 'interruption_suspected':
      return {
        type: 'interruption_suspected',
        suspect_id: event.suspectId,
        utterance_id: event.at?.utteranceId ?? null,
        onset_ms: Math.round(event.onsetMs),
        position_ms: event.at?.offsetMs ?? 0,
      };
    case 'resumed':
      return {
        type: 'resumed',
        suspect_id: event.suspectId,
        utterance_id: event.from?.utteranceId ?? null,
        from_ms: event.from?.offsetMs ?? 0,
        gap_ms: Math.round(event.gapMs),
        reason: event.reason,
      };
    case 'gather_result':
      return { type: 'gather_result', gather_id: event.result.gatherId, digits: event.result.digits, reason: event.result.reason };
    case 'call_ended':
      return { type: 'call_ended', reason: event.reason };
  }
}
