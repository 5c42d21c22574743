// The two chores every WebSocket Raaga serves or dials (/v1/tts/websocket, the provider's media stream, a call's
// agent) shares: reading a text frame whatever shape `ws` hands it over in, and closing without letting a silent
// peer hold the connection.

import WebSocket, { type RawData } from 'ws';

/** A peer that never answers our close frame is terminated after this long. */
const CLOSE_HANDSHAKE_MS = 3000;
/** RFC 6455: a close frame's reason is at most 123 bytes of UTF-8 (ws throws beyond that). */
const MAX_REASON_BYTES = 123;

/** A text frame as a string (`ws` delivers a Buffer, fragments, or an ArrayBuffer). */
export function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** Starts the close handshake (if the socket is open or opening) and terminates it if the peer does not finish it. */
export function closeSocket(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState !== WebSocket.OPEN && socket.readyState !== WebSocket.CONNECTING) return;
  socket.close(code, truncateUtf8(reason, MAX_REASON_BYTES));
  const force = setTimeout(() => socket.terminate(), CLOSE_HANDSHAKE_MS);
  force.unref();
  socket.once('close', () => clearTimeout(force));
}

/** Cuts whole code points off the end until the UTF-8 form fits (Indic reasons are 3 bytes a character). */
function truncateUtf8(text: string, maxBytes: number): string {
  let out = text;
  while (Buffer.byteLength(out) > maxBytes) out = [...out].slice(0, -1).join('');
  return out;
}
