// What can be asked of a live call from anywhere (REST `say`/`cancel`/`hangup`/`transfer`/`gather`, the
// provider's end-of-stream question) and what it answers: the vocabulary the call session speaks and the call-control
// bus carries between instances. A leaf, so the store's bus, the session and the routes all share one definition.

/** Any provider's call id: Twilio CallSid, Plivo CallUUID (hyphens), Asterisk channel id (dots), AudioSocket UUID. */
export const CALL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{1,127}$/;

/** A gather as asked for and as it travels between instances (the session's GatherRequest, docs/telephony.md "Gather"). */
export interface CallGather {
  /** Chosen by the caller, or `gather_<n>`. */
  readonly gatherId?: string | undefined;
  /** Spoken first, as a say with the gather's id as its utterance id. */
  readonly prompt?: string | undefined;
  readonly numDigits?: number | undefined;
  readonly finishOnKey: string;
  readonly timeoutMs: number;
  readonly interDigitTimeoutMs: number;
  readonly interruptible: boolean;
}

/** Where a gather stands: still collecting, or decided with its digits and why it ended. */
export type GatherStatus = { readonly status: 'pending' } | { readonly status: 'done'; readonly digits: string; readonly reason: string };

export type CallCommand =
  | { readonly type: 'say'; readonly text: string; readonly interruptible: boolean; readonly utteranceId?: string | undefined }
  | { readonly type: 'cancel' }
  | { readonly type: 'hangup'; readonly drain: boolean }
  | { readonly type: 'transfer'; readonly to: string; readonly callerId?: string | undefined; readonly timeoutS?: number | undefined }
  | { readonly type: 'gather'; readonly gather: CallGather }
  /** What the provider should do once the call's stream is over (Twilio's <Connect action>); served after the end. */
  | { readonly type: 'after_stream' }
  /** Answers once the gather is decided or `waitMs` passed, whichever is first. */
  | { readonly type: 'gather_result'; readonly gatherId: string; readonly waitMs: number };

/** A transfer the call asked for by ending its stream: the provider dials it next (call-session.ts). */
export interface AfterStream {
  readonly to: string;
  readonly callerId?: string | undefined;
  readonly timeoutS?: number | undefined;
}

export type CallCommandResult =
  | {
      readonly ok: true;
      readonly utteranceId?: string | undefined;
      readonly gatherId?: string | undefined;
      readonly gather?: GatherStatus | undefined;
      /** `after_stream`: the transfer to dial, or null (nothing: hang up). */
      readonly afterStream?: AfterStream | null | undefined;
    }
  | { readonly ok: false; readonly reason: 'not_found' | 'unavailable'; readonly message: string };

/** How long the holder of a call may take to answer a command beyond the bus's own reply time. */
export function commandWaitMs(command: CallCommand): number {
  return command.type === 'gather_result' ? command.waitMs : 0;
}
