// Two Raaga instances (two apps, each with its own engine and Redis connection) sharing one Redis: the account's
// sliding window and concurrency slot hold across them, whichever instance a request lands on.

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { deleteKeys, uniquePrefix, useTestRedis } from '../helpers/redis-server.js';

const redis = await useTestRedis('two instances sharing Redis');

describe.skipIf(!redis.url)('two instances sharing one Redis', () => {
  const keyPrefix = uniquePrefix('shared');
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = { REDIS_URL: redis.url ?? '', REDIS_KEY_PREFIX: keyPrefix, TTS_WORKERS: '1' };
    [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await deleteKeys(redis.url ?? '', keyPrefix);
  });

  const body = (text: string) =>
    JSON.stringify({ model_id: 'raaga-v1', voice: a.deps.catalog.voices()[0]!.name, language: 'hi-IN', text, output_format: 'pcm' });

  async function generate(server: TestServer, key: string, text = 'नमस्ते।') {
    const response = await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body: body(text) });
    return { status: response.status, response, json: (await response.json()) as { error?: { code: string } } };
  }

  it('the servers really use the shared store (an account made through one is known to the other)', async () => {
    const account = await a.account('free', 10);
    expect((await b.deps.store.getAccount(account.id))?.credits).toBe(10);
  });

  it("a free account's 16th request in a minute is refused whichever instance gets it", async () => {
    const account = await a.account('free', 1_000_000);
    const key = account.keys[0] as string;
    for (let i = 0; i < 15; i++) {
      const { status, response } = await generate(i % 2 === 0 ? a : b, key);
      expect(status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(14 - i));
    }
    for (const server of [a, b]) {
      const refused = await generate(server, key);
      expect(refused.status).toBe(429);
      expect(refused.json.error?.code).toBe('rate_limit_exceeded');
      const retryAfter = Number(refused.response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Both instances show the same window; refusals were not billed.
    const voicesA = await fetch(`${a.url}/v1/voices`, { headers: authHeaders(key) });
    const voicesB = await fetch(`${b.url}/v1/voices`, { headers: authHeaders(key) });
    expect(voicesA.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(voicesB.headers.get('x-ratelimit-reset')).toBe(voicesA.headers.get('x-ratelimit-reset'));
    expect((await b.deps.store.getAccount(account.id))?.credits).toBe(1_000_000 - 15 * [...'नमस्ते।'].length);
  });

  it('concurrency 1 holds across instances: a stream on one blocks a request on the other until it ends', async () => {
    const account = await b.account('free', 1_000_000);
    const key = account.keys[0] as string;
    const stream = await openStream(a, key, 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(20), body);
    const blocked = await generate(b, key);
    expect(blocked.status).toBe(429);
    expect(blocked.json.error?.code).toBe('concurrency_limit_exceeded');
    stream.abort();
    await stream.done;
    let after = await generate(b, key);
    for (let i = 0; i < 100 && after.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await generate(b, key);
    }
    expect(after.status).toBe(200);
  });
});

/** Opens a stream and resolves once the first audio bytes arrived; `abort()` drops the connection. */
function openStream(server: TestServer, key: string, text: string, body: (text: string) => string) {
  return new Promise<{ abort: () => void; done: Promise<void> }>((resolve, reject) => {
    const url = new URL(`${server.url}/v1/tts/stream`);
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: authHeaders(key) }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
      const done = new Promise<void>((ok) => res.on('close', () => ok()));
      res.once('data', () => resolve({ abort: () => req.destroy(), done }));
      res.resume();
    });
    req.on('error', () => undefined);
    req.end(body(text));
  });
}
