// Every client-triggerable HTTP error comes back as the spec's envelope with the right status and code,
// a message that says what to fix, and never a stack trace.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/store/api-key.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
let key: string;
let freeKey: string;
let voice: string;

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.account('growth', 1_000_000)).keys[0] as string;
  freeKey = (await server.account('free', 1_000_000)).keys[0] as string;
  voice = server.deps.catalog.voices()[0]!.name;
});

afterAll(async () => {
  await server?.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = authHeaders(key)) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { response, text, json: (isJson ? JSON.parse(text) : {}) as { error: { status_code: number; code: string; message: string } } };
}

function valid(extra: Record<string, unknown> = {}) {
  return { model_id: 'raaga-v1', voice, language: 'hi-IN', text: 'नमस्ते।', output_format: 'pcm', ...extra };
}

function expectEnvelope(result: Awaited<ReturnType<typeof post>>, status: number, code: string, messagePart?: RegExp) {
  expect(result.response.status).toBe(status);
  expect(result.response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(result.json)).toEqual(['error']);
  expect(result.json.error.status_code).toBe(status);
  expect(result.json.error.code).toBe(code);
  expect(result.json.error.message.length).toBeGreaterThan(10);
  if (messagePart) expect(result.json.error.message).toMatch(messagePart);
  expect(result.text).not.toMatch(/\bat .*\.ts:\d+/); // no stack frames
}

