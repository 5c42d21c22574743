// A `ws` client for e2e tests: records every server message and audio frame in arrival order, waits for
// a message type or the close, and sends JSON (or raw data for malformed-input tests).

import WebSocket from 'ws';
import type { TestServer } from './test-server.js';

// Loose on purpose: tests assert the wire shapes themselves.
export type Json = Record<string, any>;
export type Received = { readonly kind: 'json'; readonly message: Json } | { readonly kind: 'audio'; readonly bytes: Buffer };

export class WsTestClient {
  readonly log: Received[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  closeInfo: { code: number; reason: string } | undefined;
  readonly #waiters: Array<() => void> = [];

  constructor(readonly socket: WebSocket) {
    this.opened = new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    this.closed = new Promise((resolve) => {
      socket.once('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        resolve(this.closeInfo);
        this.#wake();
      });
    });
    socket.on('error', () => undefined);
    socket.on('message', (data: Buffer, isBinary) => {
      this.log.push(isBinary ? { kind: 'audio', bytes: data } : { kind: 'json', message: JSON.parse(data.toString('utf8')) as Json });
      this.#wake();
    });
  }

  send(message: Json | string | Buffer): void {
    this.socket.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message));
  }

  get messages(): Json[] {
    return this.log.flatMap((entry) => (entry.kind === 'json' ? [entry.message] : []));
  }

  ofType(type: string): Json[] {
    return this.messages.filter((m) => m.type === type);
  }

  get frames(): Buffer[] {
    return this.log.flatMap((entry) => (entry.kind === 'audio' ? [entry.bytes] : []));
  }

  /** The `count`-th message of `type`, counting from the start of the connection. */
  async waitFor(type: string, count = 1, timeoutMs = 20_000): Promise<Json> {
    await this.until(() => this.ofType(type).length >= count, `${count} × ${type}`, timeoutMs);
    return this.ofType(type)[count - 1] as Json;
  }

  async waitForFrames(count: number, timeoutMs = 20_000): Promise<void> {
    await this.until(() => this.frames.length >= count, `${count} frames`, timeoutMs);
  }

  until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages)} close=${JSON.stringify(this.closeInfo)}`)),
        timeoutMs,
      );
      const check = (): void => {
        if (condition()) {
          clearTimeout(timer);
          resolve();
        } else if (this.closeInfo && !condition()) {
          clearTimeout(timer);
          reject(new Error(`socket closed (${JSON.stringify(this.closeInfo)}) while waiting for ${what}; got ${JSON.stringify(this.messages)}`));
        } else {
          this.#waiters.push(check);
        }
      };
      this.#waiters.push(check);
    });
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}

export function wsUrl(server: TestServer): string {
  return `${server.url.replace(/^http/, 'ws')}/v1/tts/websocket`;
}

/** Opens a socket with `Authorization: Bearer <key>` (no header when key is undefined). */
export function connect(server: TestServer, key: string | undefined): WsTestClient {
  return new WsTestClient(new WebSocket(wsUrl(server), key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } }));
}

/** Connects and waits for `connected`. */
export async function openClient(server: TestServer, key: string): Promise<WsTestClient> {
  const client = connect(server, key);
  await client.opened;
  await client.waitFor('connected');
  return client;
}

export function configMessage(extra: Json = {}): Json {
  return { type: 'config', model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', ...extra };
}

/** Connects, configures and waits for `configured`. */
export async function openConfigured(server: TestServer, key: string, extra: Json = {}): Promise<WsTestClient> {
  const client = await openClient(server, key);
  client.send(configMessage(extra));
  await client.waitFor('configured');
  return client;
}
