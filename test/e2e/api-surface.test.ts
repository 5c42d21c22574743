// The developer-facing surface over real sockets: /openapi.json and /asyncapi.json are the committed documents,
// real responses and WebSocket messages validate against the schemas those documents come from, request ids
// come back in the header and the error envelope, and browsers authenticate WebSockets with the key subprotocol.

import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, SynthesisResultSchema, VoicesByLanguageSchema, VoicesByVoiceSchema } from '../../src/api/response-schemas.js';
import { WebSocketServerMessageSchema } from '../../src/api/websocket-server-messages.js';
import { authHeaders, HINDI_SENTENCE, startTestServer, type TestServer } from '../helpers/test-server.js';
import { configMessage, openClient, WsTestClient, wsUrl } from '../helpers/ws-client.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.account('growth', 1_000_000)).keys[0] as string;
});

afterAll(async () => {
  await server?.close();
});

const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text: HINDI_SENTENCE, output_format: 'pcm', ...extra });

describe('API documents', () => {
  it('serves the committed OpenAPI and AsyncAPI documents', async () => {
    for (const name of ['openapi', 'asyncapi']) {
      const response = await fetch(`${server.url}/${name}.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.text()).toBe(readFileSync(new URL(`../../docs/${name}.json`, import.meta.url), 'utf8'));
    }
  });

  it('serves the reference and playground pages with a strict CSP, without a key', async () => {
    for (const path of ['/', '/docs', '/playground/main.js', '/docs/docs.js']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await fetch(`${server.url}/playground/../../package.json`)).status).toBe(404);
  });

  it('real HTTP responses validate against the documented schemas', async () => {
    const generated = await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body: body() });
    expect(SynthesisResultSchema.safeParse(await generated.json()).success).toBe(true);
    const byLanguage = await fetch(`${server.url}/v1/voices`, { headers: authHeaders(key) });
    expect(VoicesByLanguageSchema.safeParse(await byLanguage.json()).success).toBe(true);
    const byVoice = await fetch(`${server.url}/v1/voices?group_by=voice`, { headers: authHeaders(key) });
    expect(VoicesByVoiceSchema.safeParse(await byVoice.json()).success).toBe(true);
    for (const [headers, payload] of [
      [authHeaders(key), body({ speed: 5 })],
      [authHeaders('rk_live_nope'), body()],
      [authHeaders(key), '{oops'],
    ] as const) {
      const refused = await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers, body: payload });
      const parsed = ErrorEnvelopeSchema.safeParse(await refused.json());
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
  });

  it('real WebSocket messages validate against the documented schemas', async () => {
    const client = await openClient(server, key);
    client.send(configMessage({ sample_rate: 8000 }));
    await client.waitFor('configured');
    client.send({ type: 'text', text: HINDI_SENTENCE });
    await client.waitFor('end_of_utterance');
    client.send({ type: 'text', text: 'क'.repeat(3001) });
    await client.waitFor('error');
    client.send({ type: 'ping' });
    await client.waitFor('pong');
    client.send({ type: 'cancel' });
    await client.waitFor('cancellation');
    for (const message of client.messages) {
      const parsed = WebSocketServerMessageSchema.safeParse(message);
      expect(parsed.success, `${JSON.stringify(message)}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    expect(new Set(client.messages.map((m) => m.type))).toEqual(new Set(['connected', 'configured', 'end_of_utterance', 'error', 'pong', 'cancellation']));
    client.send({ type: 'disconnect' });
    await client.closed;
  });
});

describe('request ids', () => {
  it('an error envelope carries the request id the client sent, as the header does', async () => {
    const response = await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: { ...authHeaders(key), 'x-request-id': 'trace-42.a:b_c' }, body: body({ speed: 5 }) });
    expect(response.headers.get('x-request-id')).toBe('trace-42.a:b_c');
    expect(await response.json()).toEqual({
      error: { status_code: 422, code: 'validation_error', message: expect.stringMatching(/speed/), request_id: 'trace-42.a:b_c' },
    });
  });

  it('without (or with an unusable) X-Request-Id the server makes one and uses it in both places', async () => {
    for (const headers of [{}, { 'x-request-id': 'has spaces and $ymbols' }] as Record<string, string>[]) {
      const response = await fetch(`${server.url}/v1/nothing-here`, { headers });
      const envelope = (await response.json()) as { error: { code: string; request_id: string } };
      expect(envelope.error.code).toBe('not_found');
      expect(envelope.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('x-request-id')).toBe(envelope.error.request_id);
    }
  });

  it('successful responses carry the header only (their bodies are the spec shapes)', async () => {
    const response = await fetch(`${server.url}/v1/voices`, { headers: { ...authHeaders(key), 'x-request-id': 'ok-1' } });
    expect(response.headers.get('x-request-id')).toBe('ok-1');
    expect(JSON.stringify(await response.json())).not.toContain('request_id');
  });
});

describe('browser WebSocket authentication (key as subprotocol)', () => {
  const connectWith = (protocols: string[], headers: Record<string, string> = {}) => new WsTestClient(new WebSocket(wsUrl(server), protocols, { headers }));

  it('authenticates with `raaga.key.<key>` and selects `raaga`, never echoing the key', async () => {
    const client = connectWith(['raaga', `raaga.key.${key}`]);
    const upgrade = new Promise<string | undefined>((resolve) => client.socket.once('upgrade', (response) => resolve(response.headers['sec-websocket-protocol'] as string | undefined)));
    await client.opened;
    expect(await upgrade).toBe('raaga');
    expect(client.socket.protocol).toBe('raaga');
    const connected = await client.waitFor('connected');
    expect(connected.user_id).toMatch(/^acct_/);
    client.send(configMessage());
    await client.waitFor('configured');
    client.send({ type: 'disconnect' });
    expect((await client.closed).code).toBe(1000);
  });

  it('a bad key offered as a subprotocol closes with 4001, like a bad header', async () => {
    const client = connectWith(['raaga', `raaga.key.rk_live_${'Z'.repeat(40)}`]);
    await client.opened;
    expect((await client.closed).code).toBe(4001);
  });

  it('without the `raaga` subprotocol the handshake is refused by the client (no protocol selected)', async () => {
    const client = connectWith([`raaga.key.${key}`]);
    await expect(client.opened).rejects.toThrow(/no subprotocol/i);
  });

  it('the Authorization header wins over a subprotocol key', async () => {
    const client = connectWith(['raaga', 'raaga.key.rk_live_wrong'], { authorization: `Bearer ${key}` });
    await client.opened;
    await client.waitFor('connected');
    client.send({ type: 'disconnect' });
    await client.closed;
  });

  it('header-authenticated clients that offer no subprotocol are unaffected', async () => {
    const client = await openClient(server, key);
    expect(client.socket.protocol).toBe('');
    client.send({ type: 'disconnect' });
    await client.closed;
  });
});
