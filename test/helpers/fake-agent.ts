// A conversational agent for telephony tests: a real WebSocket server on port 0 that records every message the
// call sends (JSON events in order, caller audio frames counted) and lets the test answer as an agent would.

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export type AgentEvent = Record<string, any>;

export class FakeAgent {
  readonly events: AgentEvent[] = [];
  audioFrames = 0;
  socket: WebSocket | undefined;
  /** Headers of the call's upgrade request. */
  headers: Record<string, string | string[] | undefined> = {};
  readonly #waiters = new Set<() => void>();

  private constructor(
    private readonly server: WebSocketServer,
    readonly url: string,
  ) {
    server.on('connection', (socket, request) => {
      this.socket = socket;
      this.headers = request.headers;
      socket.on('message', (data: Buffer, isBinary) => {
        if (isBinary) this.audioFrames++;
        else this.events.push(JSON.parse(data.toString('utf8')) as AgentEvent);
        this.#wake();
      });
      socket.on('close', () => this.#wake());
    });
  }

  static async start(): Promise<FakeAgent> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return new FakeAgent(server, `ws://127.0.0.1:${port}/agent`);
  }

  send(message: AgentEvent | string): void {
    this.socket?.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  ofType(type: string): AgentEvent[] {
    return this.events.filter((event) => event.type === type);
  }

  /** The `count`-th event of `type` (and matching `where`), waiting up to `timeoutMs`. */
  async waitFor(type: string, options: { count?: number; timeoutMs?: number; where?: (event: AgentEvent) => boolean } = {}): Promise<AgentEvent> {
    const { count = 1, timeoutMs = 15_000, where = () => true } = options;
    const matches = () => this.events.filter((event) => event.type === type && where(event));
    await this.until(() => matches().length >= count, `${count} × ${type}`, timeoutMs);
    return matches()[count - 1] as AgentEvent;
  }

  until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!condition()) return;
        this.#waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        // The decisions in full (why a hold was cut, what was heard), the rest by type: enough to read a failure.
        const seen = this.events.map((e) => (['interrupted', 'resumed', 'error', 'gather_result'].includes(e.type) ? e : e.type));
        reject(new Error(`agent: timed out waiting for ${what}; got ${JSON.stringify(seen)}`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** Drops the agent's socket (as a crashed agent would). */
  drop(): void {
    this.socket?.terminate();
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
