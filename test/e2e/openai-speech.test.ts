// The OpenAI-compatible speech server driven by the official `openai` SDK against a real app on port 0 (embedded
// eSpeak): audio decoded per format, the body read as a stream, SSE events, the model list, errors as the SDK's own
// classes with the statuses it acts on (maxRetries 0 where a retry would hide one), credits and the usage ledger,
// the prompt cache, and the language taken from the field, the voice suffix or the script.

import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { SpeechCreateParams } from 'openai/resources/audio/speech';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS } from '../../src/audio/formats.js';
import { parseWav } from '../../src/audio/wav.js';
import { OpenAiErrorSchema, OpenAiModelListSchema, OpenAiVoiceListSchema } from '../../src/api/openai/openai-schemas.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { countCodePoints } from '../../src/util/code-points.js';
import { decodeAudio } from '../helpers/decode-audio.js';
import { metricValue } from '../helpers/metrics.js';
import { ALL_TIME } from '../helpers/store-contract.js';
import { eventually } from '../helpers/telephony.js';
import { HINDI_SENTENCE, startTestServer, type TestServer } from '../helpers/test-server.js';

const ENGLISH = 'Your order has shipped. It will reach you on Friday.';
const TAMIL = 'வணக்கம், உங்கள் கணக்கு செயலில் உள்ளது.';
/** Seconds of speech a text of this many code points plausibly lasts (eSpeak at speed 1: ~10-20 per second). */
const plausibleSeconds = (codePoints: number) => ({ min: codePoints / 40, max: codePoints / 4 });

let server: TestServer;
let key: string;
let accountId: string;
let client: OpenAI;

beforeAll(async () => {
  server = await startTestServer({ PROMPT_CACHE_MAX_BYTES: String(8 * 2 ** 20) });
  const account = await server.account('growth', 1_000_000);
  [key] = account.keys as [string];
  accountId = account.id;
  client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
});

/** A speech request with Raaga's extras (`language`, `sample_rate`), as clients send them through `extra_body`. */
function speech(params: Partial<SpeechCreateParams> & { language?: string; sample_rate?: number }, on: OpenAI = client) {
  return on.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: ENGLISH, ...params } as SpeechCreateParams);
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

/** 402s the server answered on POST /v1/audio/speech (its request metrics). */
async function creditRefusals(): Promise<number> {
  return metricValue(server, 'raaga_http_errors_total{route="/v1/audio/speech",code="insufficient_credits",status="402"}');
}

/** The SDK's error for a request, asserted to be an APIError. */
async function sdkError(request: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await request;
  } catch (error) {
    expect(error).toBeInstanceOf(OpenAI.APIError);
    return error as InstanceType<typeof OpenAI.APIError>;
  }
  throw new Error('the request succeeded');
}

