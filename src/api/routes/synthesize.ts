// POST /v1/tts/generate (whole file, base64 in JSON) and POST /v1/tts/stream (raw bytes as generated).
// Both validate, resolve the voice and pass admission before any audio exists, so every refusal is an envelope.

import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Ticket } from '../../core/admission.js';
import { chargeFor, type Charge, type UtteranceOutcome } from '../../core/synthesis/billing.js';
import type { Utterance } from '../../core/synthesis/utterance.js';
import type { Account } from '../../store/store.js';
import { base64JsonBody } from '../base64-json-body.js';
import { refusesCachedAudio } from '../cache-control.js';
import type { ApiContext } from '../context.js';
import { engineErrorToApiError } from '../engine-errors.js';
import { ABORT_REASONS, requestAbortSignal } from '../request-abort.js';
import { SynthesisResultSchema } from '../response-schemas.js';
import { errorResponses, jsonResponse, typed } from '../route-schemas.js';
import { RESPONSE_HEADERS_EXTENSION } from '../docs/openapi.js';
import { SynthesisBodySchema, synthesisParams, type SynthesisBody } from '../synthesis-request.js';

/** Rough speaking rate used for the duration estimate header (code points per second at speed 1). */
const ESTIMATED_CODE_POINTS_PER_SECOND = 14;

interface Prepared {
  readonly ticket: Ticket;
  readonly utterance: Utterance;
  readonly codePoints: number;
  readonly format: string;
  readonly speed: number;
}

/** What the handlers use of a request whose body the route's schema has validated. */
type SynthesisRequest = Pick<FastifyRequest, 'account' | 'apiKeyId' | 'rateInfo' | 'log' | 'headers'> & { readonly body: SynthesisBody };

async function prepare(ctx: ApiContext, request: SynthesisRequest, mode: 'complete' | 'streaming'): Promise<Prepared> {
  const account = request.account as Account;
  const params = synthesisParams(request.body);
  const voice = await ctx.voices.resolve(account, params.voice, params.language);
  const ticket = await ctx.admission.admit({
    account,
    countRate: true,
    takeSlot: true,
    credits: params.codePoints,
    usage: { keyId: request.apiKeyId, endpoint: mode === 'complete' ? 'generate' : 'stream', voice: params.voice, language: params.language },
  });
  request.rateInfo = ticket.rate;
  const utterance = ctx.synthesis.utterance({
    text: params.text,
    language: params.language,
    voice,
    format: params.outputFormat,
    sampleRateHz: params.sampleRateHz,
    speed: params.speed,
    mode,
    cache: !refusesCachedAudio(request.headers['cache-control']),
    accountId: account.id,
  });
  return { ticket, utterance, codePoints: params.codePoints, format: params.outputFormat, speed: params.speed };
}

/** Exact seconds of the samples produced (no rounding: clients may multiply back to a sample count). */
function seconds(ms: number): number {
  return Number((ms / 1000).toFixed(6));
}

/**
 * An HTTP synthesis by the billing rule (core/synthesis/billing.ts): `deliveredCodePoints` is what reached the client
 * (generate: what was synthesized before the client left); a request cancelled after admission pays its first chunk
 * at least, so leaving early never makes the work it set going free.
 */
function charged(utterance: Utterance, codePoints: number, outcome: UtteranceOutcome, deliveredCodePoints: number): Charge {
  return chargeFor({
    outcome,
    totalCodePoints: codePoints,
    deliveredCodePoints,
    cancelledMinimumCodePoints: utterance.chunks[0]?.codePoints ?? 0,
    audioMs: utterance.durationMs,
    engine: utterance.engineKind,
  });
}

async function settle(ticket: Ticket, utterance: Utterance, codePoints: number, outcome: UtteranceOutcome, deliveredCodePoints: number): Promise<void> {
  const { used, report } = charged(utterance, codePoints, outcome, deliveredCodePoints);
  await ticket.finish(used, report);
}

