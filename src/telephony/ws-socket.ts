// The two chores every telephony WebSocket (the provider's media stream, the call's agent) shares: reading a text
// frame whatever shape `ws` hands it over in, and closing without letting a silent peer hold the connection.

import WebSocket, { type RawData } from 'ws';

/** A peer that never answers our close frame is terminated after this long. */
const CLOSE_HANDSHAKE_MS = 3000;

/** A text frame as a string (`ws` delivers a Buffer, fragments, or an ArrayBuffer). */
export function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** Starts the close handshake (if the socket is open or opening) and terminates it if the peer does not finish it. */
export function closeSocket(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState !== WebSocket.OPEN && socket.readyState !== WebSocket.CONNECTING) return;
  // A close reason is at most 123 bytes on the wire.
  socket.close(code, reason.slice(0, 100));
  const force = setTimeout(() => socket.terminate(), CLOSE_HANDSHAKE_MS);
  force.unref();
  socket.once('close', () => clearTimeout(force));
}
