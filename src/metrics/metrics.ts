// The metrics port: what the server counts, as a plain interface with a no-op default. Core, session and api
// code call it; only src/metrics/prometheus-metrics.ts knows prom-client, so nothing else depends on it.

/** Where streamed audio left the server (generate returns the whole file at once, so it has no first audio). */
export type AudioPath = 'http_stream' | 'websocket' | 'call';
/** A live session that holds a connection: a /v1/tts/websocket session or a phone call. */
export type SessionKind = 'websocket' | 'call';

export interface Metrics {
  /** One HTTP response: `route` is the route pattern (never the raw URL), `errorCode` set for error envelopes. */
  httpResponse(route: string, method: string, status: number, errorCode: string | undefined): void;
  /** One `error` message on a session (its connection stays open). */
  sessionError(kind: SessionKind, code: string): void;
  /** From the request (HTTP) or the turn's start (WebSocket, call) to its first audio bytes. */
  timeToFirstAudio(path: AudioPath, ms: number): void;
  /** One clause synthesized by the engine: wall time (queue wait included) and seconds of audio made. */
  synthesized(engine: string, computeMs: number, audioMs: number): void;
  sessionOpened(kind: SessionKind): void;
  sessionClosed(kind: SessionKind): void;
  bargeIn(cause: string): void;
  /** A barge-in hold: `held` (reason `suspect`), then `resumed` (short, verdict, policy) or `committed` (duration, verdict, dtmf, timeout, policy). */
  bargeInHold(outcome: 'held' | 'resumed' | 'committed', reason: string): void;
  /** A provider reported a failed or broken media stream (Twilio stream-error callbacks, Plivo DroppedStream). */
  telephonyStreamError(provider: string, code: string): void;
  /** A new call this process refused before any audio (TELEPHONY_MAX_CALLS, or shedding on event-loop lag). */
  callRefused(provider: string, reason: string): void;
  /** Credits debited by one settled request or turn. */
  creditsConsumed(credits: number): void;
  /** The prompt cache: a lookup that hit or missed, an utterance stored or evicted (memory, or `disk_*`). */
  promptCache(event: string): void;
  /** Audio bytes the prompt cache holds, per tier (set after every change). */
  promptCacheBytes(memoryBytes: number, diskBytes: number): void;
}

/** The metrics port plus what GET /metrics serves. */
export interface ServerMetrics extends Metrics {
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
}
