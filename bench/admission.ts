// Admission throughput and latency: auth (API key hash lookup, as the HTTP hook does it) + admit + settle (with its
// usage record) + release cycles through core Admission, at concurrency 1 and 32, with 10 and 100,000 accounts in the
// store, on: the SQLite store (raaga.db, as the server runs it), the JSON-file store it replaced (store.json rewritten
// whole on every settle; frozen in bench/baseline/), and Redis (plus, when redis-server is on PATH, one with
// `appendfsync always`, durable like the embedded stores). All in one run; the JSON-file store is the baseline.
// Redis: RAAGA_TEST_REDIS_URL or REDIS_URL (under a throw-away key prefix, deleted after), else a redis-server spawned
// from PATH. A run stops after BENCH_SECONDS_PER_RUN (default 8) if its cycles take longer (the JSON store at 100,000).
// Writes bench/results/admission.json and prints a one-line summary.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { authenticate } from '../src/api/auth.js';
import { Admission } from '../src/core/admission.js';
import { generateApiKey, hashApiKey } from '../src/store/api-key.js';
import { RedisStore } from '../src/store/redis-store.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import type { StoreSnapshot } from '../src/store/store-snapshot.js';
import type { Account, Store } from '../src/store/store.js';
import { deleteKeys, hasRedisServer, spawnRedisServer, uniquePrefix } from '../test/helpers/redis-process.js';
import { JsonFileStore } from './baseline/json-file-store.js';
import { round, summary, writeResult } from './lib/stats.js';

const CONCURRENCY = [1, 32] as const;
const POPULATIONS = [10, 100_000] as const;
const CYCLES: Record<(typeof CONCURRENCY)[number], number> = { 1: 3000, 32: 12_800 };
const WARMUP_CYCLES = 300;
const SECONDS_PER_RUN = Number(process.env.BENCH_SECONDS_PER_RUN ?? 8);
/** Growth allows 300 counted requests a minute per account: each worker moves to a fresh account before that. */
const CYCLES_PER_ACCOUNT = 250;
const CREDITS_PER_REQUEST = 100;
/** Accounts the cycles use (besides the filler population): enough for every run's workers. */
const WORKING_ACCOUNTS = 32 * Math.ceil(CYCLES[32] / 32 / CYCLES_PER_ACCOUNT) + 64;

interface Run {
  readonly store: string;
  readonly accounts: number;
  readonly concurrency: number;
  readonly cycles: number;
  /** True when SECONDS_PER_RUN ended the run before its cycle count. */
  readonly timeBounded: boolean;
  readonly cyclesPerSecond: number;
  readonly authMs: ReturnType<typeof summary>;
  readonly admitMs: ReturnType<typeof summary>;
  readonly settleMs: ReturnType<typeof summary>;
  readonly cycleMs: ReturnType<typeof summary>;
}

interface Working {
  readonly account: Account;
  readonly authorization: string;
}

/**
 * A store.json with `count` accounts, each with one key; the first WORKING_ACCOUNTS are the ones the cycles use.
 * The JSON store loads it as its file, SQLite imports it (one transaction), Redis gets it through the Store API.
 */
function population(count: number): { snapshot: StoreSnapshot; working: Working[] } {
  const snapshot: StoreSnapshot = { version: 1, accounts: [], keys: [], voices: [] };
  const working: Working[] = [];
  for (let i = 0; i < count + WORKING_ACCOUNTS; i++) {
    const account: Account = { id: `acct_b${i}`, plan: 'growth', credits: 1_000_000_000, createdAtMs: 1_700_000_000_000 + i };
    const key = generateApiKey();
    snapshot.accounts.push(account);
    snapshot.keys.push({ hash: hashApiKey(key), accountId: account.id, revoked: false });
    if (i < WORKING_ACCOUNTS) working.push({ account, authorization: `Bearer ${key}` });
  }
  return { snapshot, working };
}

