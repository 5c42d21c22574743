// The vocabulary of a phone call, transport-agnostic: what the call tells its agent (on top of the session's own
// replies), and the three ports a provider bridge gives the call session: media out, call control, agent.

import type { GatherReason } from './dtmf-gather.js';
import type { ServerMessage } from './session-messages.js';
import type { AnsweredBy } from '../store/outbound-call.js';

/** Who placed the call: the caller (inbound) or the provider's API / a dial from another call (outbound). */
export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const;
export type CallDirection = (typeof CALL_DIRECTIONS)[number];

/** Facts about the call from the provider's `start` (and the voice webhook's parameters). */
export interface CallInfo {
  /** Which provider carries the call (twilio, exotel, plivo, smartflo, asterisk, audiosocket). */
  readonly provider: string;
  readonly callSid: string;
  readonly streamSid: string;
  /** The provider account (Twilio AC…), not the Raaga account. */
  readonly providerAccountId: string;
  readonly from: string | undefined;
  readonly to: string | undefined;
  /** From the provider's webhook, where it says (Twilio, Plivo). */
  readonly direction: CallDirection | undefined;
  /** The provider's answering-machine detection, when the call was placed with it (Twilio). */
  readonly answeredBy: AnsweredBy | undefined;
  /** Custom parameters of the stream, credentials removed. */
  readonly customParameters: Readonly<Record<string, string>>;
}

export type InterruptCause = 'speech' | 'dtmf' | 'cancel';

/** With barge_in_events=2, `interrupted` by the caller also says what decided it. */
export interface InterruptDecision {
  /** The hold it committed; null when the bot was cut without one (a key, or barge_in_suspect=off). */
  readonly suspect_id: string | null;
  readonly decided_by: 'duration' | 'verdict' | 'dtmf' | 'timeout' | 'policy';
  /** From the hold to the decision (0 without a hold). */
  readonly decision_ms: number;
}

/** Events the call sends its agent besides the session replies (docs/telephony.md, "Agent protocol"). */
export type CallEvent =
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
    } & Partial<InterruptDecision>)
  // With barge_in_events=2 only: the hold ("pause fast, decide slow", barge-in-controller.ts).
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
      readonly reason: 'short' | 'echo' | 'verdict' | 'policy';
    }
  | { readonly type: 'gather_result'; readonly gather_id: string; readonly digits: string; readonly reason: GatherReason }
  | { readonly type: 'call_ended'; readonly reason: string };

export type AgentMessage = Exclude<ServerMessage, { type: 'connected' }> | CallEvent;

/** Audio and playback control towards the caller (the provider's media stream). Safe after the stream is gone. */
export interface CallMediaPort {
  /** Whole 20 ms frames of 8 kHz mu-law. */
  sendMedia(bytes: Uint8Array): void;
  /** `final`: the utterance's last mark (a provider that batches audio flushes it then). */
  sendMark(name: string, final: boolean): void;
  /** Drops every buffered frame at the provider; pending marks are echoed (Twilio) or dropped (most others): the ledger ignores both. */
  sendClear(): void;
  bufferedBytes(): number;
  /** Ends the stream from our side (the provider's flow continues: TwiML after `<Connect>`, Exotel's next applet). */
  close(reason: string): void;
}

/** Ending or moving the call itself: REST when the account has credentials, else closing the stream. */
/** How a transfer dials, where the provider can say (Twilio, Plivo); a stream-ending provider's flow decides. */
export interface TransferOptions {
  /** The caller ID the transferred call shows (a number the provider account may use). */
  readonly callerId?: string | undefined;
  /** How long the target may ring, in seconds. */
  readonly timeoutS?: number | undefined;
}

/**
 * How a transfer left: the provider moved the call to the target itself (`redirected`), or the stream was closed
 * and what follows it decides (`stream-ended`: the provider's flow, dialplan, or Raaga's <Connect action> answer).
 */
export type TransferOutcome = 'redirected' | 'stream-ended';

export interface CallControlPort {
  hangup(): Promise<void>;
  transfer(to: string, options?: TransferOptions): Promise<TransferOutcome>;
}

export interface CallAgentPort {
  send(message: AgentMessage): void;
  /** Caller audio, only when the call opted in (`agent_audio`). */
  sendAudio(frame: Uint8Array): void;
  close(): void;
}
