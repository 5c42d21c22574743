// Admission over real HTTP: the exact sliding window shared by all keys of an account, concurrency slots
// held and freed (also when the client aborts mid-stream), credits exact under parallel load, engine
// capacity errors, and balances that survive a restart.

import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function start(env: Record<string, string> = {}, dataDir?: string, store?: SqliteStore) {
  const server = await startTestServer(env, { ...(dataDir ? { dataDir } : {}), ...(store ? { store } : {}) });
  servers.push(server);
  return server;
}

function body(server: TestServer, text: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ model_id: 'raaga-v1', voice: server.deps.catalog.voices()[1]!.name, language: 'hi-IN', text, output_format: 'pcm', ...extra });
}

async function generate(server: TestServer, key: string, text = 'नमस्ते।') {
  const response = await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body: body(server, text) });
  const json = (await response.json()) as { characters_used?: number; error?: { code: string; message: string } };
  return { response, json };
}

const LONG_TEXT = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(20);

/** Opens a stream and resolves once the first audio bytes arrived; `abort()` drops the connection. */
function openStream(server: TestServer, key: string, text: string) {
  return new Promise<{ abort: () => void; done: Promise<number> }>((resolve, reject) => {
    const url = new URL(`${server.url}/v1/tts/stream`);
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: authHeaders(key) }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
      let bytes = 0;
      const done = new Promise<number>((ok) => {
        res.on('end', () => ok(bytes));
        res.on('close', () => ok(bytes));
      });
      res.once('data', () => resolve({ abort: () => req.destroy(), done }));
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
    });
    req.on('error', () => undefined);
    req.end(body(server, text));
  });
}

async function eventually<T>(fn: () => Promise<T>, accept: (value: T) => boolean, attempts = 100): Promise<T> {
  let last: T = await fn();
  for (let i = 0; i < attempts && !accept(last); i++) {
    await new Promise((r) => setTimeout(r, 50));
    last = await fn();
  }
  return last;
}

describe('rate limit', () => {
  it('the 16th counted request of a free account in a minute gets 429 with Retry-After, across keys', async () => {
    // The store's clock stands still: every request lands at the same instant, so the window's reset is exact.
    const frozenAtMs = 1_767_225_600_000;
    const server = await start({}, undefined, new SqliteStore({ now: () => frozenAtMs }));
    const account = await server.account('free', 1_000_000, 1);
    const [keyA, keyB] = account.keys as [string, string];
    for (let i = 0; i < 15; i++) {
      const { response } = await generate(server, i % 2 === 0 ? keyA : keyB);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(14 - i));
    }
    for (const key of [keyA, keyB]) {
      const { response, json } = await generate(server, key);
      expect(response.status).toBe(429);
      expect(json.error!.code).toBe('rate_limit_exceeded');
      expect(response.headers.get('retry-after')).toBe('60');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(response.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil((frozenAtMs + 60_000) / 1000)));
    }
    // Refused requests were not billed.
    expect((await server.deps.store.getAccount(account.id))!.credits).toBe(1_000_000 - 15 * [...'नमस्ते।'].length);
  });
});

describe('concurrency slots', () => {
  it('a free account holds one slot while streaming; 429 without Retry-After; freed on client abort', async () => {
    const server = await start();
    const account = await server.account('free', 1_000_000);
    const key = account.keys[0] as string;
    const stream = await openStream(server, key, LONG_TEXT);
    const { response, json } = await generate(server, key);
    expect(response.status).toBe(429);
    expect(json.error!.code).toBe('concurrency_limit_exceeded');
    expect(response.headers.get('retry-after')).toBeNull();
    stream.abort();
    await stream.done;
    const after = await eventually(() => generate(server, key), (r) => r.response.status === 200);
    expect(after.response.status).toBe(200);
    // The aborted stream billed only chunks whose audio was produced, less than the whole text.
    const spent = 1_000_000 - (await server.deps.store.getAccount(account.id))!.credits - [...'नमस्ते।'].length;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan([...LONG_TEXT].length);
  });

  it('the slot is freed after success and after an error', async () => {
    const server = await start();
    const key = (await server.account('free', 1_000_000)).keys[0] as string;
    expect((await generate(server, key)).response.status).toBe(200);
    expect((await generate(server, key, 'क'.repeat(3001))).response.status).toBe(422);
    expect((await generate(server, key)).response.status).toBe(200);
  });
});

