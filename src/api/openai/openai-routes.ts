// The OpenAI-compatible speech server beside the spec's API: POST /v1/audio/speech, GET /v1/models(/{id}) and
// GET /v1/audio/voices. The routes translate; voice, admission, synthesis, billing and the ledger are the same path
// as /v1/tts/stream's (http-utterance.ts). Errors on these paths leave in OpenAI's envelope (openai-errors.ts).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { storeCall } from '../../core/store-call.js';
import { ApiError, isApiError } from '../../errors.js';
import type { Account } from '../../store/store.js';
import type { ApiContext } from '../context.js';
import { RESPONSE_HEADERS_EXTENSION } from '../docs/openapi.js';
import { admitUtterance, HTTP_SYNTHESIS_ERROR_CODES, SSML_IGNORED_HEADER_DOC, streamHeaders, streamUtterance } from '../http-utterance.js';
import { jsonResponse, typed } from '../route-schemas.js';
import { checkModel, LISTED_MODELS, modelObject } from './openai-models.js';
import { OpenAiModelListSchema, OpenAiModelSchema, OpenAiVoiceListSchema, SpeechEventSchema, openAiErrorResponses } from './openai-schemas.js';
import { speechEventFraming } from './speech-events.js';
import type { LanguageSource } from './speech-language.js';
import { SpeechBodySchema, speechRequest, type SpeechBody, type SpeechRequest } from './speech-request.js';
import type { VoiceNames } from './speech-voice.js';
import { voiceAliases } from './voice-aliases.js';

type SpeechHttpRequest = Pick<FastifyRequest, 'account' | 'apiKeyId' | 'rateInfo' | 'log' | 'headers'> & { readonly body: SpeechBody };

const LANGUAGE_FROM: Readonly<Record<LanguageSource, string>> = {
  language: "the 'language' field",
  voice: "the voice's suffix",
  script: "the input's script; send 'language' to choose another",
};

/** A voice that cannot speak the language, said in the request's terms: its alias, and where the language came from. */
function inRequestTerms(error: unknown, speech: SpeechRequest): unknown {
  if (!isApiError(error) || error.code !== 'voice_language_not_found') return error;
  const alias = speech.voice.alias === undefined ? '' : `Voice '${speech.voice.alias}' is Raaga's '${speech.voice.voice}'. `;
  return new ApiError(error.code, `${alias}${error.message} (Language ${speech.synthesis.language} is from ${LANGUAGE_FROM[speech.languageSource]}.)`, { field: 'voice' });
}

async function speak(ctx: ApiContext, names: VoiceNames, request: SpeechHttpRequest, reply: FastifyReply) {
  const speech = speechRequest(request.body, names);
  const admitted = await admitUtterance(ctx, request, speech.synthesis, 'streaming').catch((error: unknown) => {
    throw inRequestTerms(error, speech);
  });
  const events = speech.streamFormat === 'sse';
  const body = await streamUtterance(ctx, admitted, reply, request.log, events ? speechEventFraming(admitted.codePoints) : undefined);
  streamHeaders(reply, admitted)
    .header('Content-Type', events ? 'text/event-stream; charset=utf-8' : speech.contentType)
    .header('X-Raaga-Speed-Applied', String(speech.synthesis.speed))
    .header('X-Raaga-Voice', speech.synthesis.voice)
    .header('X-Raaga-Language', speech.synthesis.language);
  return reply.send(body);
}

const SPEECH_ERRORS = openAiErrorResponses(HTTP_SYNTHESIS_ERROR_CODES);

const AUDIO_BYTES = z.string().meta({ contentMediaType: 'application/octet-stream' });
const AUDIO_CONTENT = Object.fromEntries(['audio/mpeg', 'audio/wav', 'audio/pcm', 'audio/ogg'].map((type) => [type, { schema: AUDIO_BYTES }]));

