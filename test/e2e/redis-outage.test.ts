// Redis frozen (SIGSTOP: commands time out), then killed and restarted mid-test, under a running Raaga: clear
// 503 store_unavailable within the command timeout, /readyz 503, nothing charged, and recovery without a restart.
// Uses its own redis-server (AOF, fsync always, as docs/operations.md recommends), never the shared one.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canSpawnRedis, spawnRedisServer, type SpawnedRedis } from '../helpers/redis-server.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';

const spawnable = canSpawnRedis('Redis outage and recovery');
const COMMAND_TIMEOUT_MS = 300;
/** A 503 must arrive within the command timeout plus this (scheduling, the HTTP round trip). */
const TEXT = 'नमस्ते।';

describe.skipIf(!spawnable.ok)('Redis outage under a running server', () => {
  let redis: SpawnedRedis | undefined;
  let server: TestServer | undefined;
  let dir = '';
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const body = JSON.stringify({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text: TEXT, output_format: 'pcm' });
  async function timed(path: string, key?: string) {
    const response = await fetch(`${server!.url}${path}`, key ? { method: 'POST', headers: authHeaders(key), body } : {});
    const json = (await response.json()) as { error?: { code: string; message: string }; checks?: { store: string } };
    return { status: response.status, json, retryAfter: response.headers.get('retry-after') };
  }
  async function expectStoreUnavailable(key: string) {
    const refused = await timed('/v1/tts/generate', key);
    expect(refused.status).toBe(503);
    expect(refused.json.error?.code).toBe('store_unavailable');
    expect(refused.json.error?.message).toMatch(/store is unavailable; nothing was charged/);
    expect(refused.retryAfter).toBe('1');
    // Authentication alone needs the store: even the uncounted catalog answers 503, not 401.
    const catalog = await fetch(`${server!.url}/v1/voices`, { headers: authHeaders(key) });
    expect(catalog.status).toBe(503);
    expect(((await catalog.json()) as { error: { code: string } }).error.code).toBe('store_unavailable');
    const ready = await timed('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json.checks?.store).toBe('unreachable');
  }
  async function eventuallyOk(key: string, withinMs: number) {
    const started = Date.now();
    let last = await timed('/v1/tts/generate', key);
    while (last.status !== 200 && Date.now() - started < withinMs) {
      await new Promise((r) => setTimeout(r, 100));
      last = await timed('/v1/tts/generate', key);
    }
    expect(last.status).toBe(200);
    expect((await timed('/readyz')).status).toBe(200);
  }

  it('answers 503 store_unavailable while Redis is frozen or down, charges nothing, and recovers by itself', async () => {
    dir = await mkdtemp(join(tmpdir(), 'raaga-outage-'));
    redis = await spawnRedisServer({ extraArgs: ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir] });
    server = await startTestServer({
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
      REDIS_CONNECT_TIMEOUT_MS: '500',
      TTS_WORKERS: '1',
    });
    const opening = 10_000;
    const key = (await server.account('developer', opening)).keys[0] as string;
    let succeeded = 0;
    expect((await timed('/v1/tts/generate', key)).status).toBe(200);
    succeeded++;

    // Frozen: the connection stays up but nothing answers, so every command runs into the timeout.
    redis.signal('SIGSTOP');
    await expectStoreUnavailable(key);
    redis.signal('SIGCONT');
    await eventuallyOk(key, 5000);
    succeeded++;

    // Down: connection refused; commands fail at once instead of queueing.
    await redis.kill('SIGKILL');
    await expectStoreUnavailable(key);
    await expectStoreUnavailable(key);

    // Back (same port, same AOF): the server reconnects on its own; balances survived the crash.
    redis = await redis.restart();
    await eventuallyOk(key, 5000);
    succeeded++;
    const account = (await server.deps.store.listAccounts())[0];
    expect(account?.credits).toBe(opening - succeeded * [...TEXT].length);
  });
});
