// The session's output port as a test transport: records every message and frame in order, lets a test
// set the backpressure it reports, and waits for a given message type.

import type { ServerMessage } from '../../src/session/session-messages.js';
import type { SessionSink } from '../../src/session/session-sink.js';

export type Recorded = { readonly kind: 'json'; readonly message: ServerMessage } | { readonly kind: 'audio'; readonly bytes: Uint8Array };

export class RecordingSink implements SessionSink {
  readonly log: Recorded[] = [];
  closedWith: { code: number; reason: string } | undefined;
  /** What `bufferedBytes()` reports; tests raise it to simulate a client that stops reading. */
  buffered = 0;
  readonly #waiters: Array<() => void> = [];

  sendJson(message: ServerMessage): void {
    this.#record({ kind: 'json', message });
  }

  sendAudio(bytes: Uint8Array): void {
    this.#record({ kind: 'audio', bytes });
  }

  close(code: number, reason: string): void {
    this.closedWith ??= { code, reason };
    this.#wake();
  }

  bufferedBytes(): number {
    return this.buffered;
  }

  get messages(): ServerMessage[] {
    return this.log.flatMap((entry) => (entry.kind === 'json' ? [entry.message] : []));
  }

  get frames(): Uint8Array[] {
    return this.log.flatMap((entry) => (entry.kind === 'audio' ? [entry.bytes] : []));
  }

  ofType<T extends ServerMessage['type']>(type: T): Extract<ServerMessage, { type: T }>[] {
    return this.messages.filter((m): m is Extract<ServerMessage, { type: T }> => m.type === type);
  }

  /** Resolves with the `count`-th message of `type` (counting from the start of the session). */
  async waitFor<T extends ServerMessage['type']>(type: T, count = 1, timeoutMs = 20_000): Promise<Extract<ServerMessage, { type: T }>> {
    await this.until(() => this.ofType(type).length >= count, `${count} × ${type}`, timeoutMs);
    return this.ofType(type)[count - 1] as Extract<ServerMessage, { type: T }>;
  }

  async waitForFrames(count: number, timeoutMs = 20_000): Promise<void> {
    await this.until(() => this.frames.length >= count, `${count} frames`, timeoutMs);
  }

  async waitForClose(timeoutMs = 20_000): Promise<{ code: number; reason: string }> {
    await this.until(() => this.closedWith !== undefined, 'close', timeoutMs);
    return this.closedWith as { code: number; reason: string };
  }

  /** Resolves when `condition` holds; checked on every send and every 5 ms (for state outside the sink). */
  until(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const finish = (error?: Error): void => {
        clearTimeout(timer);
        clearInterval(poll);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(() => finish(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages)}`)), timeoutMs);
      const check = (): void => {
        if (condition()) finish();
        else if (this.closedWith) finish(new Error(`session closed (${JSON.stringify(this.closedWith)}) while waiting for ${what}`));
        else this.#waiters.push(check);
      };
      const poll = setInterval(() => {
        if (condition()) finish();
      }, 5);
      this.#waiters.push(check);
    });
  }

  #record(entry: Recorded): void {
    this.log.push(entry);
    this.#wake();
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}
