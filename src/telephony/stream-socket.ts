// The one thing a media stream needs of its connection, whatever carries it: a WebSocket (every provider but one)
// or a TCP socket (Asterisk AudioSocket). Frames in, frames out, close, and how much is still unsent. The
// simulated provider (src/sim/) uses the same wrappers from the other end.

import WebSocket, { type RawData } from 'ws';
import { closeSocket } from '../util/ws-socket.js';
import type { WireFrame } from './stream-events.js';

export interface StreamSocket {
  readonly open: boolean;
  send(frame: WireFrame): void;
  /** Bytes accepted by send() and not yet handed to the network. */
  bufferedBytes(): number;
  /** A polite close (the peer gets a reason where the transport has one). */
  close(code: number, reason: string): void;
  /** Drops the connection at once. */
  terminate(): void;
  onFrame(handler: (data: Uint8Array, isBinary: boolean) => void): void;
  /** `code`: the WebSocket close code; for TCP, 1000 after an orderly close and 1006 after an error. */
  onClose(handler: (code: number) => void): void;
}

/** A `ws` server-side socket as a StreamSocket. */
export function webSocketStream(socket: WebSocket): StreamSocket {
  // When `ws` refuses a frame (too big, bad UTF-8, protocol error) it stops reading, so the peer's close frame
  // never arrives and 'close' says 1006: the code it closed with is the error's.
  let closedByError: number | undefined;
  socket.on('error', (error: Error & { code?: string }) => {
    closedByError ??= error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 1009 : undefined;
  });
  return {
    get open() {
      return socket.readyState === WebSocket.OPEN;
    },
    send(frame) {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (typeof frame === 'string') socket.send(frame);
      else socket.send(frame, { binary: true });
    },
    bufferedBytes: () => socket.bufferedAmount,
    close: (code, reason) => closeSocket(socket, code, reason),
    terminate: () => socket.terminate(),
    onFrame(handler) {
      socket.on('message', (data: RawData, isBinary: boolean) => handler(rawBytes(data), isBinary));
    },
    onClose(handler) {
      // Already closed: the code is gone with the event; 1005 is "no status received".
      if (socket.readyState === WebSocket.CLOSED) queueMicrotask(() => handler(1005));
      else socket.once('close', (code: number) => handler(closedByError ?? code));
    },
  };
}

function rawBytes(data: RawData): Uint8Array {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return new Uint8Array(data);
}
