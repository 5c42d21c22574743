// Measures a /v1/tts/websocket session from the outside: wraps its sink to time each turn's first audio from the
// `text` that started it, and to count `error` replies by code. The session itself knows nothing of metrics.

import type { Metrics, SessionKind } from '../metrics/metrics.js';
import type { ServerMessage } from '../session/session-messages.js';
import type { SessionSink } from '../session/session-sink.js';

export class MeteredSessionSink implements SessionSink {
  /** When the text that may start the next turn arrived; undefined once its first audio left or it was refused. */
  #textAtMs: number | undefined;
  #speaking = false;

  constructor(
    private readonly inner: SessionSink,
    private readonly metrics: Pick<Metrics, 'timeToFirstAudio' | 'sessionError'>,
    private readonly kind: SessionKind,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The transport parsed a `text`: it starts a turn unless one is speaking (then it is refused, not queued). */
  textReceived(): void {
    if (!this.#speaking && this.#textAtMs === undefined) this.#textAtMs = this.now();
  }

  sendJson(message: ServerMessage): void {
    switch (message.type) {
      case 'error':
        this.metrics.sessionError(this.kind, message.error.code);
        if (!this.#speaking) this.#textAtMs = undefined;
        break;
      case 'end_of_utterance':
      case 'cancellation':
        this.#speaking = false;
        this.#textAtMs = undefined;
        break;
    }
    this.inner.sendJson(message);
  }

  sendAudio(bytes: Uint8Array): void {
    if (this.#textAtMs !== undefined) {
      this.metrics.timeToFirstAudio(this.kind, this.now() - this.#textAtMs);
      this.#textAtMs = undefined;
      this.#speaking = true;
    }
    this.inner.sendAudio(bytes);
  }

  close(code: number, reason: string): void {
    this.inner.close(code, reason);
  }

  bufferedBytes(): number {
    return this.inner.bufferedBytes();
  }
}