describe('credits', () => {
  it('stay exact and never negative under 50 parallel requests', async () => {
    const server = await start({ TTS_QUEUE_SIZE: '1000' });
    const account = await server.account('growth', 1000);
    const key = account.keys[0] as string;
    const text = 'नमस्ते, यह एक परीक्षण वाक्य है। यह दूसरा है।'; // 43 code points
    const perRequest = [...text].length;
    const results = await Promise.all(Array.from({ length: 50 }, () => generate(server, key, text)));
    const codes = results.map((r) => r.response.status);
    const ok = results.filter((r) => r.response.status === 200);
    for (const r of results) expect([200, 402, 429]).toContain(r.response.status);
    for (const r of ok) expect(r.json.characters_used).toBe(perRequest);
    const balance = (await server.deps.store.getAccount(account.id))!.credits;
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBe(1000 - ok.length * perRequest);
    expect(ok.length).toBeGreaterThan(0);
    expect(codes.filter((c) => c === 402).length + codes.filter((c) => c === 429).length + ok.length).toBe(50);
  });

  it('credits debited by generate and stream survive a restart', async () => {
    const first = await start();
    const account = await first.account('developer', 5000);
    const key = account.keys[0] as string;
    expect((await generate(first, key, 'नमस्ते।')).response.status).toBe(200);
    const stream = await fetch(`${first.url}/v1/tts/stream`, { method: 'POST', headers: authHeaders(key), body: body(first, 'Hello there.') });
    expect(stream.status).toBe(200);
    await stream.arrayBuffer();
    const expected = 5000 - [...'नमस्ते।'].length - [...'Hello there.'].length;
    await eventually(async () => (await first.deps.store.getAccount(account.id))!.credits, (c) => c === expected);
    const dataDir = first.dataDir;
    await first.close({ keepData: true });
    servers = servers.filter((s) => s !== first);
    const second = await start({}, dataDir);
    expect((await second.deps.store.getAccount(account.id))!.credits).toBe(expected);
    expect((await generate(second, key, 'नमस्ते।')).response.status).toBe(200);
  });
});

describe('engine capacity', () => {
  it('503 tts_workers_busy when the queue is full; nothing charged', async () => {
    const server = await start({ TTS_WORKERS: '1', TTS_QUEUE_SIZE: '1' });
    const account = await server.account('growth', 1_000_000);
    const key = account.keys[0] as string;
    const text = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा और इसमें बहुत सारे शब्द हैं ताकि संश्लेषण में समय लगे।';
    const results = await Promise.all(Array.from({ length: 6 }, () => generate(server, key, text)));
    const busy = results.filter((r) => r.response.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const r of busy) {
      expect(r.json.error!.code).toBe('tts_workers_busy');
      expect(r.response.headers.get('retry-after')).toBe('1');
    }
    const ok = results.filter((r) => r.response.status === 200).length;
    expect(ok + busy.length).toBe(6);
    expect((await server.deps.store.getAccount(account.id))!.credits).toBe(1_000_000 - ok * [...text].length);
  });

  it('503 tts_workers_unconfigured when no engine can serve; readyz says not ready', async () => {
    const server = await start();
    const account = await server.account('growth', 1000);
    await server.deps.engine.close();
    const { response, json } = await generate(server, account.keys[0] as string);
    expect(response.status).toBe(503);
    expect(json.error!.code).toBe('tts_workers_unconfigured');
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    expect((await server.deps.store.getAccount(account.id))!.credits).toBe(1000);
  });
});
