// The `raaga` CLI as an operator runs it: real processes through bin/raaga.mjs, a real store in a temp dir.

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../src/store/api-key.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;
let dataDir: string;
let modelsDir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function raaga(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'bin/raaga.mjs'), ...args],
      { cwd: root, env: { ...process.env, REDIS_URL: '', RAAGA_DATA_DIR: dataDir, RAAGA_MODELS_DIR: modelsDir } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The command failed (exit 1): one line saying why, no stack trace. */
function expectCleanFailure(run: Run, message: RegExp): void {
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
}

/** It was called wrongly (exit 2): one line naming what is wrong and the help to read. */
function expectUsageError(run: Run, message: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).toMatch(/\(see 'raaga [a-z -]*--help'\)\n$/);
  expect(run.stderr.split('\n')).toHaveLength(2); // one line
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-cli-'));
  dataDir = join(dir, 'data');
  modelsDir = join(dir, 'models');
  await mkdir(join(modelsDir, 'raaga-v1'), { recursive: true });
  await writeFile(
    join(modelsDir, 'raaga-v1', 'manifest.json'),
    JSON.stringify({ voices: [{ voice_name: 'arjun', gender: 'male' }, { voice_name: 'meera', gender: 'female' }] }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('raaga CLI', () => {
  it('creates an account, shows it, tops it up and revokes its key', async () => {
    const created = await raaga('accounts', 'create', '--plan', 'free', '--credits', '10');
    expect(created.code).toBe(0);
    const id = /account (acct_[a-z2-7]{12})/.exec(created.stdout)?.[1] ?? '';
    const key = /^(rk_live_[A-Za-z0-9]{40})$/m.exec(created.stdout)?.[1] ?? '';
    expect(id).not.toBe('');
    expect(key).not.toBe('');

    const shown = await raaga('accounts', 'show', id, '--json');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id, plan: 'free', credits: 10, keyFingerprints: [`sha256:${hashApiKey(key).slice(0, 12)}`] });
    expect(shown.stdout).not.toContain(key);

    const human = await raaga('accounts', 'show', id);
    expect(human.stdout).toMatch(/Credits\s+10/);

    const added = await raaga('credits', 'add', '--account', id, '--amount', '5');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('balance is 15');

    const listed = await raaga('accounts', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id, credits: 15, liveKeys: 1 })]);

    const revoked = await raaga('keys', 'revoke', key);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).not.toContain(key);

    const store = await SqliteStore.open({ dataDir });
    expect(await store.findAccountByKeyHash(hashApiKey(key))).toBeNull();
    expect((await store.getAccount(id))?.credits).toBe(15);
    await store.close();
  });

  it('creates keys and custom voices, enforcing plan and catalog', async () => {
    const growth = await raaga('accounts', 'create', '--plan', 'growth', '--credits', '50000', '--id', 'acct_g', '--json');
    expect(JSON.parse(growth.stdout)).toMatchObject({ account: { id: 'acct_g', plan: 'growth', credits: 50000 } });
    await raaga('accounts', 'create', '--plan', 'free', '--id', 'acct_f');

    const key = await raaga('keys', 'create', '--account', 'acct_g');
    expect(key.stdout).toMatch(/^rk_live_[A-Za-z0-9]{40}$/m);

    const voice = await raaga('voices', 'create', '--account', 'acct_g', '--base', 'meera', '--name', 'My voice', '--pitch', '-2.5', '--rate', '1.1', '--json');
    expect(voice.code).toBe(0);
    expect(JSON.parse(voice.stdout)).toMatchObject({ id: expect.stringMatching(/^vc_[a-z2-7]{12}$/), name: 'My voice', baseVoice: 'meera', pitchShiftSemitones: -2.5, rateMultiplier: 1.1 });
    const list = await raaga('voices', 'list', '--account', 'acct_g', '--json');
    expect(JSON.parse(list.stdout)).toHaveLength(1);

    expectCleanFailure(await raaga('voices', 'create', '--account', 'acct_f', '--base', 'meera'), /growth plan only/);
    expectUsageError(await raaga('voices', 'create', '--account', 'acct_g', '--base', 'nobody'), /not a preset voice/);
    expectUsageError(await raaga('voices', 'create', '--account', 'acct_g', '--base', 'meera', '--rate', '2'), /--rate must be/);
    expectCleanFailure(await raaga('accounts', 'create', '--plan', 'free', '--id', 'acct_g'), /acct_g already exists/);
  });

  it('prints help and the version, and fails bad usage with exit 2 and one line naming the fix', async () => {
    const top = await raaga('--help');
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('accounts');
    for (const args of [['accounts', '--help'], ['accounts', 'create', '--help'], ['keys', 'revoke', '--help'], ['credits', 'add', '--help'], ['voices', 'create', '--help']]) {
      const help = await raaga(...args);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Usage: raaga/);
    }
    const version = await raaga('--version');
    expect(version.stdout).toMatch(/^raaga \d+\.\d+\.\d+\n$/);
    expectUsageError(await raaga(), /^raaga: missing command: accounts, keys, /);
    expectUsageError(await raaga('acounts'), /^raaga: unknown command 'acounts'; did you mean accounts\?/);
    expectUsageError(await raaga('accounts', 'shw'), /^raaga accounts: unknown subcommand 'accounts shw'; did you mean show\?/);
    expectUsageError(await raaga('accounts', 'create'), /^raaga accounts create: --plan is required/);
    expectUsageError(await raaga('accounts', 'create', '--plan', 'grwoth'), /--plan must be free, developer or growth, got 'grwoth'; did you mean growth\?/);
    expectUsageError(await raaga('accounts', 'create', '--plan', 'free', '--credits', 'lots'), /--credits must be an integer/);
    expectUsageError(await raaga('accounts', 'create', '--plan', 'free', '--bogus'), /unknown option '--bogus': this command takes --plan, --credits, --id, --json/);
    expectUsageError(await raaga('accounts', 'create', '--plna', 'free'), /unknown option '--plna'; did you mean --plan\?/);
    expectUsageError(await raaga('accounts', 'create', '--plan'), /--plan needs a value/);
    expectUsageError(await raaga('accounts', 'create', '--plan', 'free', '--json=yes'), /--json takes no value/);
    expectCleanFailure(await raaga('accounts', 'show', 'acct_missing'), /account acct_missing does not exist/);
    expectCleanFailure(await raaga('credits', 'add', '--account', 'acct_missing', '--amount', '5'), /does not exist/);
    expectUsageError(await raaga('keys', 'revoke', 'not-a-key'), /not a well-formed API key/);
    expectCleanFailure(await raaga('keys', 'revoke', `rk_live_${'Q'.repeat(40)}`), /no such key/);
  });
});
