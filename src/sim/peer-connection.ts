// How the simulated provider reaches the server: a WebSocket for every provider but one (AudioSocket's TCP is in
// dialects/audiosocket-connection.ts), wrapped as the same StreamSocket the server uses.

import WebSocket from 'ws';
import { webSocketStream, type StreamSocket } from '../telephony/stream-socket.js';

/** Opens a WebSocket with the provider's upgrade headers; rejects with the server's answer if the upgrade fails. */
export async function openWebSocket(url: string, headers: Readonly<Record<string, string>>, timeoutMs: number): Promise<StreamSocket> {
  const socket = new WebSocket(url, { headers: { ...headers }, handshakeTimeout: timeoutMs });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', (error) => reject(new Error(`cannot open ${url}: ${error.message}`)));
  });
  return webSocketStream(socket);
}
