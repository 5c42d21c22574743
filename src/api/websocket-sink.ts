// The session sink over a `ws` socket: JSON as text messages, audio as binary messages, and a close that
// always ends, even for a peer that never reads (and so never answers the close frame).

import type { WebSocket } from 'ws';
import type { ServerMessage } from '../session/session-messages.js';
import type { SessionSink } from '../session/session-sink.js';
import { closeSocket } from '../util/ws-socket.js';

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