async function loadThroughApi(store: Store, snapshot: StoreSnapshot): Promise<void> {
  const BATCH = 500;
  for (let i = 0; i < snapshot.accounts.length; i += BATCH) {
    await Promise.all(
      snapshot.accounts.slice(i, i + BATCH).map(async (account, j) => {
        await store.createAccount(account);
        const key = snapshot.keys[i + j];
        if (key) await store.addKeyHash(account.id, key.hash);
      }),
    );
  }
}

async function measure(name: string, accounts: number, store: Store, working: readonly Working[], concurrency: number, cycles: number): Promise<Run> {
  const admission = new Admission(store, { slotLeaseMs: 30_000, reservationTtlMs: 900_000 });
  const perWorker = Math.ceil(cycles / concurrency);
  const accountsPerWorker = Math.ceil(perWorker / CYCLES_PER_ACCOUNT);
  const authMs: number[] = [];
  const admitMs: number[] = [];
  const settleMs: number[] = [];
  const cycleMs: number[] = [];
  const started = performance.now();
  const deadline = started + SECONDS_PER_RUN * 1000;
  let timeBounded = false;
  let nextAccount = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const mine = working.slice(nextAccount, nextAccount + accountsPerWorker);
      nextAccount += accountsPerWorker;
      for (let i = 0; i < perWorker; i++) {
        if (performance.now() > deadline) {
          timeBounded = true;
          return;
        }
        const { authorization } = mine[Math.floor(i / CYCLES_PER_ACCOUNT)]!;
        const t0 = performance.now();
        const { account, keyId } = await authenticate(store, authorization);
        const tAuth = performance.now();
        const ticket = await admission.admit({
          account,
          countRate: true,
          takeSlot: true,
          credits: CREDITS_PER_REQUEST,
          usage: { keyId, endpoint: 'generate', voice: 'ananya', language: 'hi-IN' },
        });
        const tAdmit = performance.now();
        await ticket.finish(CREDITS_PER_REQUEST, { engine: 'embedded', audioSeconds: 2.4, outcome: 'completed' });
        const tEnd = performance.now();
        authMs.push(tAuth - t0);
        admitMs.push(tAdmit - tAuth);
        settleMs.push(tEnd - tAdmit);
        cycleMs.push(tEnd - t0);
      }
    }),
  );
  const wallMs = performance.now() - started;
  const done = cycleMs.length;
  return {
    store: name,
    accounts,
    concurrency,
    cycles: done,
    timeBounded,
    cyclesPerSecond: round(done / (wallMs / 1000), 0),
    authMs: summary(authMs),
    admitMs: summary(admitMs),
    settleMs: summary(settleMs),
    cycleMs: summary(cycleMs),
  };
}

