// The one thing a media stream needs of its connection, whatever carries it: a WebSocket (every provider but one)
// or a TCP socket (Asterisk AudioSocket). Frames in, frames out, close, and how much is still unsent. The
// simulated provider (src/sim/) uses the same wrappers from the other end.
// A server-side WebSocket given its TCP socket batches writes: every message sent in one turn of the event loop
// leaves in one write (a refill is 3 frames and 1-2 marks), each message still its own WebSocket frame with the
// same bytes. A write per message was 9 % of the event loop's busy time at 48 calls (docs/notes/performance-history.md).

import WebSocket, { type RawData } from 'ws';
import { closeSocket } from '../util/ws-socket.js';
import type { WireFrame } from './stream-events.js';

export interface StreamSocket {
  readonly open: boolean;
  /** Queues one message; it reaches the network by the end of this turn of the event loop, or at flush(). */
  send(frame: WireFrame): void;
  /** What send() queued leaves now (a `clear`, whose latency is barge-in's). */
  flush(): void;
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

/** The TCP socket under a WebSocket: node's net.Socket holds writes while corked and sends them in one writev. */
export interface CorkableTransport {
  cork(): void;
  uncork(): void;
}

/** A `ws` socket as a StreamSocket; with `transport` (the upgraded TCP socket), a turn's sends leave in one write. */
export function webSocketStream(socket: WebSocket, transport?: CorkableTransport): StreamSocket {
  // When `ws` refuses a frame (too big, bad UTF-8, protocol error) it stops reading, so the peer's close frame
  // never arrives and 'close' says 1006: the code it closed with is the error's.
  let closedByError: number | undefined;
  socket.on('error', (error: Error & { code?: string }) => {
    closedByError ??= error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 1009 : undefined;
  });
  let corked = false;
  const flush = (): void => {
    if (!corked) return;
    corked = false;
    transport!.uncork();
  };
  return {
    get open() {
      return socket.readyState === WebSocket.OPEN;
    },
    send(frame) {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (transport && !corked) {
        // ws corks around each frame's header and payload too; the count nests, so all of them wait for flush.
        corked = true;
        transport.cork();
        setImmediate(flush);
      }
      if (typeof frame === 'string') socket.send(frame);
      else socket.send(frame, { binary: true });
    },
    flush,
    bufferedBytes: () => socket.bufferedAmount,
    close: (code, reason) => {
      flush();
      closeSocket(socket, code, reason);
    },
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