describe('audio', () => {
  it('mp3 (the default): audio/mpeg that decodes to plausible speech at 24 kHz, spoken by the alias\'s preset', async () => {
    const response = await speech({});
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('x-raaga-voice')).toBe('priya');
    expect(response.headers.get('x-raaga-language')).toBe('en-IN');
    const decoded = await decodeAudio(await bytesOf(response), 'mp3', 24000);
    expect(decoded.sampleRateHz).toBe(24000);
    const seconds = decoded.samples.length / decoded.sampleRateHz;
    expect(seconds).toBeGreaterThan(plausibleSeconds(countCodePoints(ENGLISH)).min);
    expect(seconds).toBeLessThan(plausibleSeconds(countCodePoints(ENGLISH)).max);
  });

  it('wav: audio/wav with a 16-bit mono 24 kHz header (sizes 0xFFFFFFFF: streamed)', async () => {
    const response = await speech({ response_format: 'wav' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const bytes = await bytesOf(response);
    expect(new DataView(bytes.buffer).getUint32(4, true)).toBe(0xffffffff);
    const wav = parseWav(bytes);
    expect(wav).toMatchObject({ channels: 1, sampleRateHz: 24000, bitsPerSample: 16 });
    expect(wav.samples.length).toBe((bytes.byteLength - 44) / 2);
  });

  it('pcm: raw 16-bit samples at 24 kHz, an even length of plausible duration; sample_rate changes the rate', async () => {
    const response = await speech({ response_format: 'pcm' });
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    const bytes = await bytesOf(response);
    expect(bytes.byteLength % 2).toBe(0);
    const seconds = bytes.byteLength / 2 / 24000;
    expect(seconds).toBeGreaterThan(plausibleSeconds(countCodePoints(ENGLISH)).min);
    expect(seconds).toBeLessThan(plausibleSeconds(countCodePoints(ENGLISH)).max);
    const at8k = await bytesOf(await speech({ response_format: 'pcm', sample_rate: 8000 }));
    // The same speech at a third of the rate: a third of the samples, to within a resampler's edge.
    expect(Math.abs(at8k.byteLength / 2 - bytes.byteLength / 2 / 3)).toBeLessThan(200);
  });

  it('the body arrives chunked (no length) and, read as a stream, is the same bytes as read whole', async () => {
    const response = await speech({ response_format: 'pcm', input: `${ENGLISH} ${ENGLISH}` });
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    const streamed = Buffer.concat(chunks);
    const whole = await bytesOf(await speech({ response_format: 'pcm', input: `${ENGLISH} ${ENGLISH}` }));
    expect(streamed.equals(Buffer.from(whole))).toBe(true);
  });

  it("stream_format sse: speech.audio.delta events whose base64 is the audio, then speech.audio.done with the usage", async () => {
    const response = await speech({ response_format: 'pcm', stream_format: 'sse' });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block !== '')
      .map((block) => {
        expect(block.startsWith('data: ')).toBe(true);
        return JSON.parse(block.slice('data: '.length)) as { type: string; audio?: string; usage?: Record<string, number> };
      });
    const deltas = events.slice(0, -1);
    expect(deltas.length).toBeGreaterThan(0);
    for (const event of deltas) expect(event.type).toBe('speech.audio.delta');
    const pcm = Buffer.concat(deltas.map((event) => Buffer.from(event.audio!, 'base64')));
    expect(pcm.byteLength % 2).toBe(0);
    expect(pcm.equals(Buffer.from(await bytesOf(await speech({ response_format: 'pcm' }))))).toBe(true);
    const codePoints = countCodePoints(ENGLISH);
    expect(events.at(-1)).toEqual({ type: 'speech.audio.done', usage: { input_tokens: codePoints, output_tokens: 0, total_tokens: codePoints } });
  });

  it('opus: an Ogg/Opus stream once the audio layer encodes it, until then a 400 saying so', async () => {
    if ((OUTPUT_FORMATS as readonly string[]).includes('opus')) {
      const response = await speech({ response_format: 'opus' });
      expect(response.headers.get('content-type')).toBe('audio/ogg');
      const bytes = await bytesOf(response);
      expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('OggS');
      // An independent decoder (48 kHz out): the same speech as the pcm of this text, to within Opus's edges.
      const decoded = await decodeAudio(bytes, 'opus', 48000);
      const pcmSeconds = (await bytesOf(await speech({ response_format: 'pcm' }))).byteLength / 2 / 24000;
      expect(Math.abs(decoded.samples.length / decoded.sampleRateHz - pcmSeconds)).toBeLessThan(0.05);
    } else {
      const error = await sdkError(speech({ response_format: 'opus' }));
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ param: 'response_format', message: expect.stringMatching(/'opus' is not available/) });
    }
  });

  it('speed 0.25-4.0 is clamped into 0.5-2.0 and the speed spoken is in X-Raaga-Speed-Applied', async () => {
    const slow = await speech({ response_format: 'pcm', speed: 0.25 });
    const fast = await speech({ response_format: 'pcm', speed: 4 });
    expect(slow.headers.get('x-raaga-speed-applied')).toBe('0.5');
    expect(fast.headers.get('x-raaga-speed-applied')).toBe('2');
    const [slowBytes, fastBytes] = [(await bytesOf(slow)).byteLength, (await bytesOf(fast)).byteLength];
    // Four times the tempo, within what the pauses between sentences (not stretched alike) allow.
    expect(slowBytes / fastBytes).toBeGreaterThan(2.5);
    expect(slowBytes / fastBytes).toBeLessThan(5);
  });

  it('instructions and unknown extras are accepted and change nothing', async () => {
    const plain = await bytesOf(await speech({ response_format: 'pcm' }));
    const extras = { instructions: 'Speak like a pirate.', lang_code: 'a', volume_multiplier: 3, normalization_options: {} };
    const withExtras = await bytesOf(await speech({ response_format: 'pcm', ...extras }));
    expect(Buffer.from(withExtras).equals(Buffer.from(plain))).toBe(true);
  });

  it('an input of 4096 code points is accepted on this route (3000 is the limit of /v1/tts/*)', async () => {
    const response = await speech({ response_format: 'pcm', sample_rate: 8000, input: 'ok. '.repeat(1024) });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-characters-used')).toBe('4096');
    await response.body!.cancel();
  });
});