describe.each(['/v1/tts/generate', '/v1/tts/stream'])('%s errors', (path) => {
  it('401 invalid_api_key: missing, malformed, unknown, revoked', async () => {
    expectEnvelope(await post(path, valid(), { 'content-type': 'application/json' }), 401, 'invalid_api_key', /Authorization/);
    expectEnvelope(await post(path, valid(), { ...authHeaders(key), authorization: key }), 401, 'invalid_api_key', /Bearer/);
    expectEnvelope(await post(path, valid(), authHeaders('rk_live_short')), 401, 'invalid_api_key');
    expectEnvelope(await post(path, valid(), authHeaders(`rk_live_${'A'.repeat(40)}`)), 401, 'invalid_api_key', /unknown or has been revoked/);
    const victim = await server.account('developer', 100);
    const victimKey = victim.keys[0] as string;
    expect((await post(path, valid(), authHeaders(victimKey))).response.status).toBe(200);
    await server.deps.store.revokeKeyHash(hashApiKey(victimKey));
    expectEnvelope(await post(path, valid(), authHeaders(victimKey)), 401, 'invalid_api_key');
  });

  it('401 comes before body problems', async () => {
    expectEnvelope(await post(path, '{not json', { 'content-type': 'application/json' }), 401, 'invalid_api_key');
  });

  it('402 insufficient_credits states remaining and required', async () => {
    const poor = await server.account('developer', 3);
    const result = await post(path, valid({ text: 'नमस्ते' }), authHeaders(poor.keys[0] as string));
    expectEnvelope(result, 402, 'insufficient_credits', /3 remaining, 6 required/);
    expect(result.response.headers.get('x-ratelimit-limit')).toBe('60');
    expect((await server.deps.store.getAccount(poor.id))!.credits).toBe(3);
  });

  it('422 text_too_long over 3000 code points, not UTF-16 units', async () => {
    expectEnvelope(await post(path, valid({ text: 'क'.repeat(3001) })), 422, 'text_too_long', /3001.*3000/);
    // 3000 emoji are 6000 UTF-16 units but 3000 code points: allowed by the length rule.
    const emoji = await post(path, valid({ text: '😀'.repeat(3000), output_format: 'pcm' }), authHeaders(key));
    expect(emoji.response.status).not.toBe(422);
  });

  it('422 voice_language_not_found for an unknown voice', async () => {
    expectEnvelope(await post(path, valid({ voice: 'nobody' })), 422, 'voice_language_not_found', /nobody/);
  });

  it('422 invalid_model_id', async () => {
    expectEnvelope(await post(path, valid({ model_id: 'raaga-v2' })), 422, 'invalid_model_id', /raaga-v1/);
  });

  it.each([
    [{ output_format: 'ogg' }, /output_format/],
    [{ sample_rate: 44100 }, /sample_rate/],
    [{ sample_rate: '24000' }, /sample_rate/],
    [{ speed: 2.5 }, /speed/],
    [{ speed: 0.4 }, /speed/],
    [{ language: 'fr-FR' }, /language/],
    [{ text: 42 }, /text/],
    [{ text: undefined }, /'text' is required/],
    [{ voice: undefined }, /'voice' is required/],
    [{ voice_name: 'x' }, /either 'voice' or/],
    [{ surprise: true }, /Unknown field 'surprise'/],
    [{ text: '   ' }, /text/],
  ])('422 validation_error names the field: %j', async (change, message) => {
    expectEnvelope(await post(path, valid(change)), 422, 'validation_error', message);
  });

  it('voice_name works as a deprecated alias but cannot select vc_ voices', async () => {
    const { voice: _omit, ...rest } = valid();
    expect((await post(path, { ...rest, voice_name: voice })).response.status).toBe(200);
    expectEnvelope(await post(path, { ...rest, voice_name: 'vc_abc' }), 422, 'validation_error', /voice_name/);
  });

  it('a body that is not a JSON object is a schema failure: 422 validation_error naming the problem', async () => {
    const broken = await post(path, '{"text": ', authHeaders(key));
    expectEnvelope(broken, 422, 'validation_error', /not valid JSON/);
    // Same headers as any other refusal: the rate-limit window is on it too.
    expect(broken.response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expectEnvelope(await post(path, '', authHeaders(key)), 422, 'validation_error', /empty/);
    expectEnvelope(await post(path, 'text=hi', { ...authHeaders(key), 'content-type': 'text/plain' }), 422, 'validation_error', /Content-Type: application\/json/);
    expectEnvelope(await post(path, 'text=hi', { ...authHeaders(key), 'content-type': 'application/x-www-form-urlencoded' }), 422, 'validation_error', /Content-Type: application\/json/);
    expectEnvelope(await post(path, JSON.stringify(valid({ text: 'a'.repeat(70_000) })), authHeaders(key)), 422, 'validation_error', /exceeds 65536 bytes/);
    expectEnvelope(await post(path, '[1,2]', authHeaders(key)), 422, 'validation_error', /JSON object/);
  });

  it('custom voices: growth plan only, own voices only', async () => {
    const owner = await server.account('growth', 10_000);
    const other = await server.account('growth', 10_000);
    const free = await server.account('free', 10_000);
    const id = `vc_test_${path.split('/').at(-1)}`;
    await server.deps.store.putCustomVoice({
      id, accountId: owner.id, name: 'Owner voice', baseVoice: voice, pitchShiftSemitones: 3, rateMultiplier: 1.1, createdAtMs: 1_767_225_600_000,
    });
    expect((await post(path, valid({ voice: id }), authHeaders(owner.keys[0] as string))).response.status).toBe(200);
    expectEnvelope(await post(path, valid({ voice: id }), authHeaders(other.keys[0] as string)), 422, 'voice_language_not_found', /does not exist for this account/);
    expectEnvelope(await post(path, valid({ voice: id }), authHeaders(free.keys[0] as string)), 422, 'validation_error', /Growth plan/);
  });
});

describe('other routes', () => {
  it('404 not_found envelope for unknown paths', async () => {
    const response = await fetch(`${server.url}/v2/nothing`);
    const json = (await response.json()) as { error: { code: string } };
    expect(response.status).toBe(404);
    expect(json.error.code).toBe('not_found');
  });

  it('GET /v1/voices: both shapes, auth required, not rate counted', async () => {
    const headers = { authorization: `Bearer ${freeKey}` };
    const byLanguage = await fetch(`${server.url}/v1/voices`, { headers });
    expect(byLanguage.status).toBe(200);
    const languages = (await byLanguage.json()) as Record<string, { voice_name: string; gender: string }[]>;
    expect(Object.keys(languages).sort()).toEqual(['bn-IN', 'en-IN', 'gu-IN', 'hi-IN', 'kn-IN', 'mr-IN', 'ta-IN', 'te-IN']);
    for (const list of Object.values(languages)) {
      expect(list).toHaveLength(16);
      expect(list.filter((v) => v.gender === 'male')).toHaveLength(8);
      expect(Object.keys(list[0]!).sort()).toEqual(['gender', 'voice_name']);
    }
    expect(byLanguage.headers.get('x-ratelimit-limit')).toBe('15');
    expect(byLanguage.headers.get('x-ratelimit-remaining')).toBe('15');
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/v1/voices?group_by=voice`, { headers })).status).toBe(200);
    const byVoice = await fetch(`${server.url}/v1/voices?group_by=voice`, { headers });
    expect(byVoice.headers.get('x-ratelimit-remaining')).toBe('15');
    const voices = (await byVoice.json()) as Record<string, { gender: string; languages: string[] }>;
    expect(Object.keys(voices)).toHaveLength(16);
    expect(voices[voice]!.languages).toHaveLength(8);
    const bad = await fetch(`${server.url}/v1/voices?group_by=age`, { headers });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('validation_error');
    expect((await fetch(`${server.url}/v1/voices`)).status).toBe(401);
  });

  it('healthz and readyz', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { status: string }).status).toBe('ready');
  });
});
