// Call control across instances: REST `say`/`cancel`/`hangup`/`transfer`/`gather` reach the call wherever its media stream landed.
// One interface; this in-process implementation serves the embedded mode (one instance), and
// src/store/redis/call-control-bus.ts forwards through Redis pub/sub when REDIS_URL is set. What travels on it is
// the call-command vocabulary (src/call-commands.ts); the bus only carries it.

import type { CallCommand, CallCommandResult } from '../call-commands.js';

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