describe('billing, ledger and cache', () => {
  it('debits the code points of the input and writes an openai_speech record with the preset and language', async () => {
    // An account of its own: no other request of this file settles on it meanwhile.
    const payer = await server.account('developer', 1000);
    const payerClient = new OpenAI({ apiKey: payer.keys[0] as string, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await bytesOf(await speech({ voice: 'nova', input: HINDI_SENTENCE, response_format: 'wav' }, payerClient));
    const ledger = await server.deps.store.listUsage(payer.id, ALL_TIME);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      endpoint: 'openai_speech',
      voice: 'kavya',
      language: 'hi-IN',
      characters: countCodePoints(HINDI_SENTENCE),
      outcome: 'completed',
      keyId: expect.stringMatching(/^sha256:/),
    });
    expect((await server.deps.store.getAccount(payer.id))!.credits).toBe(1000 - countCodePoints(HINDI_SENTENCE));
  });

  it('the same request again is served from the prompt cache, with the same bytes and the same charge', async () => {
    const hits = await metricValue(server, 'raaga_prompt_cache_events_total{event="hit"}');
    const input = 'Your appointment is confirmed for Monday.';
    const first = await bytesOf(await speech({ voice: 'sage', input, response_format: 'pcm' }));
    const second = await bytesOf(await speech({ voice: 'sage', input, response_format: 'pcm' }));
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(await metricValue(server, 'raaga_prompt_cache_events_total{event="hit"}')).toBe(hits + 1);
  });
});

describe('models and voices', () => {
  it('client.models.list() lists the accepted names; retrieve finds a dated snapshot and 404s anything else', async () => {
    const page = await client.models.list();
    expect(page.data.map((model) => model.id)).toEqual(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'raaga-v1']);
    const raw = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(OpenAiModelListSchema.parse(await raw.json()).data[0]).toEqual({ id: 'tts-1', object: 'model', created: expect.any(Number), owned_by: 'raaga' });
    expect(await client.models.retrieve('gpt-4o-mini-tts-2025-12-15')).toMatchObject({ id: 'gpt-4o-mini-tts-2025-12-15', object: 'model', owned_by: 'raaga' });
    const missing = await sdkError(client.models.retrieve('whisper-1'));
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', param: 'model' });
  });

  it("GET /v1/audio/voices: presets, aliases and the account's custom voices (Kokoro-FastAPI's shape)", async () => {
    await server.deps.store.putCustomVoice({ id: 'vc_openai_test', accountId, name: 'Test', baseVoice: 'meera', pitchShiftSemitones: 2, rateMultiplier: 1, createdAtMs: 1_767_225_600_000 });
    const response = await fetch(`${server.url}/v1/audio/voices`, { headers: { authorization: `Bearer ${key}` } });
    const { voices } = OpenAiVoiceListSchema.parse(await response.json());
    expect(voices).toEqual(expect.arrayContaining(['priya', 'vikram', 'alloy', 'cedar', 'af_heart', 'vc_openai_test']));
    expect(voices).toHaveLength(16 + 14 + 1);
    const custom = await speech({ voice: { id: 'vc_openai_test' }, response_format: 'pcm' });
    expect(custom.headers.get('x-raaga-voice')).toBe('vc_openai_test');
  });
});

describe('language', () => {
  it.each([
    ['the script: Devanagari is Hindi', { input: HINDI_SENTENCE }, 'hi-IN'],
    ['the script: Tamil', { input: TAMIL }, 'ta-IN'],
    ['the script: Latin is Indian English', { input: ENGLISH }, 'en-IN'],
    ['the language field, ISO 639-1', { input: HINDI_SENTENCE, language: 'mr' }, 'mr-IN'],
    ['the voice suffix', { input: HINDI_SENTENCE, voice: 'priya:mr-IN' }, 'mr-IN'],
    ['the field over the suffix', { input: HINDI_SENTENCE, voice: 'priya:mr-IN', language: 'hi-IN' }, 'hi-IN'],
  ] as const)('%s', async (_name, params, language) => {
    const response = await speech({ response_format: 'pcm', ...params });
    expect(response.headers.get('x-raaga-language')).toBe(language);
    expect((await bytesOf(response)).byteLength).toBeGreaterThan(0);
  });
});

