// An AudioSocket TCP connection as a StreamSocket (the server's media stream, and the simulated Asterisk's end):
// the byte stream cut into packets, and a close that is a plain FIN (TCP has no close code; Asterisk hangs the
// AudioSocket leg up and the dialplan goes on), made final by the peer's FIN or, from a peer gone half-open, by the
// close timeout.

import type { Socket } from 'node:net';
import { monotonicClock, type Clock, type ClockTimer } from '../../session/clock.js';
import type { StreamSocket } from '../stream-socket.js';
import { PacketSplitter } from './audiosocket-packets.js';

/**
 * After our FIN, the peer has this long to close its side before the connection is destroyed: a peer that went away
 * half-open (no hangup packet, no FIN; a host or NAT gone) would otherwise hold the descriptor for as long as the
 * kernel keeps the connection, which for an idle one is forever. The WebSocket close handshake's bound, the same.
 */
export const AUDIOSOCKET_CLOSE_TIMEOUT_MS = 3000;

export interface AudioSocketStreamOptions {
  /** Times the close timeout (tests: a fake clock). Default: the monotonic clock. */
  readonly clock?: Clock;
}

export function audioSocketStream(socket: Socket, options: AudioSocketStreamOptions = {}): StreamSocket {
  const clock = options.clock ?? monotonicClock;
  const splitter = new PacketSplitter();
  const handlers: ((data: Uint8Array, isBinary: boolean) => void)[] = [];
  /** Packets read before the first handler came (the simulator's peer attaches after an await); none once closing. */
  let early: Uint8Array[] | undefined = [];
  let closeTimer: ClockTimer | undefined;
  socket.on('error', () => undefined);
  // Always read, whether or not anyone wants the frames (a refused connection's never does): a socket nobody reads
  // never sees the peer's FIN, so it never closes and its descriptor outlives the call. Packets that come before the
  // first handler are kept for it; once we close with nobody listening, they are read and dropped.
  socket.on('data', (chunk: Buffer) => {
    const packets = splitter.push(chunk);
    if (handlers.length === 0) early?.push(...packets);
    else for (const packet of packets) for (const handler of handlers) handler(packet, true);
  });
  socket.once('close', () => {
    if (closeTimer !== undefined) clock.clearTimeout(closeTimer);
    closeTimer = undefined;
  });
  return {
    get open() {
      return !socket.destroyed && socket.writable;
    },
    send(frame) {
      if (socket.destroyed || !socket.writable) return;
      socket.write(typeof frame === 'string' ? Buffer.from(frame, 'utf8') : frame);
    },
    // Self-paced: one packet per frame interval, nothing to batch.
    flush: () => undefined,
    bufferedBytes: () => socket.writableLength,
    close: () => {
      if (socket.destroyed) return;
      early = undefined;
      socket.end();
      closeTimer ??= clock.setTimeout(() => {
        closeTimer = undefined;
        socket.destroy();
      }, AUDIOSOCKET_CLOSE_TIMEOUT_MS);
    },
    terminate: () => socket.destroy(),
    onFrame(handler) {
      handlers.push(handler);
      const kept = early ?? [];
      early = undefined;
      // Delivered before any later packet: the next 'data' event needs another turn of the event loop.
      if (kept.length > 0) queueMicrotask(() => kept.forEach((packet) => handler(packet, true)));
    },
    onClose(handler) {
      if (socket.destroyed) queueMicrotask(() => handler(1000));
      else socket.once('close', (hadError: boolean) => handler(hadError ? 1006 : 1000));
    },
  };
}