interface StoreKind {
  readonly name: string;
  /** A fresh store holding the population. */
  open(snapshot: StoreSnapshot, dir: string): Promise<Store>;
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'raaga-bench-admission-'));
  const cleanups: (() => Promise<unknown>)[] = [() => rm(root, { recursive: true, force: true })];
  const kinds: StoreKind[] = [
    {
      name: 'json-file',
      open: async (snapshot, dir) => {
        await writeFile(join(dir, 'store.json'), JSON.stringify(snapshot));
        return JsonFileStore.open({ dataDir: dir });
      },
    },
    {
      name: 'sqlite',
      open: async (snapshot, dir) => {
        await writeFile(join(dir, 'store.json'), JSON.stringify(snapshot));
        return SqliteStore.open({ dataDir: dir });
      },
    },
  ];
  let redisNote = '';
  let redisUrl = process.env.RAAGA_TEST_REDIS_URL || process.env.REDIS_URL;
  if (!redisUrl && hasRedisServer()) {
    const server = await spawnRedisServer();
    cleanups.push(() => server.stop());
    redisUrl = server.url;
    redisNote = 'redis-server spawned on loopback for this run';
  } else if (redisUrl) {
    redisNote = `Redis at ${redisUrl.replace(/\/\/[^@]*@/, '//***@')}`;
  }
  if (redisUrl) {
    const url = redisUrl;
    kinds.push({
      name: 'redis',
      open: async (snapshot) => {
        const keyPrefix = uniquePrefix('bench');
        cleanups.push(() => deleteKeys(url, keyPrefix));
        const store = await RedisStore.connect({ url, keyPrefix });
        await loadThroughApi(store, snapshot);
        return store;
      },
    });
    if (hasRedisServer()) {
      kinds.push({
        name: 'redis+aof-always',
        open: async (snapshot, dir) => {
          const server = await spawnRedisServer({ extraArgs: ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir, '--appenddirname', 'aof'] });
          cleanups.push(() => server.stop());
          const store = await RedisStore.connect({ url: server.url });
          await loadThroughApi(store, snapshot);
          return store;
        },
      });
    }
  } else {
    redisNote = 'Redis skipped: no RAAGA_TEST_REDIS_URL/REDIS_URL and no redis-server on PATH';
    console.warn(redisNote);
  }

  const runs: Run[] = [];
  try {
    for (const accounts of POPULATIONS) {
      for (const kind of kinds) {
        const { snapshot, working } = population(accounts);
        const dir = await mkdtemp(join(root, `${kind.name}-`));
        const store = await kind.open(snapshot, dir);
        try {
          // Each run uses its own slice of the working accounts so no run meets another's rate window.
          let offset = 0;
          const slice = (n: number) => working.slice(offset, (offset += n));
          await measure(kind.name, accounts, store, slice(8), 8, WARMUP_CYCLES);
          for (const concurrency of CONCURRENCY) {
            const need = concurrency * Math.ceil(Math.ceil(CYCLES[concurrency] / concurrency) / CYCLES_PER_ACCOUNT);
            runs.push(await measure(kind.name, accounts, store, slice(need), concurrency, CYCLES[concurrency]));
          }
        } finally {
          await store.close();
          await rm(dir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }

  const find = (store: string, accounts: number, concurrency: number) =>
    runs.find((r) => r.store === store && r.accounts === accounts && r.concurrency === concurrency);
  const comparison = kinds
    .filter((k) => k.name !== 'json-file')
    .flatMap(({ name }) =>
      POPULATIONS.flatMap((accounts) =>
        CONCURRENCY.flatMap((concurrency) => {
          const baseline = find('json-file', accounts, concurrency);
          const run = find(name, accounts, concurrency);
          if (!baseline || !run) return [];
          return [
            {
              store: name,
              accounts,
              concurrency,
              throughputRatioToJsonFile: round(run.cyclesPerSecond / baseline.cyclesPerSecond, 2),
              addedCycleP50Ms: round(run.cycleMs.p50 - baseline.cycleMs.p50),
              addedCycleP95Ms: round(run.cycleMs.p95 - baseline.cycleMs.p95),
              addedSettleP50Ms: round(run.settleMs.p50 - baseline.settleMs.p50),
            },
          ];
        }),
      ),
    );
  const file = await writeResult('admission', {
    what:
      'auth (key hash lookup) + admit (rate window + slot + credit reservation) then settle (debit + usage record) + release, through core ' +
      'Admission; cycleMs is what admission adds to a request. json-file is the store SQLite replaced (no usage record), the baseline.',
    redis: redisNote,
    secondsPerRunCap: SECONDS_PER_RUN,
    runs,
    comparison,
  });
  const line = runs
    .map((r) => `${r.store}/${r.accounts}@${r.concurrency}: ${r.cyclesPerSecond}/s, cycle p50 ${r.cycleMs.p50} p95 ${r.cycleMs.p95} ms${r.timeBounded ? ' (time-bounded)' : ''}`)
    .join(' | ');
  console.log(`admission: ${line} → ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
