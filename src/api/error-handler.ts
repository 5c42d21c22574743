// Every error a client can meet leaves as the spec's envelope: ApiErrors as they are, framework errors
// (bad JSON, wrong content type, oversized body) as 422 validation_error naming the problem (the spec lists no
// other client status for a body), an unknown route as 404 not_found, anything else a 500
// with a generic message (the details go to the log, never to the client). Under a vendor dialect's paths
// (src/api/<dialect>/) the same errors leave in that dialect's envelope and statuses instead (ErrorDialect).

import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdmissionRefusedError } from '../core/admission.js';
import { ApiError, errorEnvelope } from '../errors.js';

/**
 * Another vendor's wire shape for errors, on the paths it owns: the same ApiError (code, message, field, Retry-After),
 * written in its envelope with its statuses. Framework errors and 404s under those paths are answered the same way.
 */
export interface ErrorDialect {
  /** True when a request path (without its query) is the dialect's. */
  owns(path: string): boolean;
  /** Writes the error: status, headers and the dialect's envelope. */
  send(reply: FastifyReply, error: ApiError): FastifyReply;
  /** How an oversized body's message names the dialect's text field and its limit. */
  readonly textLimit: string;
}

/** The spec's routes: what an oversized body's message says of `text`. */
const SPEC_TEXT_LIMIT = 'text is at most 3000 characters';

function dialectOf(dialects: readonly ErrorDialect[], url: string): ErrorDialect | undefined {
  const path = url.split('?')[0] ?? '';
  return dialects.find((dialect) => dialect.owns(path));
}

/** The error in the envelope of the request's dialect, or the spec's. */
function answer(reply: FastifyReply, error: ApiError, dialects: readonly ErrorDialect[]): FastifyReply {
  const dialect = dialectOf(dialects, reply.request.url);
  if (!dialect) return sendApiError(reply, error);
  reply.request.errorCode = error.code;
  return dialect.send(reply, error);
}

function fromFrameworkError(error: FastifyError, maxBodyBytes: number, textLimit = SPEC_TEXT_LIMIT): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('validation_error', 'The request body is not valid JSON; send a JSON object.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('validation_error', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('validation_error', "The request body must be JSON; send it with 'Content-Type: application/json'.");
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('validation_error', `The request body exceeds ${maxBodyBytes} bytes; ${textLimit}.`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('validation_error', 'Content-Length does not match the body sent; send the JSON body whole.');
    case 'FST_ERR_BAD_URL':
      return new ApiError('validation_error', 'The URL is not valid (a malformed percent-encoding); encode the path with encodeURIComponent.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('validation_error', `A path segment of the URL is longer than ${MAX_PATH_PARAM_CHARS} characters; no Raaga id is that long.`);
  }
  // JSON.parse errors surface as SyntaxError with a 400 status.
  if (error instanceof SyntaxError) return new ApiError('validation_error', 'The request body is not valid JSON; send a JSON object.');
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('validation_error', 'The request could not be read; check the URL, headers and JSON body.');
  }
  return null;
}

/** The longest path parameter routing accepts (Plivo's stream URL carries a ~180-character call token). */
export const MAX_PATH_PARAM_CHARS = 512;

/**
 * Errors fastify raises before a route is found (a malformed percent-encoding, an over-long path segment): the
 * envelope like every other error (fastify's `frameworkErrors` option).
 */
export function frameworkErrorAnswer(maxBodyBytes: number, dialects: readonly ErrorDialect[] = []) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    // Before routing the onSend hook that names the request does not run.
    reply.header('X-Request-Id', request.id);
    const textLimit = dialectOf(dialects, request.url)?.textLimit;
    void answer(reply, fromFrameworkError(error, maxBodyBytes, textLimit) ?? new ApiError('validation_error', 'The request could not be read; check the URL.'), dialects);
  };
}

/**
 * What the HTTP parser refuses before there is a request (fastify's `clientErrorHandler`): headers or a body that
 * did not arrive within the timeouts, malformed HTTP, oversized headers. Answered with the envelope, then closed.
 */
export function clientErrorAnswer(timeouts: { readonly headersMs: number; readonly requestMs: number }) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('validation_error', `The request did not arrive in time (headers within ${timeouts.headersMs} ms, the whole request within ${timeouts.requestMs} ms); send it at once.`)
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? new ApiError('validation_error', 'The request headers are too large; send less than 16 KiB of headers.')
          : new ApiError('bad_request', 'The request is not valid HTTP/1.1.');
    if (socket.writable) {
      const body = JSON.stringify(errorEnvelope(answer));
      socket.write(`HTTP/1.1 ${answer.status} ${answer.status === 400 ? 'Bad Request' : 'Unprocessable Entity'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    }
    socket.destroy();
  };
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.request.errorCode = error.code;
  if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
  return reply.code(error.status).type('application/json; charset=utf-8').send(errorEnvelope(error, reply.request.id));
}

export function registerErrorHandling(app: FastifyInstance, maxBodyBytes: number, dialects: readonly ErrorDialect[] = []): void {
  app.setErrorHandler((rawError: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const textLimit = dialectOf(dialects, request.url)?.textLimit;
    let error: ApiError | null = rawError instanceof ApiError ? rawError : fromFrameworkError(rawError, maxBodyBytes, textLimit);
    if (!error) {
      request.log.error({ err: rawError }, 'unhandled error');
      error = new ApiError('internal_error', 'Unexpected server error; retry with backoff.');
    }
    // The onSend hook writes the window headers; a refusal already knows the window.
    if (rawError instanceof AdmissionRefusedError) request.rateInfo = rawError.rate;
    return answer(reply, error, dialects);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    return answer(reply, new ApiError('not_found', `No endpoint ${request.method} ${path}; see the API reference in docs/api.md.`), dialects);
  });
}
