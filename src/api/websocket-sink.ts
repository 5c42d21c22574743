// The session sink over a `ws` socket: JSON as text messages, audio as binary messages, and a close that
// always ends, even for a peer that never reads (and so never answers the close frame).

// Type only: the runtime `ws` is the one @fastify/websocket brings; its constants are read off the instance.
import type { WebSocket } from 'ws';
import type { ServerMessage } from '../session/session-messages.js';
import type { SessionSink } from '../session/session-sink.js';

/** How long a server-initiated close waits for the peer's close frame before dropping the connection. */
const CLOSE_HANDSHAKE_MS = 3000;
/** RFC 6455 limits a close reason to 123 bytes of UTF-8. */
const MAX_REASON_BYTES = 123;

export class WebSocketSessionSink implements SessionSink {
  constructor(private readonly socket: WebSocket) {}

  sendJson(message: ServerMessage): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  sendAudio(bytes: Uint8Array): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(bytes, { binary: true });
  }

  close(code: number, reason: string): void {
    closeSocket(this.socket, code, reason);
  }

  bufferedBytes(): number {
    return this.socket.bufferedAmount;
  }
}

export function closeSocket(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState !== socket.OPEN && socket.readyState !== socket.CONNECTING) return;
  socket.close(code, truncateUtf8(reason, MAX_REASON_BYTES));
  const force = setTimeout(() => socket.terminate(), CLOSE_HANDSHAKE_MS);
  force.unref();
  socket.once('close', () => clearTimeout(force));
}

function truncateUtf8(text: string, maxBytes: number): string {
  let out = text;
  while (Buffer.byteLength(out) > maxBytes) out = out.slice(0, -1);
  return out;
}
