// One HTTP synthesis from admission to settlement, shared by the spec's routes (routes/synthesize.ts) and the vendor
// dialects (openai/): resolve the voice, admit (rate window, slot, credits), start the utterance, stream it, and settle
// by the billing rule (core/synthesis/billing.ts). A route only translates its request and its wire shape.

import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { OutputFormat, SampleRateHz } from '../audio/formats.js';
import type { Ticket } from '../core/admission.js';
import { chargeFor, type Charge, type UtteranceOutcome } from '../core/synthesis/billing.js';
import type { Utterance } from '../core/synthesis/utterance.js';
import type { LanguageCode } from '../languages.js';
import type { ErrorCode } from '../errors.js';
import type { Account, UsageEndpoint } from '../store/store.js';
import { refusesCachedAudio } from './cache-control.js';
import type { ApiContext } from './context.js';
import { engineErrorToApiError } from './engine-errors.js';
import { ABORT_REASONS, requestAbortSignal } from './request-abort.js';

/** The error codes an HTTP synthesis can answer with, for the routes' documents. */
export const HTTP_SYNTHESIS_ERROR_CODES: readonly ErrorCode[] = [
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
];

/** What a route asks to synthesize, once its own rules have checked the request. */
export interface HttpSynthesis {
  readonly text: string;
  /** Code points of `text`: the credits a completed request costs. */
  readonly codePoints: number;
  /** The voice as the ledger records it: a preset name or a `vc_` id. */
  readonly voice: string;
  readonly language: LanguageCode;
  readonly format: OutputFormat;
  readonly sampleRateHz: SampleRateHz;
  readonly speed: number;
  /** The usage ledger's name of the route. */
  readonly endpoint: UsageEndpoint;
  /** Lexicons the request names besides the account's default (an extension), and the request field that names them. */
  readonly lexicons?: readonly string[] | undefined;
  readonly lexiconsField?: string;
}

/** What admission reads of an authenticated request: account and key, and Cache-Control (the prompt cache opt-out). */
export type AdmittingRequest = Pick<FastifyRequest, 'account' | 'apiKeyId' | 'rateInfo' | 'headers'>;

export interface AdmittedUtterance {
  readonly ticket: Ticket;
  readonly utterance: Utterance;
  readonly codePoints: number;
}

/** Voice and lexicons, then admission, then the utterance: every refusal is an error before any audio exists. */
export async function admitUtterance(ctx: ApiContext, request: AdmittingRequest, synthesis: HttpSynthesis, mode: 'complete' | 'streaming'): Promise<AdmittedUtterance> {
  const account = request.account as Account;
  const voice = await ctx.voices.resolve(account, synthesis.voice, synthesis.language);
  const lexicon = await ctx.synthesis.lexicons(account.id, synthesis.lexicons, synthesis.language, synthesis.lexiconsField);
  const ticket = await ctx.admission.admit({
    account,
    countRate: true,
    takeSlot: true,
    credits: synthesis.codePoints,
    usage: { keyId: request.apiKeyId, endpoint: synthesis.endpoint, voice: synthesis.voice, language: synthesis.language },
  });
  request.rateInfo = ticket.rate;
  const utterance = ctx.synthesis.utterance({
    text: synthesis.text,
    language: synthesis.language,
    voice,
    format: synthesis.format,
    sampleRateHz: synthesis.sampleRateHz,
    speed: synthesis.speed,
    mode,
    cache: !refusesCachedAudio(request.headers['cache-control']),
    accountId: account.id,
    lexicon,
  });
  return { ticket, utterance, codePoints: synthesis.codePoints };
}

/** Exact seconds of the samples produced (no rounding: clients may multiply back to a sample count). */
export function exactSeconds(ms: number): number {
  return Number((ms / 1000).toFixed(6));
}

/**
 * An HTTP synthesis by the billing rule: `deliveredCodePoints` is what reached the client (generate: what was
 * synthesized before the client left); a request cancelled after admission pays its first chunk at least, so
 * leaving early never makes the work it set going free.
 */
export function chargeOf({ utterance, codePoints }: AdmittedUtterance, outcome: UtteranceOutcome, deliveredCodePoints: number): Charge {
  return chargeFor({
    outcome,
    totalCodePoints: codePoints,
    deliveredCodePoints,
    cancelledMinimumCodePoints: utterance.chunks[0]?.codePoints ?? 0,
    audioMs: utterance.durationMs,
    engine: utterance.engineKind,
  });
}

export async function settleUtterance(admitted: AdmittedUtterance, outcome: UtteranceOutcome, deliveredCodePoints: number): Promise<void> {
  const { used, report } = chargeOf(admitted, outcome, deliveredCodePoints);
  await admitted.ticket.finish(used, report);
}

