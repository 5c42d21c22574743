// ElevenLabs' HTTP text-to-speech, under ELEVENLABS_PREFIX: `POST …/text-to-speech/{voice_id}` (the whole file),
// `…/stream` (bytes as they are synthesized: LiveKit's `synthesize()`), and `…/with-timestamps` /
// `…/stream/with-timestamps` (JSON with base64 audio and each character's times in seconds; the streamed form sends
// one JSON object a line). One admission, billing and synthesis path with /v1/tts/* (api/http-utterance.ts).

import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { languageOfScript } from '../../core/text/script-language.js';
import { AlignmentTracker, type CharacterAlignment } from '../../core/synthesis/character-alignment.js';
import { checkText } from '../../core/text/text-limits.js';
import { ApiError } from '../../errors.js';
import type { ApiContext } from '../context.js';
import { admitUtterance, completeUtterance, exactSeconds, streamHeaders, streamUtterance, toBuffer, type HttpSynthesis } from '../http-utterance.js';
import { base64JsonBody } from '../base64-json-body.js';
import { ELEVENLABS_PREFIX } from './elevenlabs-auth.js';
import { DICTIONARY_LOCATORS_FIELD, parseDictionaryLocators, parseLanguageCode, parseOutputFormat, parseVoiceSpeed, type ElevenLabsAudioFormat } from './elevenlabs-request.js';

/** The spec's limit: one utterance of Raaga's. */
export const MAX_ELEVENLABS_TEXT_CODE_POINTS = 3000;

const BodySchema = z
  .object({
    text: z.string({ error: 'is required and must be a string' }),
    model_id: z.string().max(200).optional(),
    language_code: z.string().max(20).nullish(),
    voice_settings: z.unknown().optional(),
    pronunciation_dictionary_locators: z.unknown().optional(),
  })
  .loose();

const QuerySchema = z.object({ output_format: z.string().max(40).optional() }).loose();

interface Request {
  readonly synthesis: HttpSynthesis;
  readonly audio: ElevenLabsAudioFormat;
}

function readRequest(request: FastifyRequest): Request {
  const body = BodySchema.safeParse(request.body);
  if (!body.success) {
    const issue = body.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    throw new ApiError('validation_error', `Field '${field}' ${issue?.message ?? 'is invalid'}.`, { field });
  }
  const query = QuerySchema.safeParse(request.query);
  const audio = parseOutputFormat(query.success ? query.data.output_format : undefined);
  const { text } = body.data;
  const codePoints = checkText(text);
  const language = parseLanguageCode(body.data.language_code ?? undefined) ?? languageOfScript(text);
  const { voiceId } = request.params as { voiceId: string };
  return {
    audio,
    synthesis: {
      text,
      codePoints,
      voice: voiceId,
      language,
      format: audio.format,
      sampleRateHz: audio.sampleRateHz,
      speed: parseVoiceSpeed(body.data.voice_settings) ?? 1,
      endpoint: 'elevenlabs_stream',
      lexicons: parseDictionaryLocators(body.data.pronunciation_dictionary_locators),
      lexiconsField: DICTIONARY_LOCATORS_FIELD,
    },
  };
}

/** ElevenLabs' HTTP alignment: characters with start and end times in seconds. */
function httpAlignment(alignment: CharacterAlignment | undefined): object | null {
  if (!alignment) return null;
  return {
    characters: alignment.chars,
    character_start_times_seconds: alignment.startsMs.map((ms) => ms / 1000),
    character_end_times_seconds: alignment.startsMs.map((ms, i) => (ms + (alignment.durationsMs[i] ?? 0)) / 1000),
  };
}

function timestampLine(bytes: Uint8Array, alignment: CharacterAlignment | undefined): Buffer {
  const timing = httpAlignment(alignment);
  return Buffer.from(`${JSON.stringify({ audio_base64: Buffer.from(bytes).toString('base64'), alignment: timing, normalized_alignment: timing })}\n`);
}

async function stream(ctx: ApiContext, request: FastifyRequest, reply: FastifyReply, withTimestamps: boolean) {
  const { synthesis, audio } = readRequest(request);
  const admitted = await admitUtterance(ctx, request, synthesis, 'streaming');
  const tracker = new AlignmentTracker(admitted.utterance, synthesis.text);
  const body = await streamUtterance(
    ctx,
    admitted,
    reply,
    request.log,
    withTimestamps ? { chunk: (bytes) => timestampLine(bytes, tracker.next()) } : undefined,
  );
  streamHeaders(reply, admitted).header('Content-Type', withTimestamps ? 'application/x-ndjson' : audio.contentType);
  return reply.send(body);
}

/** The whole file (or, with timestamps, one JSON object): sent once it is complete, or not at all. */
async function complete(ctx: ApiContext, request: FastifyRequest, reply: FastifyReply, withTimestamps: boolean) {
  const { synthesis, audio } = readRequest(request);
  const admitted = await admitUtterance(ctx, request, synthesis, 'complete');
  const { utterance } = admitted;
  return completeUtterance(ctx, admitted, reply, (parts) => {
    reply.header('X-Characters-Used', String(admitted.codePoints)).header('X-Audio-Duration-Seconds', String(exactSeconds(utterance.durationMs)));
    // The pieces go out as they are: a long file is never copied into one buffer on the event loop.
    if (!withTimestamps) {
      const lengthBytes = parts.reduce((sum, part) => sum + part.byteLength, 0);
      return reply.header('Content-Type', audio.contentType).header('Content-Length', String(lengthBytes)).send(Readable.from(parts.map(toBuffer)));
    }
    const timing = httpAlignment(new AlignmentTracker(utterance, synthesis.text).next());
    const { body, lengthBytes } = base64JsonBody('audio_base64', parts, { alignment: timing, normalized_alignment: timing });
    return reply.header('Content-Type', 'application/json; charset=utf-8').header('Content-Length', String(lengthBytes)).send(body);
  });
}

export function registerElevenLabsHttp(app: FastifyInstance, ctx: ApiContext, onRequest: (request: FastifyRequest) => Promise<void>): void {
  const base = `${ELEVENLABS_PREFIX}/text-to-speech/:voiceId`;
  const routes: readonly [string, (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>][] = [
    [base, (request, reply) => complete(ctx, request, reply, false)],
    [`${base}/with-timestamps`, (request, reply) => complete(ctx, request, reply, true)],
    [`${base}/stream`, (request, reply) => stream(ctx, request, reply, false)],
    [`${base}/stream/with-timestamps`, (request, reply) => stream(ctx, request, reply, true)],
  ];
  for (const [url, handler] of routes) app.post(url, { onRequest, schema: { hide: true } }, handler);
}
