// The usage ledger and the balance never disagree, even across a crash: a real server process (SQLite store) gets a
// seeded random mix of completed, cancelled (streams dropped, WebSocket cancels) and failed (engine queue full)
// requests, is killed with SIGKILL while requests are in flight, and afterwards the ledger's characters sum exactly
// to the credits spent, every answered request is in it, and a restarted server reports the same totals.

import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { generateApiKey, hashApiKey } from '../../src/store/api-key.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { authHeaders } from '../helpers/test-server.js';
import { ALL_TIME } from '../helpers/store-contract.js';
import { seeded } from '../helpers/seeded-random.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CREDITS = 10_000_000;
const SHORT = 'आपका ऑर्डर कल पहुँचेगा।';
const LONG = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(12);
const cp = (text: string) => [...text].length;

/** How a request ended as the client saw it; `refused` (429: a slot still held by an earlier request) was never admitted. */
type Outcome = 'completed' | 'cancelled' | 'failed' | 'refused' | 'lost';

/** Non-200 answers: the engine's full queue fails after admission (recorded); a 429 never reaches it. */
function refusal(status: number): Outcome {
  return status === 503 ? 'failed' : status === 429 ? 'refused' : 'lost';
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env, { startTimeoutMs: 30_000 });
  cleanups.push(server.kill);
  return server;
}

function body(text: string): string {
  return JSON.stringify({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text, output_format: 'pcm', sample_rate: 8000 });
}

async function generate(url: string, key: string, text: string): Promise<Outcome> {
  try {
    const response = await fetch(`${url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body: body(text) });
    await response.arrayBuffer();
    return response.status === 200 ? 'completed' : refusal(response.status);
  } catch {
    return 'lost';
  }
}

/** A stream read to its end, or dropped by the client after its first bytes. */
function stream(url: string, key: string, text: string, drop: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const target = new URL(`${url}/v1/tts/stream`);
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: authHeaders(key) }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(refusal(res.statusCode ?? 0));
        return;
      }
      res.once('data', () => {
        if (!drop) return;
        req.destroy();
        resolve('cancelled');
      });
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.complete ? 'completed' : 'lost'));
      res.on('error', () => resolve('lost'));
    });
    req.on('error', () => resolve('lost'));
    req.end(body(text));
  });
}

/** A WebSocket text cancelled after its first audio frame. */
function websocketCancel(url: string, key: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/tts/websocket`, { headers: { authorization: `Bearer ${key}` } });
    let cancelled = false;
    socket.on('message', (data, isBinary) => {
      if (isBinary && !cancelled) {
        cancelled = true;
        socket.send(JSON.stringify({ type: 'cancel' }));
        return;
      }
      if (isBinary) return;
      const message = JSON.parse(String(data)) as { type: string; error?: { code: string } };
      if (message.type === 'configured') socket.send(JSON.stringify({ type: 'text', text: LONG }));
      if (message.type === 'cancellation') {
        socket.close();
        resolve('cancelled');
      }
      if (message.type === 'error') {
        socket.close();
        resolve(message.error?.code === 'concurrency_limit_exceeded' ? 'refused' : 'failed');
      }
    });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'config', model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', output_format: 'pcm', sample_rate: 8000 })));
    socket.on('error', () => resolve('lost'));
    socket.on('close', () => resolve('lost'));
  });
}

it('after SIGKILL mid-way through a random mix, the ledger sums exactly to the credits spent', { timeout: 180_000 }, async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'raaga-ledger-crash-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const key = generateApiKey();
  const provisioning = await SqliteStore.open({ dataDir });
  await provisioning.createAccount({ id: 'acct_crash', plan: 'growth', credits: CREDITS });
  await provisioning.addKeyHash('acct_crash', hashApiKey(key));
  await provisioning.close();

  // One worker and a queue of one: a burst of requests finds the engine full, and those are refused after admission.
  const env = { RAAGA_DATA_DIR: dataDir, REDIS_URL: '', TTS_WORKERS: '1', TTS_QUEUE_SIZE: '1', PROMPT_CACHE_MAX_BYTES: '0' };
  const server = await start(env);
  const random = seeded(20261124);
  const answered: Outcome[] = [];
  const operation = (): Promise<Outcome> => {
    const pick = random();
    if (pick < 0.3) return generate(server.url, key, SHORT);
    if (pick < 0.5) return stream(server.url, key, SHORT, false);
    if (pick < 0.75) return stream(server.url, key, LONG, true);
    return websocketCancel(server.url, key);
  };
  // Waves of 1-6 at once until enough is answered, with every kind of ending among the answers.
  const seen = () => new Set(answered);
  while (answered.length < 24 || !(['completed', 'cancelled', 'failed'] as const).every((o) => seen().has(o))) {
    const wave = await Promise.all(Array.from({ length: 1 + Math.floor(random() * 6) }, operation));
    answered.push(...wave);
    expect(wave).not.toContain('lost');
    expect(answered.length).toBeLessThan(400);
  }
  // Wait until the server has settled everything answered so far (a dropped stream settles when the server sees the
  // close): then every answer is known to be in the ledger, whatever the crash does to what follows.
  const settledSoFar = answered.filter((o) => o !== 'refused').length;
  await vi.waitFor(
    async () => {
      const response = await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await response.json()) as { total: { requests: number } }).total.requests).toBe(settledSoFar);
    },
    { timeout: 30_000, interval: 20 },
  );
  // The crash: requests are running (admitted, reserving, some with audio out) when the process dies.
  const inFlight = [...Array.from({ length: 6 }, operation), stream(server.url, key, LONG, true)];
  await inFlight.at(-1);
  server.child.kill('SIGKILL');
  await Promise.all(inFlight);
  expect(await server.exited).toBeNull();

  const store = await SqliteStore.open({ dataDir });
  const spent = CREDITS - (await store.getAccount('acct_crash'))!.credits;
  const records = await store.listUsage('acct_crash', ALL_TIME);
  await store.close();
  expect(records.reduce((sum, r) => sum + r.characters, 0)).toBe(spent);
  expect(spent).toBeGreaterThan(0);
  // Everything answered before the crash is there, with its outcome; the requests cut by the crash add at most one
  // record each (settled before the kill) or none (their reservations died with the process, uncharged).
  const count = (outcomes: readonly string[], outcome: string) => outcomes.filter((o) => o === outcome).length;
  const recorded = records.map((r) => r.outcome);
  for (const outcome of ['completed', 'cancelled', 'failed']) expect(count(recorded, outcome)).toBeGreaterThanOrEqual(count(answered, outcome));
  expect(records.length).toBeGreaterThanOrEqual(settledSoFar);
  expect(records.length).toBeLessThanOrEqual(settledSoFar + inFlight.length);
  expect(records.filter((r) => r.outcome === 'failed').every((r) => r.characters === 0)).toBe(true);
  expect(records.filter((r) => r.outcome === 'completed').every((r) => r.characters === cp(SHORT))).toBe(true);
  expect(records.filter((r) => r.outcome === 'cancelled').every((r) => r.characters > 0 && r.characters < cp(LONG))).toBe(true);

  // A restarted server reports the same totals to the account's own key.
  const again = await start(env);
  const usage = (await (await fetch(`${again.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as { total: { characters: number; requests: number } };
  expect(usage.total).toMatchObject({ characters: spent, requests: records.length });
});
