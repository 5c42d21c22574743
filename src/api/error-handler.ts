// Every error a client can meet leaves as the spec's envelope: ApiErrors as they are, framework errors
// (bad JSON, wrong content type, oversized body) as 422 validation_error naming the problem (the spec lists no
// other client status for a body), an unknown route as 404 not_found, anything else a 500
// with a generic message (the details go to the log, never to the client).

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdmissionRefusedError } from '../core/admission.js';
import { ApiError, errorEnvelope } from '../errors.js';

function fromFrameworkError(error: FastifyError, maxBodyBytes: number): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('validation_error', 'The request body is not valid JSON; send a JSON object.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('validation_error', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('validation_error', "The request body must be JSON; send it with 'Content-Type: application/json'.");
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('validation_error', `The request body exceeds ${maxBodyBytes} bytes; text is at most 3000 characters.`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('validation_error', 'Content-Length does not match the body sent; send the JSON body whole.');
  }
  // JSON.parse errors surface as SyntaxError with a 400 status.
  if (error instanceof SyntaxError) return new ApiError('validation_error', 'The request body is not valid JSON; send a JSON object.');
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('validation_error', 'The request could not be read; check the URL, headers and JSON body.');
  }
  return null;
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.request.errorCode = error.code;
  if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
  return reply.code(error.status).type('application/json; charset=utf-8').send(errorEnvelope(error, reply.request.id));
}

export function registerErrorHandling(app: FastifyInstance, maxBodyBytes: number): void {
  app.setErrorHandler((rawError: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let error: ApiError | null = rawError instanceof ApiError ? rawError : fromFrameworkError(rawError, maxBodyBytes);
    if (!error) {
      request.log.error({ err: rawError }, 'unhandled error');
      error = new ApiError('internal_error', 'Unexpected server error; retry with backoff.');
    }
    // The onSend hook writes the window headers; a refusal already knows the window.
    if (rawError instanceof AdmissionRefusedError) request.rateInfo = rawError.rate;
    return sendApiError(reply, error);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    return sendApiError(reply, new ApiError('not_found', `No endpoint ${request.method} ${path}; see the API reference in docs/api.md.`));
  });
}
