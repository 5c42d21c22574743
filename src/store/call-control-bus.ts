// Call control across instances: REST `say`/`cancel`/`hangup`/`transfer`/`gather` reach the call wherever its media stream landed.
// One interface; this in-process implementation serves the embedded mode (one instance), and
// src/store/redis/call-control-bus.ts forwards through Redis pub/sub when REDIS_URL is set.

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

export type CallCommandHandler = (command: CallCommand) => CallCommandResult | Promise<CallCommandResult>;

export interface CallControlBus {
  /**
   * Serves commands for a call held by this instance; resolves (subscribed) with the function that stops serving,
   * or with null when another account's live call has this id here (a call's owner never loses control of it).
   */
  register(callSid: string, accountId: string, handler: CallCommandHandler): Promise<(() => void) | null>;
  /** Delivers to whichever instance holds the call; `not_found` when none does or it belongs to another account. */
  send(callSid: string, accountId: string, command: CallCommand): Promise<CallCommandResult>;
  /** Calls held by this instance (for shutdown and tests). */
  localCalls(): number;
  close(): Promise<void>;
}

export const CALL_NOT_FOUND: CallCommandResult = { ok: false, reason: 'not_found', message: 'No live call with this CallSid belongs to this account.' };

interface Registration {
  readonly accountId: string;
  readonly handler: CallCommandHandler;
}

/** The calls of this process, by CallSid; also the local half of the Redis bus. */
export class InProcessCallControlBus implements CallControlBus {
  readonly #calls = new Map<string, Registration>();

  async register(callSid: string, accountId: string, handler: CallCommandHandler): Promise<(() => void) | null> {
    const existing = this.#calls.get(callSid);
    if (existing !== undefined && existing.accountId !== accountId) return null;
    // The same account's newer stream for the call (a transfer that came back) takes over its commands.
    const registration = { accountId, handler };
    this.#calls.set(callSid, registration);
    return () => {
      if (this.#calls.get(callSid) === registration) this.#calls.delete(callSid);
    };
  }

  has(callSid: string): boolean {
    return this.#calls.has(callSid);
  }

  async send(callSid: string, accountId: string, command: CallCommand): Promise<CallCommandResult> {
    const registration = this.#calls.get(callSid);
    // Another account's call is "not found": its existence is not the caller's business.
    if (!registration || registration.accountId !== accountId) return CALL_NOT_FOUND;
    try {
      return await registration.handler(command);
    } catch (error) {
      return { ok: false, reason: 'unavailable', message: `The call could not take the command: ${(error as Error).message}` };
    }
  }

  localCalls(): number {
    return this.#calls.size;
  }

  async close(): Promise<void> {
    this.#calls.clear();
  }
}