describe('errors through the SDK', () => {
  it('401 AuthenticationError for a bad key, in OpenAI\'s envelope', async () => {
    const stranger = new OpenAI({ apiKey: `rk_live_${'x'.repeat(40)}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const error = await sdkError(speech({}, stranger));
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error', param: null });
    expect(await sdkError(stranger.models.list())).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it.each([
    ['an unknown model', { model: 'whisper-1' }, 'model', 'invalid_model_id', /tts-1, tts-1-hd, gpt-4o-mini-tts, raaga-v1/],
    ['an input over 4096 code points', { input: 'क'.repeat(4097) }, 'input', 'text_too_long', /4097.*4096/],
    ['aac', { response_format: 'aac' }, 'response_format', 'validation_error', /unsupported response_format 'aac'; use one of mp3, wav, pcm\b/],
    ['flac', { response_format: 'flac' }, 'response_format', 'validation_error', /unsupported response_format 'flac'/],
    ['a speed over 4.0', { speed: 4.5 }, 'speed', 'validation_error', /from 0.25 to 4.0/],
    ['an unknown voice', { voice: 'nobody' }, 'voice', 'voice_language_not_found', /Unknown voice 'nobody'/],
    ['an unknown language', { language: 'fr' }, 'language', 'validation_error', /'fr' is not a language Raaga speaks/],
    ['a missing input', { input: undefined }, 'input', 'validation_error', /'input' is required/],
  ] as const)('400 BadRequestError for %s, param naming the field', async (_name, params, param, code, message) => {
    const error = await sdkError(speech(params as Partial<SpeechCreateParams>));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param, code });
    expect(error.message).toMatch(message);
  });

  it("fastify's own errors under the dialect's paths: bad JSON and an oversized body 400, an unknown path 404, all in OpenAI's envelope", async () => {
    const post = (path: string, body: string) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
    const badJson = await post('/v1/audio/speech', '{"model": ');
    expect(badJson.status).toBe(400);
    expect(OpenAiErrorSchema.parse(await badJson.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'validation_error', message: expect.stringMatching(/not valid JSON/) });
    const tooLarge = await post('/v1/audio/speech', JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'a'.repeat(70_000) }));
    expect(tooLarge.status).toBe(400);
    expect(OpenAiErrorSchema.parse(await tooLarge.json()).error.message).toMatch(/input is at most 4096 characters/);
    const unknown = await sdkError(client.post('/audio/transcriptions', { body: {} }));
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });
    // The spec's own routes keep the spec's envelope.
    const spec = await post('/v1/tts/generate', '{"text": ');
    expect(spec.status).toBe(422);
    expect(await spec.json()).toMatchObject({ error: { status_code: 422, code: 'validation_error' } });
  });

  it('402 for credits: an APIError (no subclass, no retry even with the default retries), never 429 or 5xx', async () => {
    const poor = await server.account('developer', 3);
    const defaultRetries = new OpenAI({ apiKey: poor.keys[0] as string, baseURL: `${server.url}/v1` });
    const refusals = await creditRefusals();
    const error = await sdkError(speech({}, defaultRetries));
    expect(error.constructor).toBe(OpenAI.APIError);
    expect(error).toMatchObject({ status: 402, code: 'insufficient_credits', type: 'insufficient_quota' });
    // The server answered one request: the SDK did not try again (its retries would have come before the error).
    await eventually(async () => (await creditRefusals()) > refusals, 'the refusal counted');
    expect(await creditRefusals()).toBe(refusals + 1);
    expect((await server.deps.store.getAccount(poor.id))!.credits).toBe(3);
  });

  it('429 RateLimitError with Retry-After: the concurrency slot held by a stream, and the rate window', async () => {
    const frozenAtMs = 1_767_225_600_000;
    const limited = await startTestServer({}, { store: new SqliteStore({ now: () => frozenAtMs }) });
    try {
      const free = await limited.account('free', 1_000_000);
      const freeClient = new OpenAI({ apiKey: free.keys[0] as string, baseURL: `${limited.url}/v1`, maxRetries: 0 });
      const held = await speech({ response_format: 'pcm', input: ENGLISH.repeat(20) }, freeClient);
      const busy = await sdkError(speech({}, freeClient));
      expect(busy).toBeInstanceOf(OpenAI.RateLimitError);
      expect(busy).toMatchObject({ status: 429, code: 'concurrency_limit_exceeded', type: 'requests' });
      expect(busy.headers?.get('retry-after')).toBe('1');
      await held.body!.cancel();
      // The slot is freed once the server sees the stream closed; the window has 13 of 15 left then.
      await eventually(() => speech({ response_format: 'pcm', input: 'Hi.' }, freeClient).then((r) => r.arrayBuffer().then(() => true), () => false), 'the freed slot');
      let status = 200;
      let refused: InstanceType<typeof OpenAI.APIError> | undefined;
      for (let i = 0; i < 15 && status === 200; i++) {
        refused = await speech({ response_format: 'pcm', input: 'Hi.' }, freeClient).then(async (r) => (await r.arrayBuffer(), undefined), (error: InstanceType<typeof OpenAI.APIError>) => error);
        status = refused?.status ?? 200;
      }
      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'requests' });
      expect(refused!.headers?.get('retry-after')).toBe('60');
    } finally {
      await limited.close();
    }
  });

  it('503 InternalServerError when no engine can serve; nothing charged', async () => {
    const down = await startTestServer();
    try {
      const account = await down.account('growth', 1000);
      await down.deps.engine.close();
      const error = await sdkError(speech({}, new OpenAI({ apiKey: account.keys[0] as string, baseURL: `${down.url}/v1`, maxRetries: 0 })));
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      expect(error).toMatchObject({ status: 503, code: 'tts_workers_unconfigured', type: 'server_error' });
      expect(error.headers?.get('retry-after')).toBe('5');
      expect((await down.deps.store.getAccount(account.id))!.credits).toBe(1000);
    } finally {
      await down.close();
    }
  });
});

describe('a catalog where a voice does not speak every language, and operator aliases', () => {
  let narrow: TestServer;
  let modelsDir: string;
  let narrowClient: OpenAI;
  beforeAll(async () => {
    modelsDir = await mkdtemp(join(tmpdir(), 'raaga-models-'));
    const manifest = JSON.parse(await readFile('models/raaga-v1/manifest.json', 'utf8')) as { voices: { voice_name: string; languages?: string[] }[] };
    manifest.voices.find((voice) => voice.voice_name === 'priya')!.languages = ['en-IN', 'hi-IN'];
    await mkdir(join(modelsDir, 'raaga-v1'));
    await writeFile(join(modelsDir, 'raaga-v1', 'manifest.json'), JSON.stringify(manifest));
    narrow = await startTestServer({ RAAGA_MODELS_DIR: modelsDir, OPENAI_VOICE_ALIASES: 'alloy=priya,echo=vikram,narrator=meera' });
    const account = await narrow.account('growth', 100_000);
    narrowClient = new OpenAI({ apiKey: account.keys[0] as string, baseURL: `${narrow.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await narrow?.close();
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('400 naming the voice, its preset and the language, and where the language came from', async () => {
    const error = await sdkError(speech({ input: TAMIL }, narrowClient));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'voice', code: 'voice_language_not_found' });
    expect(error.message).toMatch(/'alloy' is Raaga's 'priya'.*'priya' with language 'ta-IN'.*input's script/);
    const speaks = await speech({ input: TAMIL, voice: 'narrator', response_format: 'pcm' }, narrowClient);
    expect(speaks.headers.get('x-raaga-voice')).toBe('meera');
    expect(speaks.headers.get('x-raaga-language')).toBe('ta-IN');
  });

  it("OPENAI_VOICE_ALIASES changes and adds names over the defaults", async () => {
    const echo = await speech({ voice: 'echo', response_format: 'pcm' }, narrowClient);
    expect(echo.headers.get('x-raaga-voice')).toBe('vikram');
    const nova = await speech({ voice: 'nova', response_format: 'pcm' }, narrowClient);
    expect(nova.headers.get('x-raaga-voice')).toBe('kavya');
  });
});
