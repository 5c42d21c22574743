// The CLI on the embedded store while the server runs (two processes, one SQLite file): an account, a top-up, a
// custom voice and a revoked key made by `raaga` take effect on the running server at its next request, no restart.

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { authHeaders } from '../helpers/test-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let dataDir: string;
let server: ServerProcess;

function raaga(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/raaga.mjs'), ...args], { cwd: root, env: { ...process.env, REDIS_URL: '', RAAGA_DATA_DIR: dataDir } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function generate(key: string, voice = 'aarav', text = 'आपका ऑर्डर कल पहुँचेगा।') {
  const response = await fetch(`${server.url}/v1/tts/generate`, {
    method: 'POST',
    headers: authHeaders(key),
    body: JSON.stringify({ model_id: 'raaga-v1', voice, language: 'hi-IN', text, output_format: 'pcm' }),
  });
  const json = (await response.json()) as { characters_used?: number; error?: { code: string; message: string } };
  return { status: response.status, json };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'raaga-cli-live-'));
  server = await startServerProcess({ RAAGA_DATA_DIR: dataDir, REDIS_URL: '' }, { startTimeoutMs: 30_000 });
});
afterAll(async () => {
  await server?.kill();
  await rm(dataDir, { recursive: true, force: true });
});

it('accounts, credits, voices and key revocations from the CLI reach the running server at once', async () => {
  const created = await raaga('accounts', 'create', '--plan', 'growth', '--credits', '5', '--id', 'acct_live', '--json');
  expect(created.code).toBe(0);
  const { apiKey } = JSON.parse(created.stdout) as { apiKey: string };

  const poor = await generate(apiKey);
  expect(poor.status).toBe(402);
  expect(poor.json.error?.message).toMatch(/5 remaining/);

  expect((await raaga('credits', 'add', '--account', 'acct_live', '--amount', '1000')).code).toBe(0);
  const paid = await generate(apiKey);
  expect(paid.status).toBe(200);

  const voice = await raaga('voices', 'create', '--account', 'acct_live', '--base', 'aarav', '--name', 'Deep', '--pitch', '-3', '--json');
  expect(voice.code).toBe(0);
  const { id: voiceId } = JSON.parse(voice.stdout) as { id: string };
  expect((await generate(apiKey, voiceId)).status).toBe(200);

  // The usage the server recorded is what the CLI reads, while the server runs.
  const usage = await raaga('usage', '--account', 'acct_live', '--group-by', 'voice', '--json');
  const groups = (JSON.parse(usage.stdout) as { groups: { group: string; requests: number }[] }).groups;
  expect(groups.map((g) => [g.group, g.requests])).toEqual([
    ['aarav', 1],
    [voiceId, 1],
  ]);

  const revoked = await raaga('keys', 'revoke', apiKey);
  expect(revoked.code).toBe(0);
  const refused = await generate(apiKey);
  expect(refused.status).toBe(401);
  expect(refused.json.error?.code).toBe('invalid_api_key');
});
