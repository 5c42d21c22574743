// Where a session's output goes. The WebSocket route implements it over `ws`; a phone bridge implements it
// over its provider's media stream. Every method must be safe to call after the transport has gone.

import type { ServerMessage } from './session-messages.js';

export interface SessionSink {
  sendJson(message: ServerMessage): void;
  /** One frame of encoded audio in the configured format; the sink must not keep a reference it mutates. */
  sendAudio(bytes: Uint8Array): void;
  /** Ends the transport; the session has already freed its resources or is freeing them. */
  close(code: number, reason: string): void;
  /** Bytes accepted but not yet handed to the network: the backpressure signal. */
  bufferedBytes(): number;
}
