// `raaga usage` and `raaga store export|import` as an operator runs them: real processes through bin/raaga.mjs on a
// real SQLite store in a temp dir, and on the test Redis: the ledger as table, CSV and JSON, and a store moved from
// SQLite to Redis and back with balances, keys (revoked ones too), voices and telephony settings exact.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../../src/store/redis-store.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import { PLAN_LIMITS, type UsageDetails } from '../../../src/store/store.js';
import { deleteKeys, uniquePrefix, useTestRedis } from '../../helpers/redis-server.js';

const redis = await useTestRedis('raaga store export/import');
const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function raaga(env: Record<string, string>, args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(root, 'bin/raaga.mjs'), ...args],
      { cwd: root, env: { ...process.env, REDIS_URL: '', RAAGA_DATA_DIR: join(dir, 'data'), ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}
const sqlite = (dataDir: string) => ({ RAAGA_DATA_DIR: dataDir });
const hash = (n: number) => n.toString(16).padStart(64, '0');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-store-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('raaga usage', () => {
  const dataDir = () => join(dir, 'usage');
  // 24 Nov 2026 20:00 UTC is 25 Nov 01:30 in India: the day a record belongs to depends on --timezone.
  const T = Date.parse('2026-11-24T20:00:00Z');

  beforeAll(async () => {
    let now = T;
    const store = await SqliteStore.open({ dataDir: dataDir(), now: () => now });
    await store.createAccount({ id: 'acct_u', plan: 'growth', credits: 1_000 });
    const settle = async (id: string, used: number, usage: UsageDetails) => {
      await store.admit({ accountId: 'acct_u', limits: PLAN_LIMITS.growth, countRate: false, reservation: { id, credits: 100, ttlMs: 60_000 } });
      await store.settle('acct_u', id, used, usage);
    };
    const base = { keyId: 'sha256:aaaaaaaaaaaa', endpoint: 'generate', voice: 'aarav', language: 'hi-IN', engine: 'embedded', audioSeconds: 2.5, outcome: 'completed' } as const;
    now = T - 3_600_000; // 19:00Z = 00:30 IST on the 25th
    await settle('r1', 40, base);
    now = T - 6 * 3_600_000; // 14:00Z = 19:30 IST on the 24th
    await settle('r2', 7, { ...base, keyId: null, endpoint: 'call', callId: 'CA,"quoted"', voice: 'meera', outcome: 'cancelled', audioSeconds: 0.48 });
    await store.close();
  });

  it('totals by day in the given zone as a table, CSV and JSON', async () => {
    const period = ['--account', 'acct_u', '--from', '2026-11-24', '--to', '2026-11-25'];
    const table = await raaga(sqlite(dataDir()), ['usage', ...period, '--timezone', 'Asia/Kolkata']);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout.split('\n').slice(0, 4)).toEqual([
      'acct_u, 2026-11-23T18:30:00.000Z to 2026-11-25T18:30:00.000Z (Asia/Kolkata):',
      'day         characters  requests  audio_seconds  completed  cancelled  truncated  failed',
      '2026-11-24  7           1         0.48           0          1          0          0',
      '2026-11-25  40          1         2.5            1          0          0          0',
    ]);
    const csv = await raaga(sqlite(dataDir()), ['usage', ...period, '--group-by', 'key', '--csv']);
    expect(csv.stdout).toBe(
      [
        'key,characters,requests,audio_seconds,completed,cancelled,truncated,failed',
        'sha256:aaaaaaaaaaaa,40,1,2.5,1,0,0,0',
        '(no key: calls),7,1,0.48,0,1,0,0',
        'total,47,2,2.98,1,1,0,0',
      ].join('\r\n') + '\n',
    );
    const json = JSON.parse((await raaga(sqlite(dataDir()), ['usage', ...period, '--json'])).stdout) as { total: { characters: number }; groups: { group: string }[] };
    expect(json.total.characters).toBe(47);
    expect(json.groups.map((g) => g.group)).toEqual(['2026-11-24']); // both in UTC's 24th
  });

  it('prints the records with --records, oldest first, quoting CSV fields that need it', async () => {
    const run = await raaga(sqlite(dataDir()), ['usage', '--account', 'acct_u', '--from', '2026-11-01', '--to', '2026-11-30', '--records', '--csv']);
    expect(run.stdout).toBe(
      [
        'time,key_id,endpoint,call_id,voice,language,engine,characters,audio_seconds,outcome',
        '2026-11-24T14:00:00.000Z,,call,"CA,""quoted""",meera,hi-IN,embedded,7,0.48,cancelled',
        '2026-11-24T19:00:00.000Z,sha256:aaaaaaaaaaaa,generate,,aarav,hi-IN,embedded,40,2.5,completed',
      ].join('\r\n') + '\n',
    );
    expect(run.stderr).toBe('');
  });

  it('pages --records with --limit, naming the cursor of the next page when more follow', async () => {
    const period = ['--account', 'acct_u', '--from', '2026-11-01', '--to', '2026-11-30', '--records'];
    const first = await raaga(sqlite(dataDir()), ['usage', ...period, '--limit', '1', '--csv']);
    expect(first.code).toBe(0);
    expect(first.stdout.split('\r\n')[1]).toMatch(/^2026-11-24T14:00:00.000Z,/);
    const after = /^More records follow \(pages of 1\): repeat with --after (\S+)\n$/.exec(first.stderr)?.[1];
    expect(after).toBeDefined();
    const second = await raaga(sqlite(dataDir()), ['usage', ...period, '--limit', '1', '--after', after!, '--json']);
    const page = JSON.parse(second.stdout) as { records: { atMs: number; characters: number }[]; next: string | null };
    expect(page.records.map((r) => [new Date(r.atMs).toISOString(), r.characters])).toEqual([['2026-11-24T19:00:00.000Z', 40]]);
    expect(page.next).toBeNull();
    expect(second.stderr).toBe('');
  });

  it('refuses bad options with a message and exit 2 (a missing account: 1), never a stack trace', async () => {
    const cases: [string[], RegExp][] = [
      [['--account', 'acct_u', '--group-by', 'month'], /--group-by must be day, voice, language or key, got 'month'/],
      [['--account', 'acct_u', '--from', 'last week'], /--from: 'last week' is neither a date/],
      [['--account', 'acct_u', '--timezone', 'Mars/Base'], /--timezone: 'Mars\/Base' is not an IANA time zone/],
      [['--account', 'acct_nobody'], /account acct_nobody does not exist/],
      [['--account', 'acct_u', '--records', '--group-by', 'day'], /--records or --group-by, not both/],
      [['--account', 'acct_u', '--limit', '5'], /--limit and --after page --records/],
      [['--account', 'acct_u', '--records', '--limit', '0'], /--limit must be an integer ≥ 1/],
      [['--account', 'acct_u', '--records', '--limit', '10001'], /--limit must be at most 10000/],
      [['--account', 'acct_u', '--records', '--after', 'x'], /--after: 'x' is not a cursor/],
    ];
    for (const [args, message] of cases) {
      const run = await raaga(sqlite(dataDir()), ['usage', ...args]);
      // Bad usage exits 2; an account that does not exist is a failure of the command (1).
      expect(run.code).toBe(String(message).includes('does not exist') ? 1 : 2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe.skipIf(!redis.url)('raaga store export | import between SQLite and Redis', () => {
  const url = redis.url ?? '';
  const keyPrefix = uniquePrefix('transfer');
  const onRedis = { REDIS_URL: url, REDIS_KEY_PREFIX: keyPrefix };
  afterAll(async () => {
    await deleteKeys(url, keyPrefix);
  });

  it('moves accounts, exact balances, keys (revoked stay revoked), voices and telephony settings both ways', async () => {
    const source = join(dir, 'source');
    const store = await SqliteStore.open({ dataDir: source });
    await store.createAccount({ id: 'acct_big', plan: 'growth', credits: 9_007_199_254, createdAtMs: 1_600_000_000_000 });
    await store.createAccount({ id: 'acct_small', plan: 'free', credits: 0, createdAtMs: 1_600_000_000_001 });
    await store.addKeyHash('acct_big', hash(1));
    await store.addKeyHash('acct_big', hash(2));
    await store.revokeKeyHash(hash(2));
    await store.addKeyHash('acct_small', hash(3));
    await store.putCustomVoice({ id: 'vc_warm', accountId: 'acct_big', name: 'Warm, "soft"', baseVoice: 'arjun', pitchShiftSemitones: -2.5, rateMultiplier: 0.95, createdAtMs: 5 });
    await store.putTelephonySettings({ accountId: 'acct_small', credentials: { exotelCredentials: 'user:secret-secret' }, defaults: { voice: 'meera' }, updatedAtMs: 9 });
    await store.close();

    const file = join(dir, 'export.json');
    const exported = await raaga(sqlite(source), ['store', 'export', '--output', file]);
    expect(exported).toMatchObject({ code: 0, stderr: `Exported 2 accounts, 3 keys and 1 voice to ${file}.\n` });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await raaga(sqlite(source), ['store', 'export', '--output', file])).stderr).toMatch(/exists; choose another file/);

    const imported = await raaga(onRedis, ['store', 'import', file]);
    expect(imported).toMatchObject({ code: 0, stdout: 'Imported 2 accounts, 3 keys and 1 voice.\n' });
    const live = await RedisStore.connect({ url, keyPrefix });
    try {
      expect(await live.getAccount('acct_big')).toEqual({ id: 'acct_big', plan: 'growth', credits: 9_007_199_254, createdAtMs: 1_600_000_000_000 });
      expect((await live.findAccountByKeyHash(hash(1)))?.id).toBe('acct_big');
      expect(await live.findAccountByKeyHash(hash(2))).toBeNull();
      expect(await live.getKeyHashRecord(hash(2))).toEqual({ accountId: 'acct_big', revoked: true });
      expect((await live.getCustomVoice('vc_warm'))?.name).toBe('Warm, "soft"');
      expect(await live.getTelephonySettings('acct_small')).toEqual({ accountId: 'acct_small', credentials: { exotelCredentials: 'user:secret-secret' }, defaults: { voice: 'meera' }, updatedAtMs: 9 });
    } finally {
      await live.close();
    }

    // Importing again would duplicate: refused whole, nothing written; --skip-existing imports only what is new.
    const again = await raaga(onRedis, ['store', 'import', file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has accounts acct_big, acct_small; nothing was imported/);

    // And back: Redis → a fresh SQLite store, through stdin; the document comes back identical.
    const fromRedis = await raaga(onRedis, ['store', 'export']);
    expect(fromRedis.code).toBe(0);
    const back = join(dir, 'back');
    expect((await raaga(sqlite(back), ['store', 'import', '-'], fromRedis.stdout)).code).toBe(0);
    const roundTrip = await raaga(sqlite(back), ['store', 'export']);
    expect(JSON.parse(roundTrip.stdout)).toEqual(JSON.parse(await readFile(file, 'utf8')));
    const skipped = await raaga(sqlite(back), ['store', 'import', '-', '--skip-existing', '--json'], fromRedis.stdout);
    expect(JSON.parse(skipped.stdout)).toEqual({ accounts: 0, keys: 0, voices: 0, lexicons: 0, skipped: ['acct_big', 'acct_small'] });
  });

  it('imports an export from before the credentials map in the new shape, and refuses credentials their provider would', async () => {
    const account = { id: 'acct_old', plan: 'free', credits: 5, createdAtMs: 1_600_000_000_000 };
    const old = (settings: object) => JSON.stringify({ version: 1, accounts: [account], keys: [], voices: [], telephony: [{ accountId: 'acct_old', ...settings, updatedAtMs: 4 }] });
    const target = join(dir, 'old-export');
    const imported = await raaga(sqlite(target), ['store', 'import', '-'], old({ twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed', plivoApiBaseUrl: 'https://api.vobiz.example/plivo', callingHours: '09:00-21:00' }));
    expect(imported).toMatchObject({ code: 0, stdout: 'Imported 1 account, 0 keys and 0 voices.\n' });
    const store = await SqliteStore.open({ dataDir: target });
    try {
      expect(await store.getTelephonySettings('acct_old')).toEqual({
        accountId: 'acct_old',
        credentials: { twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed', plivoApiBaseUrl: 'https://api.vobiz.example/plivo' },
        callingHours: '09:00-21:00',
        updatedAtMs: 4,
      });
    } finally {
      await store.close();
    }
    const refused = await raaga(sqlite(join(dir, 'old-export-bad')), ['store', 'import', '-'], old({ twilioAccountSid: 'nope' }));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the telephony settings of acct_old are invalid \(twilioAccountSid must be AC followed by 32 hex digits\); nothing was imported/);
  });

  it('refuses a file that is not an export, naming the problem', async () => {
    const run = await raaga(sqlite(join(dir, 'bad')), ['store', 'import', '-'], '{"version":1,"accounts":[{"id":"a b"}]}');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not a Raaga store export: accounts\.0\.id/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
