// The simulated Asterisk's side of an AudioSocket connection: a TCP connection, packets as the server cuts them.

import { connect } from 'node:net';
import type { StreamSocket } from '../../telephony/stream-socket.js';
import { audioSocketStream } from '../../telephony/audiosocket/audiosocket-stream.js';

/** `localAddress`: the address to connect from (a test of the server's allow-list binds another loopback address). */
export async function openAudioSocket(target: { host: string; port: number; localAddress?: string }, timeoutMs: number): Promise<StreamSocket> {
  const { host, port } = target;
  const socket = connect({ host, port, noDelay: true, ...(target.localAddress ? { localAddress: target.localAddress } : {}) });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`cannot open audiosocket://${host}:${port}: timed out`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot open audiosocket://${host}:${port}: ${error.message}`));
    });
  });
  return audioSocketStream(socket);
}
