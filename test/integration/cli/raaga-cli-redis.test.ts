// The `raaga` CLI and the accounts file on the shared Redis store: what the CLI writes, a running server sees at
// once (no restart), and provisioning stays idempotent.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyAccountsFile } from '../../../src/core/accounts/accounts-file.js';
import { generateApiKey, hashApiKey } from '../../../src/store/api-key.js';
import { RedisStore } from '../../../src/store/redis-store.js';
import { deleteKeys, uniquePrefix, useTestRedis } from '../../helpers/redis-server.js';

const redis = await useTestRedis('raaga CLI on Redis');
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe.skipIf(!redis.url)('raaga CLI with REDIS_URL', () => {
  const url = redis.url ?? '';
  const keyPrefix = uniquePrefix('cli');
  let dir = '';
  let live: RedisStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'raaga-cli-redis-'));
    live = await RedisStore.connect({ url, keyPrefix });
  });
  afterAll(async () => {
    await live?.close();
    await deleteKeys(url, keyPrefix);
    await rm(dir, { recursive: true, force: true });
  });

  function raaga(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [join(root, 'bin/raaga.mjs'), ...args],
        // RAAGA_DATA_DIR points at an empty dir: proof that nothing is read from or written to the embedded store.
        { cwd: root, env: { ...process.env, REDIS_URL: url, REDIS_KEY_PREFIX: keyPrefix, RAAGA_DATA_DIR: join(dir, 'unused') } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('writes accounts, keys and credits that a live store sees at once', async () => {
    const created = await raaga('accounts', 'create', '--plan', 'developer', '--credits', '10', '--id', 'acct_cli', '--json');
    expect(created.code).toBe(0);
    const { apiKey } = JSON.parse(created.stdout) as { apiKey: string };
    expect((await live.findAccountByKeyHash(hashApiKey(apiKey)))?.id).toBe('acct_cli');

    expect((await raaga('credits', 'add', '--account', 'acct_cli', '--amount', '5')).stdout).toContain('balance is 15');
    expect((await live.getAccount('acct_cli'))?.credits).toBe(15);
    const listed = await raaga('accounts', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: 'acct_cli', credits: 15, liveKeys: 1 })]);

    expect((await raaga('keys', 'revoke', apiKey)).code).toBe(0);
    expect(await live.findAccountByKeyHash(hashApiKey(apiKey))).toBeNull();
  });

  it('fails cleanly, without the password, when Redis is unreachable', async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(root, 'bin/raaga.mjs'), 'accounts', 'list'],
        { cwd: root, env: { ...process.env, REDIS_URL: 'redis://:pw@127.0.0.1:1', REDIS_CONNECT_TIMEOUT_MS: '300' } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      );
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
    expect(run.stderr).not.toContain('pw@');
  });

  it('applies an accounts file idempotently', async () => {
    const key = generateApiKey();
    const path = join(dir, 'accounts.json');
    await writeFile(path, JSON.stringify({ accounts: [{ id: 'acct_file', plan: 'growth', credits: 500, keys: [key] }] }));
    expect(await applyAccountsFile(live, path)).toEqual({ created: 1, updated: 0, keysAdded: 1, keysSkippedRevoked: 0 });
    await live.addCredits('acct_file', 1);
    expect(await applyAccountsFile(live, path)).toEqual({ created: 0, updated: 0, keysAdded: 0, keysSkippedRevoked: 0 });
    expect((await live.getAccount('acct_file'))?.credits).toBe(501);
    expect((await live.findAccountByKeyHash(hashApiKey(key)))?.id).toBe('acct_file');
  });
});
