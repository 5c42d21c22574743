// GET /metrics after real traffic: request and error counters by route and code, first-audio histograms for the
// HTTP stream and the WebSocket, the engine's real-time factor and queue gauges, active sessions and credits;
// the optional METRICS_TOKEN; and, without it on a loopback HOST, no metrics for a request a reverse proxy forwarded.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsListener } from '../../src/api/metrics-listener.js';
import { authHeaders, HINDI_SENTENCE, startTestServer, type TestServer } from '../helpers/test-server.js';
import { configMessage, openClient } from '../helpers/ws-client.js';

const TOKEN = 'metrics-token-0123456789';
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN: TOKEN });
  key = (await server.account('growth', 1_000_000)).keys[0] as string;
});

afterAll(async () => {
  await server?.close();
});

/** Every sample of the exposition as `name{labels}` → value. */
async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    const match = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match) samples.set(match[1] as string, Number(match[2]));
  }
  return samples;
}

const value = (samples: Map<string, number>, name: string): number => samples.get(name) ?? 0;

describe('/metrics', () => {
  it('needs the token when METRICS_TOKEN is set', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
    const refused = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  });

  it('with the token, a scrape through a reverse proxy is served', async () => {
    const proxied = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '198.51.100.7' } });
    expect(proxied.status).toBe(200);
    expect(await proxied.text()).toContain('raaga_http_requests_total');
  });

  it('moves the counters with real HTTP and WebSocket traffic', async () => {
    const before = await scrape();
    const text = `${HINDI_SENTENCE} ${HINDI_SENTENCE}`;
    const generate = await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body: JSON.stringify({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text, output_format: 'pcm' }) });
    expect(generate.status).toBe(200);
    const stream = await fetch(`${server.url}/v1/tts/stream`, { method: 'POST', headers: authHeaders(key), body: JSON.stringify({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text, output_format: 'pcm' }) });
    await stream.arrayBuffer();
    const refused = await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body: JSON.stringify({ model_id: 'raaga-v2', voice: 'aarav', language: 'hi-IN', text }) });
    expect(refused.status).toBe(422);
    await fetch(`${server.url}/no/such/path/123`);

    const client = await openClient(server, key);
    client.send(configMessage());
    await client.waitFor('configured');
    const during = await scrape();
    expect(value(during, 'raaga_active_sessions{kind="websocket"}')).toBe(value(before, 'raaga_active_sessions{kind="websocket"}') + 1);
    client.send({ type: 'text', text: HINDI_SENTENCE });
    await client.waitFor('end_of_utterance');
    client.send({ type: 'text', text: '' });
    await client.waitFor('error');
    client.send({ type: 'disconnect' });
    await client.closed;
    // The session's slot release and its billing settle after the close: wait until the metrics show both.
    const settledView = (m: Map<string, number>) => [
      value(m, 'raaga_active_sessions{kind="websocket"}'),
      value(m, 'raaga_credits_consumed_total') - value(before, 'raaga_credits_consumed_total'),
    ];
    await expect
      .poll(async () => settledView(await scrape()), { timeout: 20_000 })
      .toEqual([value(before, 'raaga_active_sessions{kind="websocket"}'), 2 * [...text].length + [...HINDI_SENTENCE].length]);

    const after = await scrape();
    const delta = (name: string) => value(after, name) - value(before, name);
    expect(delta('raaga_http_requests_total{route="/v1/tts/generate",method="POST",status="200"}')).toBe(1);
    expect(delta('raaga_http_requests_total{route="/v1/tts/stream",method="POST",status="200"}')).toBe(1);
    expect(delta('raaga_http_requests_total{route="/v1/tts/generate",method="POST",status="422"}')).toBe(1);
    expect(delta('raaga_http_errors_total{route="/v1/tts/generate",code="invalid_model_id",status="422"}')).toBe(1);
    // Unknown paths are one series, not one per URL.
    expect(delta('raaga_http_errors_total{route="unmatched",code="not_found",status="404"}')).toBe(1);
    expect([...after.keys()].some((name) => name.includes('/no/such/path'))).toBe(false);
    expect(delta('raaga_session_errors_total{kind="websocket",code="validation_error"}')).toBe(1);
    expect(delta('raaga_time_to_first_audio_seconds_count{path="http_stream"}')).toBe(1);
    expect(delta('raaga_time_to_first_audio_seconds_count{path="websocket"}')).toBe(1);
    expect(delta('raaga_time_to_first_audio_seconds_sum{path="websocket"}')).toBeGreaterThan(0);
    expect(delta('raaga_synthesis_real_time_factor_count{engine="espeak"}')).toBeGreaterThanOrEqual(5);
    expect(delta('raaga_synthesis_audio_seconds_total{engine="espeak"}')).toBeGreaterThan(5);
    const credits = 2 * [...text].length + [...HINDI_SENTENCE].length;
    expect(delta('raaga_credits_consumed_total')).toBe(credits);
    expect(value(after, 'raaga_active_sessions{kind="websocket"}')).toBe(value(before, 'raaga_active_sessions{kind="websocket"}'));
    expect(value(after, 'raaga_engine_workers')).toBe(2);
    expect(after.has('raaga_engine_queue_depth')).toBe(true);
    expect(after.has('raaga_active_sessions{kind="call"}')).toBe(true);
    expect(after.has('raaga_barge_ins_total{cause="speech"}')).toBe(true);
    expect(after.has('process_cpu_user_seconds_total')).toBe(true);
  });
});

describe('/metrics on a loopback HOST without METRICS_TOKEN', () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startTestServer({ TTS_WORKERS: '1' });
  });
  afterAll(async () => {
    await open?.close();
  });

  it('is served to a client on this machine', async () => {
    const response = await fetch(`${open.url}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('raaga_http_requests_total');
  });

  it.each([
    ['x-forwarded-for', '198.51.100.7'],
    ['forwarded', 'for=198.51.100.7;proto=https'],
    ['x-real-ip', '198.51.100.7'],
    ['x-forwarded-proto', 'https'],
    ['via', '1.1 caddy'],
  ])('answers 404 to a request carrying %s (a same-host reverse proxy forwarded it)', async (header, value) => {
    const response = await fetch(`${open.url}/metrics`, { headers: { [header]: value } });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { status_code: number; code: string; message: string } };
    expect(body.error).toMatchObject({ status_code: 404, code: 'not_found' });
    expect(body.error.message).toBe(
      `GET /metrics is not served to a request that came through a proxy (it carries ${header}) unless the operator sets METRICS_TOKEN; scrape the loopback port directly, or set METRICS_PORT.`,
    );
    expect(Object.keys(body)).toEqual(['error']);
  });

  it('the METRICS_PORT listener keeps the same rule', async () => {
    const metrics = open.deps.metrics;
    if (metrics === undefined) throw new Error('the test server has no metrics');
    const listener = new MetricsListener({ host: '127.0.0.1', port: 0, metrics, access: { token: undefined, loopbackOnly: true }, timeouts: { headersMs: 10_000, requestMs: 30_000 } });
    const { port } = await listener.listen();
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
      const proxied = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(proxied.status).toBe(404);
      expect(((await proxied.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'not_found', message: expect.stringContaining('(it carries x-forwarded-for)') });
    } finally {
      await listener.close();
    }
  });
});
