// How a call ends, and with what reason: a hangup (with `drain`, once what is queued has played), a transfer (by the
// provider's REST, or by ending the stream, and then what to dial is kept for the provider to ask), or the stream's
// own end. The first of them names the end. A provider that refuses the control gets the stream closed from our side,
// so that nothing is left holding a slot.

import type { AfterStream } from '../call-commands.js';
import type { CallControlPort, CallMediaPort, TransferOptions } from './call-events.js';
import { sleep, type Clock } from './clock.js';
import type { SessionLogger } from './synthesis-session.js';

/** A draining hangup waits at most this long for the queued audio to play. */
const MAX_DRAIN_MS = 30_000;
const DRAIN_POLL_MS = 50;

export interface CallEndingDeps {
  readonly control: CallControlPort;
  readonly media: Pick<CallMediaPort, 'close'>;
  readonly clock: Clock;
  readonly logger: Pick<SessionLogger, 'warn'>;
  /** Nothing is speaking, queued or unplayed: a draining hangup may go ahead. */
  readonly quiet: () => boolean;
}

export class CallEnding {
  readonly #deps: CallEndingDeps;
  #reason: string | undefined;
  #afterStream: AfterStream | undefined;

  constructor(deps: CallEndingDeps) {
    this.#deps = deps;
  }

  /** A hangup or transfer began, or the stream is over. */
  get ended(): boolean {
    return this.#reason !== undefined;
  }

  /**
   * The transfer to dial after the stream, when the call ended its stream to transfer (no provider REST): Twilio's
   * <Connect action> request asks for it, even after the call ended. Undefined otherwise (the provider hangs up).
   */
  get afterStream(): AfterStream | undefined {
    return this.#afterStream;
  }

  /** With `drain`, after what is queued has played (at most MAX_DRAIN_MS). */
  async hangup(drain: boolean): Promise<void> {
    if (this.ended) return;
    if (drain) await this.#drained();
    if (this.ended) return;
    this.#reason = 'hangup';
    await this.#run('hangup', () => this.#deps.control.hangup());
  }

  /** `stopSpeaking` runs once the call counts as ended, before the provider is asked. */
  async transfer(to: string, options: TransferOptions, stopSpeaking: () => void): Promise<void> {
    if (this.ended) return;
    this.#reason = 'transfer';
    stopSpeaking();
    await this.#run('transfer', async () => {
      // Kept before the stream closes: the provider may ask for it the moment it does (Twilio's <Connect action>).
      this.#afterStream = { to, ...options };
      if ((await this.#deps.control.transfer(to, options)) === 'redirected') this.#afterStream = undefined;
    });
  }

  /** The stream is over: returns the call's end reason (a hangup or transfer we started keeps its name). */
  streamEnded(reason: string): string {
    this.#reason ??= reason;
    return this.#reason;
  }

  async #drained(): Promise<void> {
    const { clock, quiet } = this.#deps;
    const deadline = clock.now() + MAX_DRAIN_MS;
    const never = new AbortController().signal;
    while (!this.ended && clock.now() < deadline) {
      if (quiet()) return;
      await sleep(clock, DRAIN_POLL_MS, never);
    }
  }

  async #run(what: string, action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      this.#deps.logger.warn({ err: error, action: what }, 'call control failed; closing the stream');
      this.#deps.media.close(`${what} failed`);
    }
  }
}