export function registerOpenAiRoutes(app: FastifyInstance, ctx: ApiContext, onRequest: (request: FastifyRequest) => Promise<void>): void {
  const aliases = voiceAliases(ctx.catalog, ctx.openAiVoiceAliases);
  const names: VoiceNames = { presets: new Set(ctx.catalog.voices().map((voice) => voice.name)), aliases };

  typed(app).post(
    '/v1/audio/speech',
    {
      onRequest,
      schema: {
        tags: ['openai'],
        operationId: 'openAiSpeech',
        summary: "OpenAI's speech endpoint: the same synthesis, limits, credits and ledger as /v1/tts/stream.",
        description:
          'Audio is sent chunked as it is synthesized (stream_format audio) or as server-sent events (sse). Every refusal comes back in ' +
          "OpenAI's error envelope before any audio: 400 for a bad field (param names it), 401, 402 for credits, 429 with Retry-After, 503.",
        body: SpeechBodySchema,
        response: {
          200: { description: 'The audio, or its events.', content: { ...AUDIO_CONTENT, 'text/event-stream': { schema: SpeechEventSchema } } },
          ...SPEECH_ERRORS,
        },
        [RESPONSE_HEADERS_EXTENSION]: {
          'X-Raaga-Speed-Applied': { description: 'The speed spoken: the requested one clamped into 0.5-2.0.', schema: { type: 'number' } },
          'X-Raaga-Voice': { description: 'The preset or vc_ voice that spoke (an alias resolved).', schema: { type: 'string' } },
          'X-Raaga-Language': { description: 'The language spoken (field, voice suffix, or the input’s script).', schema: { type: 'string' } },
          'X-Characters-Used': { description: 'Code points a completed request debits.', schema: { type: 'integer' } },
          ...SSML_IGNORED_HEADER_DOC,
        },
      },
    },
    (request, reply) => speak(ctx, names, request, reply),
  );

  typed(app).get(
    '/v1/models',
    {
      onRequest,
      schema: {
        tags: ['openai'],
        operationId: 'openAiListModels',
        summary: 'The model names POST /v1/audio/speech accepts (all spoken by raaga-v1). Not rate counted.',
        response: { 200: jsonResponse('The models.', OpenAiModelListSchema), ...openAiErrorResponses(['invalid_api_key', 'store_unavailable']) },
      },
    },
    async () => ({ object: 'list' as const, data: LISTED_MODELS.map(modelObject) }),
  );

  typed(app).get(
    '/v1/models/:model',
    {
      onRequest,
      schema: {
        tags: ['openai'],
        operationId: 'openAiGetModel',
        summary: 'One accepted model name (dated snapshots too); 404 otherwise.',
        params: z.object({ model: z.string() }),
        response: { 200: jsonResponse('The model.', OpenAiModelSchema), ...openAiErrorResponses(['invalid_api_key', 'not_found', 'store_unavailable']) },
      },
    },
    async (request) => {
      try {
        checkModel(request.params.model);
      } catch (error) {
        throw isApiError(error) ? new ApiError('not_found', error.message, { field: 'model' }) : error;
      }
      return modelObject(request.params.model);
    },
  );

  typed(app).get(
    '/v1/audio/voices',
    {
      onRequest,
      schema: {
        tags: ['openai'],
        operationId: 'openAiListVoices',
        summary: "Every voice name POST /v1/audio/speech accepts without a language suffix (Kokoro-FastAPI's shape). Not rate counted.",
        response: { 200: jsonResponse('The voice names.', OpenAiVoiceListSchema), ...openAiErrorResponses(['invalid_api_key', 'store_unavailable']) },
      },
    },
    async (request) => {
      const account = request.account as Account;
      // Custom voices speak on the Growth plan only: another plan's would be refused, so they are not offered.
      const custom = account.plan === 'growth' ? await storeCall(() => ctx.store.listCustomVoices(account.id)) : [];
      return { voices: [...names.presets, ...aliases.keys(), ...custom.map((voice) => voice.id)] };
    },
  );
}