async function generate(ctx: ApiContext, request: SynthesisRequest, reply: FastifyReply) {
  const { ticket, utterance, codePoints, format } = await prepare(ctx, request, 'complete');
  const signal = requestAbortSignal(reply, ctx.shutdown);
  // The file reaches the client whole or not at all: a client that left before it got nothing (cancelled, 0).
  let outcome: UtteranceOutcome = 'failed';
  try {
    const parts: Uint8Array[] = [];
    for await (const bytes of utterance.audio(signal)) parts.push(bytes);
    outcome = utterance.truncated ? 'truncated' : 'completed';
    // SynthesisResultSchema's fields, written in slices (base64-json-body.ts): the schema documents the body.
    const { body, lengthBytes } = base64JsonBody('audio', parts, {
      format,
      duration_seconds: seconds(utterance.durationMs),
      characters_used: charged(utterance, codePoints, outcome, codePoints).used,
    });
    return reply.header('Content-Type', 'application/json; charset=utf-8').header('Content-Length', String(lengthBytes)).send(body);
  } catch (error) {
    if (signal.aborted && signal.reason === ABORT_REASONS.clientClosed) outcome = 'cancelled';
    throw engineErrorToApiError(error);
  } finally {
    await settle(ticket, utterance, codePoints, outcome, outcome === 'completed' ? codePoints : utterance.codePointsSpoken);
  }
}

async function stream(ctx: ApiContext, request: SynthesisRequest, reply: FastifyReply) {
  const { ticket, utterance, codePoints, speed } = await prepare(ctx, request, 'streaming');
  const signal = requestAbortSignal(reply, ctx.shutdown);
  const audio = utterance.audio(signal);
  let first: IteratorResult<Uint8Array>;
  try {
    // Wait for the first chunk before sending headers: an engine refusal can still be a clean 503 envelope.
    first = await audio.next();
    ctx.metrics?.timeToFirstAudio('http_stream', reply.elapsedTime);
  } catch (error) {
    // Nothing reached the client yet.
    await settle(ticket, utterance, codePoints, signal.aborted && signal.reason === ABORT_REASONS.clientClosed ? 'cancelled' : 'failed', 0);
    throw engineErrorToApiError(error);
  }
  const billing = { completed: false, settled: false };
  const settleStream = async (): Promise<void> => {
    if (billing.settled) return;
    billing.settled = true;
    // Every chunk produced was handed to the response before the next was made: the client had them.
    const clientGone = signal.aborted && signal.reason === ABORT_REASONS.clientClosed;
    const outcome = billing.completed ? (utterance.truncated ? 'truncated' : 'completed') : clientGone ? 'cancelled' : 'failed';
    await settle(ticket, utterance, codePoints, outcome, utterance.codePointsSpoken).catch((error: unknown) => request.log.error({ err: error }, 'settlement failed'));
  };
  const body = Readable.from(
    (async function* () {
      try {
        if (!first.done) yield toBuffer(first.value);
        for await (const bytes of audio) yield toBuffer(bytes);
        billing.completed = true;
      } finally {
        await settleStream();
      }
    })(),
    { objectMode: false },
  );
  // A client gone before the body was first read: the generator never started, so its `finally` never runs.
  body.once('close', () => {
    void audio.return(undefined).catch(() => undefined);
    void settleStream();
  });
  const estimateSeconds = codePoints / ESTIMATED_CODE_POINTS_PER_SECOND / speed;
  reply
    .header('Content-Type', 'application/octet-stream')
    .header('X-Characters-Used', String(codePoints))
    .header('X-Audio-Duration-Estimate-Seconds', estimateSeconds.toFixed(1))
    .header('Cache-Control', 'no-store')
    .trailer('X-Audio-Duration-Seconds', async () => String(seconds(utterance.durationMs)));
  return reply.send(body);
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const SYNTHESIS_ERRORS = errorResponses([
  'invalid_api_key',
  'insufficient_credits',
  'text_too_long',
  'voice_language_not_found',
  'invalid_model_id',
  'validation_error',
  'rate_limit_exceeded',
  'concurrency_limit_exceeded',
  'internal_error',
  'tts_workers_busy',
  'tts_workers_unconfigured',
  'store_unavailable',
]);

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
        },
      },
    },
    (request, reply) => stream(ctx, request, reply),
  );
}

/** Raw audio: documentation only (a stream is sent as it is). */
const AUDIO_BYTES = z.string().meta({ contentMediaType: 'application/octet-stream' });
