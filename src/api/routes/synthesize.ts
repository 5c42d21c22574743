// POST /v1/tts/generate (whole file, base64 in JSON) and POST /v1/tts/stream (raw bytes as generated).
// Both validate, resolve the voice and pass admission before any audio exists, so every refusal is an envelope.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { base64JsonBody } from '../base64-json-body.js';
import type { ApiContext } from '../context.js';
import {
  admitUtterance,
  completeUtterance,
  chargeOf,
  exactSeconds,
  HTTP_SYNTHESIS_ERROR_CODES,
  settleUtterance,
  SSML_IGNORED_HEADER_DOC,
  streamHeaders,
  streamUtterance,
  type AdmittedUtterance,
} from '../http-utterance.js';
import { SynthesisResultSchema } from '../response-schemas.js';
import { errorResponses, jsonResponse, typed } from '../route-schemas.js';
import { RESPONSE_HEADERS_EXTENSION } from '../docs/openapi.js';
import { SynthesisBodySchema, synthesisParams, type SynthesisBody } from '../synthesis-request.js';

/** Rough speaking rate used for the duration estimate header (code points per second at speed 1). */
const ESTIMATED_CODE_POINTS_PER_SECOND = 14;

/** What the handlers use of a request whose body the route's schema has validated. */
type SynthesisRequest = Pick<FastifyRequest, 'account' | 'apiKeyId' | 'rateInfo' | 'log' | 'headers'> & { readonly body: SynthesisBody };

interface Prepared extends AdmittedUtterance {
  readonly format: string;
  readonly speed: number;
}

async function prepare(ctx: ApiContext, request: SynthesisRequest, mode: 'complete' | 'streaming'): Promise<Prepared> {
  const params = synthesisParams(request.body);
  const admitted = await admitUtterance(
    ctx,
    request,
    {
      text: params.text,
      codePoints: params.codePoints,
      voice: params.voice,
      language: params.language,
      format: params.outputFormat,
      sampleRateHz: params.sampleRateHz,
      speed: params.speed,
      endpoint: mode === 'complete' ? 'generate' : 'stream',
      lexicons: params.lexicons,
    },
    mode,
  );
  return { ...admitted, format: params.outputFormat, speed: params.speed };
}

async function generate(ctx: ApiContext, request: SynthesisRequest, reply: FastifyReply) {
  const admitted = await prepare(ctx, request, 'complete');
  const { utterance, codePoints, format } = admitted;
  return completeUtterance(ctx, admitted, reply, (parts, outcome) => {
    // SynthesisResultSchema's fields, written in slices (base64-json-body.ts): the schema documents the body.
    const { body, lengthBytes } = base64JsonBody('audio', parts, {
      format,
      duration_seconds: exactSeconds(utterance.durationMs),
      characters_used: chargeOf(admitted, outcome, codePoints).used,
    });
    return reply.header('Content-Type', 'application/json; charset=utf-8').header('Content-Length', String(lengthBytes)).send(body);
  });
}

async function stream(ctx: ApiContext, request: SynthesisRequest, reply: FastifyReply) {
  const admitted = await prepare(ctx, request, 'streaming');
  const body = await streamUtterance(ctx, admitted, reply, request.log);
  const estimateSeconds = admitted.codePoints / ESTIMATED_CODE_POINTS_PER_SECOND / admitted.speed;
  streamHeaders(reply, admitted)
    .header('Content-Type', 'application/octet-stream')
    .header('X-Audio-Duration-Estimate-Seconds', estimateSeconds.toFixed(1));
  return reply.send(body);
}

const SYNTHESIS_ERRORS = errorResponses(HTTP_SYNTHESIS_ERROR_CODES);

export function registerSynthesisRoutes(app: FastifyInstance, ctx: ApiContext, onRequest: (request: FastifyRequest) => Promise<void>): void {
  typed(app).post(
    '/v1/tts/generate',
    {
      onRequest,
      schema: {
        tags: ['synthesis'],
        operationId: 'generate',
        summary: 'Synthesize the whole text; the audio comes back base64-encoded in JSON.',
        body: SynthesisBodySchema,
        response: { 200: jsonResponse('The complete audio.', SynthesisResultSchema), ...SYNTHESIS_ERRORS },
        [RESPONSE_HEADERS_EXTENSION]: SSML_IGNORED_HEADER_DOC,
      },
    },
    (request, reply) => generate(ctx, request, reply),
  );
  typed(app).post(
    '/v1/tts/stream',
    {
      onRequest,
      schema: {
        tags: ['synthesis'],
        operationId: 'stream',
        summary: 'Synthesize and send raw audio bytes as they are produced (chunked transfer).',
        description:
          'Every refusal (key, validation, rate, concurrency, credits, a full engine queue) comes back as an error envelope before any audio. ' +
          'The exact duration follows as the HTTP trailer X-Audio-Duration-Seconds. A failure after audio started aborts the transfer.',
        body: SynthesisBodySchema,
        response: {
          200: { description: 'Audio bytes in the requested format.', content: { 'application/octet-stream': { schema: AUDIO_BYTES } } },
          ...SYNTHESIS_ERRORS,
        },
        [RESPONSE_HEADERS_EXTENSION]: {
          'X-Characters-Used': { description: 'Code points a completed stream debits.', schema: { type: 'integer' } },
          'X-Audio-Duration-Estimate-Seconds': { description: 'Estimate from the text length; informative only.', schema: { type: 'number' } },
          Trailer: { description: 'X-Audio-Duration-Seconds: the exact duration, sent as a trailer after the last byte.', schema: { type: 'string' } },
          ...SSML_IGNORED_HEADER_DOC,
        },
      },
    },
    (request, reply) => stream(ctx, request, reply),
  );
}

/** Raw audio: documentation only (a stream is sent as it is). */
const AUDIO_BYTES = z.string().meta({ contentMediaType: 'application/octet-stream' });
