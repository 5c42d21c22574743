// The one registry of client-visible error codes: HTTP status, retryability, and the ApiError that carries them.
// docs/errors.md lists the same codes; test/unit/errors.test.ts keeps the two in step both ways. A synthesis
// request only ever meets the statuses the spec lists for it (401, 402, 422, 429, 500, 503): a body that cannot be
// read as a JSON object is a schema failure like any other (422 validation_error naming the problem).

export const ERROR_CODES = {
  invalid_api_key: { status: 401, retryable: false },
  insufficient_credits: { status: 402, retryable: false },
  not_found: { status: 404, retryable: false },
  bad_request: { status: 400, retryable: false },
  text_too_long: { status: 422, retryable: false },
  voice_language_not_found: { status: 422, retryable: false },
  invalid_model_id: { status: 422, retryable: false },
  validation_error: { status: 422, retryable: false },
  missing_websocket_config: { status: 422, retryable: false },
  provider_not_configured: { status: 422, retryable: false },
  provider_auth_failed: { status: 422, retryable: false },
  invalid_phone_number: { status: 422, retryable: false },
  caller_id_not_allowed: { status: 422, retryable: false },
  provider_rejected: { status: 422, retryable: false },
  idempotency_conflict: { status: 422, retryable: false },
  outside_calling_hours: { status: 422, retryable: false },
  do_not_call: { status: 422, retryable: false },
  rate_limit_exceeded: { status: 429, retryable: true },
  concurrency_limit_exceeded: { status: 429, retryable: true },
  internal_error: { status: 500, retryable: true },
  tts_workers_busy: { status: 503, retryable: true },
  tts_workers_unconfigured: { status: 503, retryable: true },
  store_unavailable: { status: 503, retryable: true },
  server_shutting_down: { status: 503, retryable: true },
  server_busy: { status: 503, retryable: true },
  provider_unavailable: { status: 503, retryable: true },
  dnc_check_unavailable: { status: 503, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Seconds the client should wait; becomes `Retry-After` over HTTP and `retry_after_seconds` over WebSocket. */
  readonly retryAfterSeconds: number | undefined;
  /**
   * The request field at fault (`voice`, `speed`), when one is: the spec's envelope does not carry it (its message
   * names the field); a vendor dialect's may (OpenAI's `param`).
   */
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, options: { retryAfterSeconds?: number; field?: string } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.field = options.field;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export interface ErrorEnvelope {
  readonly error: { readonly status_code: number; readonly code: string; readonly message: string; readonly request_id?: string };
}

/**
 * The spec's HTTP error envelope. `request_id` is Raaga's additive fourth field (the same value as the
 * `X-Request-Id` header), so a pasted error body alone finds the request in the server log.
 */
export function errorEnvelope(error: ApiError, requestId?: string): ErrorEnvelope {
  const body = { status_code: error.status, code: error.code, message: error.message };
  return { error: requestId === undefined ? body : { ...body, request_id: requestId } };
}
