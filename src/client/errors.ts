// What the client throws: the server's error envelope (or WebSocket `error`) as a typed error carrying the code,
// status, request id and retry hint; and the WebSocket closing under a session.

export class RaagaApiError extends Error {
  constructor(
    message: string,
    /** The spec's error code, e.g. `rate_limit_exceeded`; `http_error` when the body was not an envelope. */
    readonly code: string,
    /** HTTP status; undefined for WebSocket `error` messages. */
    readonly status: number | undefined,
    /** X-Request-Id (HTTP) to quote when reporting a problem. */
    readonly requestId: string | undefined,
    /** Retry-After (HTTP) or retry_after_seconds (WebSocket), in seconds. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.name = 'RaagaApiError';
  }
}

export class RaagaSessionClosedError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`the WebSocket closed with ${code}${reason ? ` (${reason})` : ''}`);
    this.name = 'RaagaSessionClosedError';
  }
}
