// The vocabulary of a phone call, transport-agnostic: what the call tells its agent (on top of the session's own
// replies), and the three ports a provider bridge gives the call session: media out, call control, agent.

import type { ResumeReason } from './barge-in/barge-in-controller.js';
import type { GatherResult } from './dtmf-gather.js';
import type { InterruptedUtterance } from './playback-ledger.js';
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

/** What decided a barge-in: the hold it committed (null: the bot was cut without one), by what, how long it took. */
export interface InterruptDecision {
  readonly suspectId: string | null;
  readonly decidedBy: 'duration' | 'verdict' | 'dtmf' | 'timeout' | 'policy';
  /** From the hold to the decision, on the caller's audio (0 without a hold). */
  readonly decisionMs: number;
}

/** Where in an utterance a position of the call's playback falls (PlaybackLedger.locate). */
export interface UtteranceOffset {
  readonly utteranceId: string | undefined;
  readonly offsetMs: number;
}

/**
 * What the call tells its agent besides the session's replies, in the call's own terms; the agent link puts them on
 * the wire (telephony/agent/agent-events.ts; docs/telephony.md, "Agent protocol").
 */
export type CallEvent =
  | { readonly type: 'call_started'; readonly info: CallInfo }
  /** `onsetMs`: when the caller's speech began, on the call's media clock. */
  | { readonly type: 'speech_started'; readonly onsetMs: number }
  | { readonly type: 'speech_stopped'; readonly atMs: number; readonly durationMs: number }
  | { readonly type: 'dtmf'; readonly digit: string }
  | { readonly type: 'utterance_played'; readonly utteranceId: string | undefined; readonly durationMs: number }
  /** `decision` only when the agent opted in to barge-in events (barge_in_events=2) and the caller interrupted. */
  | { readonly type: 'interrupted'; readonly utterance: InterruptedUtterance; readonly cause: InterruptCause; readonly decision: InterruptDecision | undefined }
  // With barge_in_events=2 only: the hold ("pause fast, decide slow", barge-in/barge-in-controller.ts).
  /** `at`: what the caller had certainly heard when the bot was held; `onsetMs` as speech_started's. */
  | { readonly type: 'interruption_suspected'; readonly suspectId: string; readonly onsetMs: number; readonly at: UtteranceOffset | undefined }
  /** `from`: where the re-sent audio starts; `gapMs`: how long the bot was silent (caller audio). */
  | { readonly type: 'resumed'; readonly suspectId: string; readonly from: UtteranceOffset | undefined; readonly gapMs: number; readonly reason: ResumeReason }
  | { readonly type: 'gather_result'; readonly result: GatherResult }
  | { readonly type: 'call_ended'; readonly reason: string };

/** The session's own replies, as /v1/tts/websocket sends them (`connected` is the WebSocket's greeting only). */
export type SessionReply = Exclude<ServerMessage, { type: 'connected' }>;

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

/** Ending or moving the call itself: REST when the account has credentials, else closing the stream. */
export interface CallControlPort {
  hangup(): Promise<void>;
  transfer(to: string, options?: TransferOptions): Promise<TransferOutcome>;
}

export interface CallAgentPort {
  event(event: CallEvent): void;
  reply(message: SessionReply): void;
  /** Caller audio, only when the call opted in (`agent_audio`). */
  sendAudio(frame: Uint8Array): void;
  close(): void;
}
