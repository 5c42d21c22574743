// ElevenLabs' error envelope on the dialect's HTTP paths: `{"detail":{"status","message"}}`, `status` being Raaga's
// error code. The statuses are the spec's, except that a body's mistake is 400 as ElevenLabs answers it (their 422
// is for a body that is not their schema, which Raaga's 400 names too); credits stay 402 so no client retries them.

import type { FastifyReply } from 'fastify';
import type { ApiError } from '../../errors.js';
import type { ErrorDialect } from '../error-handler.js';
import { ELEVENLABS_ROOT } from './elevenlabs-auth.js';
import { MAX_ELEVENLABS_TEXT_CODE_POINTS } from './elevenlabs-http.js';

/** A concurrency refusal carries no Retry-After in the spec; a retrying client waits this long. */
const CONCURRENCY_RETRY_AFTER_SECONDS = 1;

export const elevenLabsErrorDialect: ErrorDialect = {
  owns: (path) => path.startsWith(ELEVENLABS_ROOT),
  send(reply: FastifyReply, error: ApiError): FastifyReply {
    const retryAfter = error.retryAfterSeconds ?? (error.code === 'concurrency_limit_exceeded' ? CONCURRENCY_RETRY_AFTER_SECONDS : undefined);
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    const status = error.status === 422 ? 400 : error.status;
    return reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send({ detail: { status: error.code, message: error.message, request_id: reply.request.id } });
  },
  textLimit: `text is at most ${MAX_ELEVENLABS_TEXT_CODE_POINTS} characters`,
};
