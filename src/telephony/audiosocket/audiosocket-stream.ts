// An AudioSocket TCP connection as a StreamSocket (the server's media stream, and the simulated Asterisk's end):
// the byte stream cut into packets, and a close that is a plain FIN (TCP has no close code; Asterisk hangs the
// AudioSocket leg up and the dialplan goes on).

import type { Socket } from 'node:net';
import type { StreamSocket } from '../stream-socket.js';
import { PacketSplitter } from './audiosocket-packets.js';

export function audioSocketStream(socket: Socket): StreamSocket {
  const splitter = new PacketSplitter();
  socket.on('error', () => undefined);
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
      if (!socket.destroyed) socket.end();
    },
    terminate: () => socket.destroy(),
    onFrame(handler) {
      socket.on('data', (chunk: Buffer) => {
        for (const packet of splitter.push(chunk)) handler(packet, true);
      });
    },
    onClose(handler) {
      if (socket.destroyed) queueMicrotask(() => handler(1000));
      else socket.once('close', (hadError: boolean) => handler(hadError ? 1006 : 1000));
    },
  };
}
