// The server facing strangers: clients that hold a request open are cut (M6), errors raised before routing use
// the envelope, /metrics is closed on a public listener without a token and can live on a loopback port of its own
// (L1), and what the server writes to disk is its user's alone (L2).

import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { eventually } from '../helpers/telephony.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000', TTS_WORKERS: '1' }, { vad: null });
});
afterAll(async () => {
  await server?.close();
});

/** Sends `bytes` on a raw connection and returns everything the server wrote before it closed the connection. */
async function rawExchange(bytes: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(bytes);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  await once(socket, 'close');
  return received;
}

function envelopeOf(response: string): { status: string; json: { error: { code: string; message: string; status_code: number } } } {
  const [head = '', body = ''] = response.split('\r\n\r\n');
  return { status: head.split('\r\n')[0] ?? '', json: JSON.parse(body) as { error: { code: string; message: string; status_code: number } } };
}

describe('M6: a client that holds a request open is answered and cut', () => {
  it('headers that never end', async () => {
    const answer = envelopeOf(await rawExchange('POST /v1/tts/generate HTTP/1.1\r\nHost: x\r\nX-Slow: '));
    expect(answer.status).toBe('HTTP/1.1 422 Unprocessable Entity');
    expect(answer.json.error).toMatchObject({ code: 'validation_error', status_code: 422, message: expect.stringContaining('did not arrive in time') });
  });

  it('a body to an unauthenticated provider webhook that stops after two bytes', async () => {
    const answer = envelopeOf(await rawExchange('POST /v1/telephony/twilio/voice/acct_x HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\nCa'));
    expect(answer.status).toBe('HTTP/1.1 422 Unprocessable Entity');
    expect(answer.json.error.code).toBe('validation_error');
  });

  it('a connection that never sends a byte', async () => {
    const answer = envelopeOf(await rawExchange(''));
    expect(answer.json.error.code).toBe('validation_error');
  });

  it('malformed HTTP gets 400 bad_request in the envelope', async () => {
    const answer = envelopeOf(await rawExchange('THIS IS NOT HTTP\r\n\r\n'));
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.json.error.code).toBe('bad_request');
  });
});

describe('errors raised before routing use the envelope', () => {
  it.each([
    ['a malformed percent-encoding', '/v1/calls/%E0%A4/say', /percent-encoding/],
    ['an over-long path segment', `/v1/calls/${'C'.repeat(600)}/say`, /longer than 512 characters/],
  ])('%s', async (_name, path, message) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: authHeaders('rk_live_x'), body: '{}' });
    expect(response.status).toBe(422);
    const json = (await response.json()) as { error: { code: string; message: string; request_id: string } };
    expect(json.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(message) });
    expect(json.error.request_id).toBe(response.headers.get('x-request-id'));
  });
});

describe('L1 and L2: metrics and files', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function start(env: Record<string, string>): Promise<ServerProcess> {
    const dataDir = await mkdtemp(join(tmpdir(), 'raaga-sec-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const started = await startServerProcess({ RAAGA_DATA_DIR: join(dataDir, 'data'), ...env }, { startTimeoutMs: 20_000 });
    cleanups.unshift(started.kill);
    return started;
  }

  it('a public listener without METRICS_TOKEN refuses /metrics; METRICS_PORT serves it on loopback instead', async () => {
    const exposed = await start({ HOST: '0.0.0.0' });
    const local = exposed.url.replace('localhost', '127.0.0.1');
    const refused = await fetch(`${local}/metrics`);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/METRICS_TOKEN/);
    await eventually(() => /GET \/metrics is refused on this public listener/.test(exposed.output()), 'the warning at start');

    const separate = await start({ HOST: '0.0.0.0', METRICS_PORT: '0', LOG_LEVEL: 'info' });
    const logged = () =>
      separate
        .output()
        .split('\n')
        .find((entry) => entry.includes('"metrics listening"'));
    await eventually(() => logged() !== undefined, 'the metrics listener logged its port');
    const line = logged();
    const port = (JSON.parse(line ?? '{}') as { port?: number }).port;
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('raaga_');
    // The API's port no longer serves it.
    expect((await fetch(`${separate.url.replace('localhost', '127.0.0.1')}/metrics`)).status).toBe(404);
  });

  it('the data dir, the prompt-cache dir (0700) and the cached audio (0600) are private', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'raaga-perm-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const running = await start({ RAAGA_DATA_DIR: dataDir, PROMPT_CACHE_DISK_BYTES: String(4 * 2 ** 20) });
    const key = /API key: (rk_live_[A-Za-z0-9]+)/.exec(running.output())?.[1] as string;
    const body = JSON.stringify({ model_id: 'raaga-v1', voice: 'priya', language: 'en-IN', text: 'Your one time password is 4 8 2 9.', output_format: 'pcm', sample_rate: 8000 });
    expect((await fetch(`${running.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body })).status).toBe(200);
    // The disk tier writes in the background: wait for the entry, then stop the server.
    const entries = async () => (await readdir(join(dataDir, 'prompt-cache'))).filter((name) => name.endsWith('.rpc'));
    await eventually(async () => (await entries()).length > 0, 'the cached audio on disk');
    running.child.kill('SIGTERM');
    await running.exited;
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(join(dataDir, 'prompt-cache'))).toBe(0o700);
    const cached = (await readdir(join(dataDir, 'prompt-cache'))).filter((name) => name.endsWith('.rpc'));
    expect(cached.length).toBeGreaterThan(0);
    for (const name of cached) expect(await mode(join(dataDir, 'prompt-cache', name))).toBe(0o600);
    for (const name of ['raaga.db', 'call-token.secret']) expect(await mode(join(dataDir, name))).toBe(0o600);
  });
});
