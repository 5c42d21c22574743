// The OpenAPI 3.1 document of the HTTP API, built from the very zod schemas the routes validate with
// (request body, query) and the response schemas the e2e tests hold the wire to. `npm run openapi` writes it to
// docs/openapi.json; GET /openapi.json serves it; a test fails when the two differ.

import { ERROR_CODES, type ErrorCode } from '../../errors.js';
import { ErrorEnvelopeSchema, HealthSchema, ReadinessSchema, SynthesisResultSchema, VoicesByLanguageSchema, VoicesByVoiceSchema } from '../response-schemas.js';
import { CallSimRequestSchema, CallSimResultSchema } from '../routes/playground-call.js';
import { VoicesQuerySchema } from '../routes/voices.js';
import { SynthesisBodySchema } from '../synthesis-request.js';
import { inlineJsonSchema, namedJsonSchemas } from './json-schemas.js';

type Json = Record<string, unknown>;

const REF = '#/components/schemas/';
const ref = (name: string): Json => ({ $ref: `${REF}${name}` });

const RATE_HEADERS: Json = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};
const REQUEST_ID_HEADER: Json = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };

/** Error responses grouped by status, each listing the codes it can carry (from the error registry). */
function errorResponses(codes: readonly ErrorCode[]): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  const out: Json = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const retryAfter = list.some((code) => code === 'rate_limit_exceeded' || ERROR_CODES[code].status === 503);
    out[String(status)] = {
      description: `Error envelope with code ${list.map((code) => `\`${code}\``).join(', ')}.`,
      headers: {
        ...REQUEST_ID_HEADER,
        ...(status === 401 ? {} : RATE_HEADERS),
        ...(retryAfter ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
      },
      content: { 'application/json': { schema: ref('ErrorEnvelope') } },
    };
  }
  return out;
}

const SYNTHESIS_ERRORS: readonly ErrorCode[] = [
  'bad_request',
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

const synthesisBody: Json = { required: true, content: { 'application/json': { schema: ref('SynthesisRequest') } } };

export function buildOpenApiDocument(): Json {
  const schemas = {
    ...namedJsonSchemas({ SynthesisRequest: SynthesisBodySchema, CallSimRequest: CallSimRequestSchema }, 'input', REF),
    ...namedJsonSchemas(
      {
        SynthesisResult: SynthesisResultSchema,
        VoicesByLanguage: VoicesByLanguageSchema,
        VoicesByVoice: VoicesByVoiceSchema,
        ErrorEnvelope: ErrorEnvelopeSchema,
        Health: HealthSchema,
        Readiness: ReadinessSchema,
        CallSimResult: CallSimResultSchema,
      },
      'output',
      REF,
    ),
  };
  const groupBy = inlineJsonSchema(VoicesQuerySchema, 'input') as { properties: { group_by: Json & { description?: string } } };
  const { description: groupByDescription, ...groupBySchema } = groupBy.properties.group_by;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Raaga text-to-speech API',
      version: 'v1',
      description:
        'Self-hosted text-to-speech for Indian phone lines: eight languages, sixteen preset voices. Every /v1 endpoint takes ' +
        '`Authorization: Bearer <API key>`. The WebSocket protocol (/v1/tts/websocket) is described in asyncapi.json and docs/websocket.md; ' +
        'phone calls in docs/telephony.md. Generated from the server\'s zod schemas (`npm run openapi`).',
      license: { name: 'Proprietary' },
    },
    servers: [{ url: '/', description: 'This server' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'synthesis', description: 'Text to speech over HTTP.' },
      { name: 'voices', description: 'The voice catalog.' },
      { name: 'playground', description: 'What the browser playground at / uses besides the API itself.' },
      { name: 'operations', description: 'Probes, metrics and these documents; no API key.' },
    ],
    paths: {
      '/v1/tts/generate': {
        post: {
          tags: ['synthesis'],
          operationId: 'generate',
          summary: 'Synthesize the whole text; the audio comes back base64-encoded in JSON.',
          requestBody: synthesisBody,
          responses: {
            '200': {
              description: 'The complete audio.',
              headers: { ...REQUEST_ID_HEADER, ...RATE_HEADERS },
              content: { 'application/json': { schema: ref('SynthesisResult') } },
            },
            ...errorResponses(SYNTHESIS_ERRORS),
          },
        },
      },
      '/v1/tts/stream': {
        post: {
          tags: ['synthesis'],
          operationId: 'stream',
          summary: 'Synthesize and send raw audio bytes as they are produced (chunked transfer).',
          description:
            'Every refusal (key, validation, rate, concurrency, credits, a full engine queue) comes back as an error envelope before any audio. ' +
            'The exact duration follows as the HTTP trailer X-Audio-Duration-Seconds. A failure after audio started aborts the transfer.',
          requestBody: synthesisBody,
          responses: {
            '200': {
              description: 'Audio bytes in the requested format.',
              headers: {
                ...REQUEST_ID_HEADER,
                ...RATE_HEADERS,
                'X-Characters-Used': { description: 'Code points a completed stream debits.', schema: { type: 'integer' } },
                'X-Audio-Duration-Estimate-Seconds': { description: 'Estimate from the text length; informative only.', schema: { type: 'number' } },
                Trailer: { description: 'X-Audio-Duration-Seconds: the exact duration, sent as a trailer after the last byte.', schema: { type: 'string' } },
              },
              content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
            },
            ...errorResponses(SYNTHESIS_ERRORS),
          },
        },
      },
      '/v1/voices': {
        get: {
          tags: ['voices'],
          operationId: 'listVoices',
          summary: 'The active voices, grouped by language (default) or by voice. Not rate counted.',
          parameters: [{ name: 'group_by', in: 'query', required: false, description: groupByDescription, schema: groupBySchema }],
          responses: {
            '200': {
              description: 'The catalog in the requested shape.',
              headers: { ...REQUEST_ID_HEADER, ...RATE_HEADERS },
              content: { 'application/json': { schema: { oneOf: [ref('VoicesByLanguage'), ref('VoicesByVoice')] } } },
            },
            ...errorResponses(['invalid_api_key', 'validation_error', 'store_unavailable']),
          },
        },
      },
      '/v1/tts/websocket': {
        get: {
          tags: ['synthesis'],
          operationId: 'websocket',
          summary: 'WebSocket session: config, then one sentence per text message, audio as binary frames.',
          description:
            'Upgrade with `Authorization: Bearer <key>`, or from a browser with the subprotocols `raaga` and `raaga.key.<key>` ' +
            '(the server selects `raaga`). A bad key still gets 101, then close code 4001. Messages: asyncapi.json, docs/websocket.md.',
          parameters: [
            { name: 'Sec-WebSocket-Protocol', in: 'header', required: false, description: 'Browsers: `raaga, raaga.key.<API key>`.', schema: { type: 'string' } },
          ],
          responses: {
            '101': { description: 'Switching protocols; the server sends `connected` (or closes with 4001 for a bad key).' },
            ...errorResponses(['bad_request']),
          },
        },
      },
      '/v1/playground/call-sim': {
        post: {
          tags: ['playground'],
          operationId: 'simulateCall',
          summary: 'Run one simulated phone call against this server and return its timeline (the playground\'s call view).',
          description:
            'Plays Twilio\'s side of a call (voice webhook, TwiML, media stream) over loopback for `duration_ms` of real time: the bot ' +
            'speaks the greeting, the simulated caller talks at `caller_at_ms`. Counts as one request of the rate window; the bot\'s ' +
            'speech is billed like any call (the simulated caller\'s is not). Only when telephony is enabled.',
          requestBody: { required: true, content: { 'application/json': { schema: ref('CallSimRequest') } } },
          responses: {
            '200': {
              description: 'What happened on the line.',
              headers: { ...REQUEST_ID_HEADER, ...RATE_HEADERS },
              content: { 'application/json': { schema: ref('CallSimResult') } },
            },
            ...errorResponses(['invalid_api_key', 'insufficient_credits', 'voice_language_not_found', 'validation_error', 'rate_limit_exceeded', 'concurrency_limit_exceeded', 'internal_error', 'store_unavailable']),
          },
        },
      },
      '/': {
        get: {
          tags: ['playground'],
          operationId: 'playground',
          summary: 'The playground page (HTML; the key is typed into it, kept in sessionStorage).',
          security: [],
          responses: { '200': { description: 'HTML.', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
      },
      '/docs': {
        get: {
          tags: ['operations'],
          operationId: 'docsPage',
          summary: 'This reference as a page (HTML rendering /openapi.json and /asyncapi.json).',
          security: [],
          responses: { '200': { description: 'HTML.', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
      },
      '/healthz': {
        get: {
          tags: ['operations'],
          operationId: 'health',
          summary: 'Liveness.',
          security: [],
          responses: { '200': { description: 'Alive.', content: { 'application/json': { schema: ref('Health') } } } },
        },
      },
      '/readyz': {
        get: {
          tags: ['operations'],
          operationId: 'ready',
          summary: 'Readiness: engine warmed, store reachable, not shutting down.',
          security: [],
          responses: {
            '200': { description: 'Ready.', content: { 'application/json': { schema: ref('Readiness') } } },
            '503': { description: 'Not ready.', content: { 'application/json': { schema: ref('Readiness') } } },
          },
        },
      },
      '/metrics': {
        get: {
          tags: ['operations'],
          operationId: 'metrics',
          summary: 'Prometheus metrics (text exposition format).',
          description: 'Open unless the server has METRICS_TOKEN; then `Authorization: Bearer <METRICS_TOKEN>` is required.',
          security: [{}, { metricsToken: [] }],
          responses: {
            '200': { description: 'Metrics.', content: { 'text/plain': { schema: { type: 'string' } } } },
            ...errorResponses(['invalid_api_key']),
          },
        },
      },
      '/openapi.json': {
        get: {
          tags: ['operations'],
          operationId: 'openapi',
          summary: 'This document.',
          security: [],
          responses: { '200': { description: 'OpenAPI 3.1.', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
      '/asyncapi.json': {
        get: {
          tags: ['operations'],
          operationId: 'asyncapi',
          summary: 'The AsyncAPI 3.0 document of the WebSocket protocol.',
          security: [],
          responses: { '200': { description: 'AsyncAPI 3.0.', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: `rk_live_` followed by 40 letters and digits.' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'The server\'s METRICS_TOKEN.' },
      },
      headers: {
        'X-Request-Id': {
          description: 'Echo of the request\'s X-Request-Id (1-128 of A-Z a-z 0-9 . _ : -), or one the server made; also in error envelopes as error.request_id.',
          schema: { type: 'string' },
        },
        'X-RateLimit-Limit': { description: 'Requests per minute allowed by the plan.', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the sliding window.', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'Unix seconds when the oldest counted request leaves the window.', schema: { type: 'integer' } },
        'Retry-After': { description: 'Seconds to wait before retrying (rate_limit_exceeded and 503s).', schema: { type: 'integer' } },
      },
      schemas,
    },
  };
}
