// The one billing rule on every endpoint a client can leave early (docs/api.md, "Billing"): a client pays for the text
// whose audio was synthesized and handed to it, and an HTTP request left after admission pays its first chunk at
// least (a generate: what was synthesized before it left). A WebSocket left mid-utterance: the chunks handed over, no
// more. Each ledger record equals the credits debited.

import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TIME } from '../helpers/store-contract.js';
import { eventually } from '../helpers/telephony.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { configMessage, wsUrl, WsTestClient } from '../helpers/ws-client.js';

const SENTENCE = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। ';
const LONG = SENTENCE.repeat(40).trim();
const cp = (text: string) => [...text].length;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ TTS_WORKERS: '1' }, { vad: null });
});
afterAll(async () => {
  await server?.close();
});

async function fresh() {
  const account = await server.account('growth', 1_000_000);
  const key = account.keys[0] as string;
  const ledger = () => server.deps.store.listUsage(account.id, ALL_TIME);
  const debited = async () => 1_000_000 - (await server.deps.store.getAccount(account.id))!.credits;
  return { key, ledger, debited };
}

const body = (text: string, format = 'pcm') => JSON.stringify({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text, output_format: format, sample_rate: 8000 });

describe('billing when the client leaves early', () => {
  it.each([
    ['generate', 'before the file pays what was synthesized, its first chunk at least'],
    ['stream', 'before the first chunk pays that chunk (the work its admission set going)'],
  ] as const)('%s: a client gone %s (cancelled)', async (endpoint, _outcome) => {
    const { key, ledger, debited } = await fresh();
    // A clause an earlier test left running would look like this request's.
    await eventually(() => server.deps.engine.load().running === 0 && server.deps.admission.held().slots === 0, 'an idle server');
    const client = new AbortController();
    const pending = fetch(`${server.url}/v1/tts/${endpoint}`, { method: 'POST', headers: authHeaders(key), body: body(LONG), signal: client.signal }).catch((error: unknown) => error);
    await eventually(() => server.deps.admission.held().slots > 0 && server.deps.engine.load().running > 0, 'this request admitted and synthesizing');
    client.abort();
    await pending;
    await eventually(async () => (await ledger()).length === 1, 'the settled request');
    const [record] = await ledger();
    expect(record).toMatchObject({ endpoint, outcome: 'cancelled' });
    expect(record!.characters).toBeGreaterThanOrEqual(cp(SENTENCE.trim()));
    expect(record!.characters).toBeLessThan(cp(LONG));
    expect(await debited()).toBe(record!.characters);
  });

  it('stream: a client gone after the first chunk pays for the chunks handed over', async () => {
    const { key, ledger, debited } = await fresh();
    const url = new URL(`${server.url}/v1/tts/stream`);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: authHeaders(key) }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.once('close', () => resolve());
      req.end(body(LONG));
    }).catch(() => undefined);
    await eventually(async () => (await ledger()).length === 1, 'the settled stream');
    const [record] = await ledger();
    expect(record).toMatchObject({ endpoint: 'stream', outcome: 'cancelled' });
    expect(record!.characters).toBeGreaterThan(0);
    expect(record!.characters).toBeLessThan(cp(LONG));
    expect(await debited()).toBe(record!.characters);
  });

  it('WebSocket: a socket dropped mid-utterance pays for the chunks handed over', async () => {
    const { key, ledger, debited } = await fresh();
    const client = new WsTestClient(new WebSocket(wsUrl(server), { headers: { authorization: `Bearer ${key}` } }));
    await client.opened;
    client.send(configMessage({ output_format: 'pcm', sample_rate: 8000 }));
    await client.waitFor('configured');
    client.send({ type: 'text', text: LONG });
    await client.waitForFrames(1);
    client.socket.terminate();
    await eventually(async () => (await ledger()).length === 1, 'the settled turn');
    const [record] = await ledger();
    expect(record).toMatchObject({ endpoint: 'websocket', outcome: 'cancelled' });
    expect(record!.characters).toBeGreaterThan(0);
    expect(record!.characters).toBeLessThan(cp(LONG));
    expect(await debited()).toBe(record!.characters);
  });

  it('a completed request pays the whole text, on each endpoint', async () => {
    const { key, ledger, debited } = await fresh();
    const text = 'नमस्ते, आपका खाता सक्रिय है।';
    expect((await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body: body(text) })).status).toBe(200);
    await (await fetch(`${server.url}/v1/tts/stream`, { method: 'POST', headers: authHeaders(key), body: body(text) })).arrayBuffer();
    await eventually(async () => (await ledger()).length === 2, 'both settled');
    expect((await ledger()).map((record) => [record.endpoint, record.outcome, record.characters])).toEqual([
      ['generate', 'completed', cp(text)],
      ['stream', 'completed', cp(text)],
    ]);
    expect(await debited()).toBe(2 * cp(text));
  });
});
