// The server as a user runs it (`node --import tsx src/main.ts`): the first-run development account,
// the accounts file, and graceful shutdown on SIGTERM that lets an in-flight stream finish and keeps its debit.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { generateApiKey } from '../../src/store/api-key.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { authHeaders } from '../helpers/test-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env, { startTimeoutMs: 20_000 });
  cleanups.push(server.kill);
  return server;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'raaga-proc-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

it('first run without accounts creates a development account and prints a working key', async () => {
  const dataDir = await tempDir();
  const server = await startServer({ RAAGA_DATA_DIR: dataDir });
  const key = /API key: (rk_live_[A-Za-z0-9]+)/.exec(server.output())?.[1];
  expect(key).toBeDefined();
  const voices = await fetch(`${server.url}/v1/voices`, { headers: { authorization: `Bearer ${key}` } });
  expect(voices.status).toBe(200);
  expect(server.output()).not.toMatch(/"level":50/); // no error logs
  // The development account takes no unsigned provider requests: a stranger's voice webhook is refused.
  const unsigned = await fetch(`${server.url}/v1/telephony/twilio/voice/acct_dev`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `CallSid=CA${'d'.repeat(32)}`,
  });
  expect(unsigned.status).toBe(403);
  expect(server.output()).not.toMatch(/without provider credentials/);
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  // An account that opts in to unsigned requests is named in a warning at every start.
  const store = await SqliteStore.open({ dataDir });
  await store.putTelephonySettings({ accountId: 'acct_dev', allowUnsigned: true, updatedAtMs: 1 });
  await store.close();
  // A second start with the same data dir does not make another account or print a key.
  const again = await startServer({ RAAGA_DATA_DIR: dataDir });
  expect(again.output()).not.toMatch(/API key:/);
  const warning = again
    .output()
    .split('\n')
    .find((line) => line.includes('without provider credentials'));
  expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 40, accounts: ['acct_dev'] });
  again.child.kill('SIGTERM');
  expect(await again.exited).toBe(0);
});

it('SIGTERM lets an in-flight stream finish, then exits 0 with the debit on disk', async () => {
  const dataDir = await tempDir();
  const key = generateApiKey();
  const accountsFile = join(dataDir, 'accounts.json');
  await writeFile(accountsFile, JSON.stringify({ accounts: [{ id: 'acct_shutdown', plan: 'developer', credits: 100000, keys: [key] }] }));
  const server = await startServer({ RAAGA_DATA_DIR: dataDir, RAAGA_ACCOUNTS_FILE: accountsFile, SHUTDOWN_GRACE_MS: '20000' });
  const text = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(15);
  const url = new URL(`${server.url}/v1/tts/stream`);
  const result = await new Promise<{ bytes: number; trailer: string | undefined; complete: boolean }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: authHeaders(key) }, (res) => {
      let bytes = 0;
      res.once('data', () => server.child.kill('SIGTERM')); // shutdown starts while audio is flowing
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, trailer: res.trailers['x-audio-duration-seconds'], complete: res.complete }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ model_id: 'raaga-v1', voice: 'priya', language: 'hi-IN', text, output_format: 'pcm', sample_rate: 8000 }));
  });
  expect(result.complete).toBe(true);
  expect(Number(result.trailer)).toBeCloseTo(result.bytes / 2 / 8000, 3);
  expect(await server.exited).toBe(0);
  const store = await SqliteStore.open({ dataDir });
  expect((await store.getAccount('acct_shutdown'))!.credits).toBe(100000 - [...text].length);
  await store.close();
});
