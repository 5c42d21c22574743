// How problems reach a session's client: per-message `error`s (connection stays open) or a close.
// Client-side problems keep their HTTP codes; server-side conditions with no WebSocket code in the spec
// (engine queue full, store down) go out as `internal_error` whose message names the condition.

import { EngineBusyError, EngineUnavailableError } from '../engine/tts-engine.js';
import { ApiError, type ErrorCode } from '../errors.js';
import { CLOSE_CODES } from './close-codes.js';
import type { ServerMessage } from './session-messages.js';

/** The spec's WebSocket error codes, plus the two its "as for HTTP" voice/model rules bring along. */
const SESSION_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'rate_limit_exceeded',
  'concurrency_limit_exceeded',
  'insufficient_credits',
  'voice_language_not_found',
  'text_too_long',
  'missing_websocket_config',
  'validation_error',
  'internal_error',
  'invalid_model_id',
]);

export function errorMessage(error: ApiError): ServerMessage {
  const code = SESSION_ERROR_CODES.has(error.code) ? error.code : 'internal_error';
  return {
    type: 'error',
    error: {
      code,
      message: error.message,
      ...(error.code === 'rate_limit_exceeded' && error.retryAfterSeconds !== undefined
        ? { retry_after_seconds: error.retryAfterSeconds }
        : {}),
    },
  };
}

export type TurnFailure =
  | { readonly kind: 'error'; readonly error: ApiError }
  | { readonly kind: 'close'; readonly code: number; readonly reason: string };

/** What a synthesis failure in the middle of a turn does to the session. Nothing is billed in any case. */
export function classifyTurnFailure(error: unknown): TurnFailure {
  if (error instanceof EngineBusyError) {
    // A full queue is momentary: the session survives, this text is refused and may be retried.
    return {
      kind: 'error',
      error: new ApiError(
        'internal_error',
        'Synthesis capacity is full (tts_workers_busy); nothing was charged for this text. Retry it shortly with backoff.',
      ),
    };
  }
  if (error instanceof EngineUnavailableError) {
    // The spec's "worker capacity revoked mid-session": close 1011 so the client reconnects.
    return { kind: 'close', code: CLOSE_CODES.sessionLost, reason: 'synthesis worker capacity lost; reconnect' };
  }
  return { kind: 'close', code: CLOSE_CODES.internalError, reason: 'internal server error' };
}
