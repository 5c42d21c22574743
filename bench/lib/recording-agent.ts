// A conversational agent for the phone benches: a WebSocket server that keeps every event of every call with its
// arrival time (performance.now), lets the bench wait for one, and may speak as soon as a call starts.

import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface AgentCall {
  readonly socket: WebSocket;
  readonly received: { type: string; at: number; event: Record<string, unknown> }[];
  readonly waiters: Set<() => void>;
}

export interface RecordingAgent {
  /** The agent_url calls dial. */
  readonly url: string;
  /** The call's agent connection (by the X-Raaga-Call-Sid header), once Raaga has dialled it. */
  call(callSid: string, timeoutMs: number): Promise<AgentCall>;
  /** The first event of `type` that arrived at or after `after` (performance.now ms). */
  event(call: AgentCall, type: string, timeoutMs: number, after?: number): Promise<{ at: number; event: Record<string, unknown> }>;
  forget(callSid: string): void;
  close(): void;
}

/** `onCallStarted` runs on each `call_started` (e.g. to speak a prompt at once). */
export async function startRecordingAgent(onCallStarted?: (socket: WebSocket) => void): Promise<RecordingAgent> {
  const calls = new Map<string, AgentCall>();
  const pending = new Map<string, (call: AgentCall) => void>();
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const callSid = String(request.headers['x-raaga-call-sid']);
    const call: AgentCall = { socket, received: [], waiters: new Set() };
    calls.set(callSid, call);
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      const event = JSON.parse(data.toString('utf8')) as Record<string, unknown> & { type: string };
      call.received.push({ type: event.type, at: performance.now(), event });
      if (event.type === 'call_started') onCallStarted?.(socket);
      for (const wake of [...call.waiters]) wake();
    });
    pending.get(callSid)?.(call);
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
    call(callSid, timeoutMs) {
      const known = calls.get(callSid);
      if (known) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no agent connection for ${callSid}`)), timeoutMs);
        pending.set(callSid, (call) => {
          clearTimeout(timer);
          pending.delete(callSid);
          resolve(call);
        });
      });
    },
    event(call, type, timeoutMs, after = 0) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = call.received.find((e) => e.type === type && e.at >= after);
          if (!found) return;
          call.waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          call.waiters.delete(check);
          reject(new Error(`agent: no ${type} within ${timeoutMs} ms (got ${call.received.map((e) => e.type).join(', ')})`));
        }, timeoutMs);
        call.waiters.add(check);
        check();
      });
    },
    forget: (callSid) => calls.delete(callSid),
    close() {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}