/**
 * A whole-file synthesis: every piece collected, then answered by `respond`; the file reaches the client whole or not
 * at all (a client that left before it got nothing: cancelled). Settled by the billing rule whatever happens.
 */
export async function completeUtterance(
  ctx: ApiContext,
  admitted: AdmittedUtterance,
  reply: FastifyReply,
  respond: (parts: Uint8Array[], outcome: 'completed' | 'truncated') => FastifyReply,
): Promise<FastifyReply> {
  const { utterance, codePoints } = admitted;
  const signal = requestAbortSignal(reply, ctx.shutdown);
  ssmlIgnoredHeader(reply, utterance);
  let outcome: UtteranceOutcome = 'failed';
  try {
    const parts: Uint8Array[] = [];
    for await (const bytes of utterance.audio(signal)) parts.push(bytes);
    const done = utterance.truncated ? 'truncated' : 'completed';
    outcome = done;
    return respond(parts, done);
  } catch (error) {
    if (signal.aborted && signal.reason === ABORT_REASONS.clientClosed) outcome = 'cancelled';
    throw engineErrorToApiError(error);
  } finally {
    await settleUtterance(admitted, outcome, outcome === 'completed' ? codePoints : utterance.codePointsSpoken);
  }
}

/** How a stream's audio goes on the wire: its bytes as they are (the default), or a dialect's events. */
export interface StreamFraming {
  chunk(bytes: Uint8Array): Buffer;
  /** Written after the last chunk of an utterance that completed (never after a failure or a cut). */
  end?(): Buffer;
}

const RAW_AUDIO: StreamFraming = { chunk: toBuffer };

/**
 * The response body of a streamed utterance, once its first chunk exists: an engine refusal before that is still a
 * clean error (settled as failed, thrown for the envelope). After it, every chunk produced is handed to the response
 * before the next is made, so the client had what was spoken when it leaves; the body settles exactly once.
 */
export async function streamUtterance(ctx: ApiContext, admitted: AdmittedUtterance, reply: FastifyReply, log: FastifyBaseLogger, framing: StreamFraming = RAW_AUDIO): Promise<Readable> {
  const { utterance } = admitted;
  const signal = requestAbortSignal(reply, ctx.shutdown);
  const clientGone = (): boolean => signal.aborted && signal.reason === ABORT_REASONS.clientClosed;
  const audio = utterance.audio(signal);
  let first: IteratorResult<Uint8Array>;
  try {
    first = await audio.next();
    ctx.metrics?.timeToFirstAudio('http_stream', reply.elapsedTime);
  } catch (error) {
    // Nothing reached the client yet.
    await settleUtterance(admitted, clientGone() ? 'cancelled' : 'failed', 0);
    throw engineErrorToApiError(error);
  }
  const billing = { completed: false, settled: false };
  const settleStream = async (): Promise<void> => {
    if (billing.settled) return;
    billing.settled = true;
    const outcome = billing.completed ? (utterance.truncated ? 'truncated' : 'completed') : clientGone() ? 'cancelled' : 'failed';
    await settleUtterance(admitted, outcome, utterance.codePointsSpoken).catch((error: unknown) => log.error({ err: error }, 'settlement failed'));
  };
  const body = Readable.from(
    (async function* () {
      try {
        if (!first.done) yield framing.chunk(first.value);
        for await (const bytes of audio) yield framing.chunk(bytes);
        billing.completed = true;
        if (framing.end) yield framing.end();
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
  return body;
}

/**
 * Raaga's extension header: the SSML elements of the text that were dropped (lenient mode: their text spoken), named
 * once each, comma-separated (`X-SSML-Ignored: phoneme,mstts:express-as`). Absent when nothing was.
 */
export const SSML_IGNORED_HEADER = 'X-SSML-Ignored';

/** The header in a route's OpenAPI response headers. */
export const SSML_IGNORED_HEADER_DOC = {
  [SSML_IGNORED_HEADER]: {
    description: "Raaga's extension: the SSML elements of the text that were dropped, their text spoken (lenient mode), comma-separated; absent when none were.",
    schema: { type: 'string' },
  },
} as const;

function ssmlIgnoredHeader(reply: FastifyReply, utterance: Utterance): FastifyReply {
  const ignored = utterance.ssmlIgnored;
  return ignored.length > 0 ? reply.header(SSML_IGNORED_HEADER, ignored.join(',')) : reply;
}

/** The headers every streamed utterance carries: its credits, no caching, the exact duration as a trailer, and X-SSML-Ignored. */
export function streamHeaders(reply: FastifyReply, { utterance, codePoints }: AdmittedUtterance): FastifyReply {
  return ssmlIgnoredHeader(reply, utterance)
    .header('X-Characters-Used', String(codePoints))
    .header('Cache-Control', 'no-store')
    .trailer('X-Audio-Duration-Seconds', async () => String(exactSeconds(utterance.durationMs)));
}

export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
