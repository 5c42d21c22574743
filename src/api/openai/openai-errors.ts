// OpenAI's error envelope on the dialect's paths: `{"error":{"message","type","param","code"}}` with the statuses the
// official SDKs act on as meant. They retry 408, 409, 429 and 5xx (honouring Retry-After) and raise the rest, so
// credits stay 402 (never a retry), the spec's 422s become 400, and both 429s say when to come back.

import type { FastifyReply } from 'fastify';
import type { ApiError, ErrorCode } from '../../errors.js';
import type { ErrorDialect } from '../error-handler.js';
import { MAX_INPUT_CODE_POINTS } from './speech-request.js';

/** The paths OpenAI's clients call: /v1/audio/… and /v1/models…, nothing of the spec's own. */
const OPENAI_PATHS = /^\/v1\/(audio|models)(\/|$)/;

/** A concurrency refusal carries no Retry-After in the spec; OpenAI's clients wait this long before their retry. */
const CONCURRENCY_RETRY_AFTER_SECONDS = 1;

export interface OpenAiErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    /** Raaga's error code (docs/errors.md). */
    readonly code: ErrorCode;
    /** Raaga's request id, as on every envelope (X-Request-Id). */
    readonly request_id: string;
  };
}

/** The spec's statuses as OpenAI's: a client's mistake in a body is 400 there; everything else keeps its status. */
export function openAiStatus(specStatus: number): number {
  return specStatus === 422 ? 400 : specStatus;
}

/** OpenAI's `type` for a status, as its API writes them. */
function openAiType(status: number): string {
  if (status === 402) return 'insufficient_quota';
  if (status === 429) return 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** The request field an error is about when the error does not say: those with one field only. */
const FIELD_OF_CODE: Partial<Record<ErrorCode, string>> = {
  text_too_long: 'input',
  voice_language_not_found: 'voice',
  invalid_model_id: 'model',
};

export function openAiErrorBody(error: ApiError, requestId: string): OpenAiErrorBody {
  const status = openAiStatus(error.status);
  return {
    error: { message: error.message, type: openAiType(status), param: error.field ?? FIELD_OF_CODE[error.code] ?? null, code: error.code, request_id: requestId },
  };
}

export const openAiErrorDialect: ErrorDialect = {
  owns: (path) => OPENAI_PATHS.test(path),
  send(reply: FastifyReply, error: ApiError): FastifyReply {
    const retryAfter = error.retryAfterSeconds ?? (error.code === 'concurrency_limit_exceeded' ? CONCURRENCY_RETRY_AFTER_SECONDS : undefined);
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    return reply.code(openAiStatus(error.status)).type('application/json; charset=utf-8').send(openAiErrorBody(error, reply.request.id));
  },
  textLimit: `input is at most ${MAX_INPUT_CODE_POINTS} characters`,
};
