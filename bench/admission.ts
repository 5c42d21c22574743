// Admission throughput and latency: auth (API key hash lookup, as the HTTP hook does it) + admit + settle + release
// cycles through core Admission on MemoryStore (in memory, and with store.json as the server runs it) and on
// RedisStore, at concurrency 1 and 32, in one run.
// Redis: RAAGA_TEST_REDIS_URL or REDIS_URL (under a throw-away key prefix, deleted after), else a redis-server
// spawned from PATH; plus, when redis-server is on PATH, one with `appendfsync always` (durable like store.json).
// Writes bench/results/admission.json and prints a one-line summary.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { authenticate } from '../src/api/auth.js';
import { Admission } from '../src/core/admission.js';
import { generateApiKey, hashApiKey } from '../src/store/api-key.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { RedisStore } from '../src/store/redis-store.js';
import type { Account, Store } from '../src/store/store.js';
import { deleteKeys, hasRedisServer, spawnRedisServer, uniquePrefix } from '../test/helpers/redis-process.js';
import { round, summary, writeResult } from './lib/stats.js';

const CONCURRENCY = [1, 32] as const;
const CYCLES: Record<(typeof CONCURRENCY)[number], number> = { 1: 3000, 32: 12_800 };
const WARMUP_CYCLES = 300;
/** Growth allows 300 counted requests a minute per account: each worker moves to a fresh account before that. */
const CYCLES_PER_ACCOUNT = 250;
const CREDITS_PER_REQUEST = 100;

interface Run {
  readonly store: string;
  readonly concurrency: number;
  readonly cycles: number;
  readonly cyclesPerSecond: number;
  readonly authMs: ReturnType<typeof summary>;
  readonly admitMs: ReturnType<typeof summary>;
  readonly cycleMs: ReturnType<typeof summary>;
}

/** Accounts with one API key each; the cycle finds the account by the key's header, as a request does. */
async function accountsFor(store: Store, count: number): Promise<{ account: Account; authorization: string }[]> {
  const accounts: { account: Account; authorization: string }[] = [];
  for (let i = 0; i < count; i++) {
    const account = await store.createAccount({ plan: 'growth', credits: 1_000_000_000 });
    const key = generateApiKey();
    await store.addKeyHash(account.id, hashApiKey(key));
    accounts.push({ account, authorization: `Bearer ${key}` });
  }
  return accounts;
}

async function measure(name: string, store: Store, concurrency: number, cycles: number): Promise<Run> {
  const admission = new Admission(store, { slotLeaseMs: 30_000, reservationTtlMs: 900_000 });
  const perWorker = Math.ceil(cycles / concurrency);
  const accountsPerWorker = Math.ceil(perWorker / CYCLES_PER_ACCOUNT);
  const accounts = await accountsFor(store, concurrency * accountsPerWorker);
  const authMs: number[] = [];
  const admitMs: number[] = [];
  const cycleMs: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = 0; i < perWorker; i++) {
        const { authorization } = accounts[worker * accountsPerWorker + Math.floor(i / CYCLES_PER_ACCOUNT)]!;
        const t0 = performance.now();
        const account = await authenticate(store, authorization);
        const tAuth = performance.now();
        const ticket = await admission.admit({ account, countRate: true, takeSlot: true, credits: CREDITS_PER_REQUEST });
        const t1 = performance.now();
        await ticket.finish(CREDITS_PER_REQUEST);
        authMs.push(tAuth - t0);
        admitMs.push(t1 - tAuth);
        cycleMs.push(performance.now() - t0);
      }
    }),
  );
  const wallMs = performance.now() - started;
  const done = perWorker * concurrency;
  return { store: name, concurrency, cycles: done, cyclesPerSecond: round(done / (wallMs / 1000), 0), authMs: summary(authMs), admitMs: summary(admitMs), cycleMs: summary(cycleMs) };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'raaga-bench-admission-'));
  const cleanups: (() => Promise<unknown>)[] = [() => rm(dataDir, { recursive: true, force: true })];
  const stores: { name: string; open: () => Promise<Store> }[] = [
    { name: 'memory', open: async () => new MemoryStore() },
    { name: 'memory+file', open: () => MemoryStore.open({ dataDir }) },
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
    const keyPrefix = uniquePrefix('bench');
    cleanups.push(() => deleteKeys(url, keyPrefix));
    stores.push({ name: 'redis', open: () => RedisStore.connect({ url, keyPrefix }) });
    if (hasRedisServer()) {
      stores.push({
        name: 'redis+aof-always',
        open: async () => {
          const server = await spawnRedisServer({ extraArgs: ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dataDir, '--appenddirname', 'aof'] });
          cleanups.push(() => server.stop());
          return RedisStore.connect({ url: server.url });
        },
      });
    }
  } else {
    redisNote = 'Redis skipped: no RAAGA_TEST_REDIS_URL/REDIS_URL and no redis-server on PATH';
    console.warn(redisNote);
  }

  const runs: Run[] = [];
  try {
    for (const { name, open } of stores) {
      const store = await open();
      try {
        await measure(name, store, 8, WARMUP_CYCLES);
        for (const concurrency of CONCURRENCY) runs.push(await measure(name, store, concurrency, CYCLES[concurrency]));
      } finally {
        await store.close();
      }
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }

  const find = (store: string, concurrency: number) => runs.find((r) => r.store === store && r.concurrency === concurrency);
  // The embedded store as the server runs it (store.json) is the baseline; admission itself never touches its disk.
  const comparison = ['redis', 'redis+aof-always'].flatMap((redisName) =>
    CONCURRENCY.flatMap((concurrency) => {
      const embedded = find('memory+file', concurrency);
      const redis = find(redisName, concurrency);
      if (!embedded || !redis) return [];
      return [
        {
          store: redisName,
          concurrency,
          throughputRatioToEmbedded: round(redis.cyclesPerSecond / embedded.cyclesPerSecond, 2),
          addedAdmitP50Ms: round(redis.admitMs.p50 - embedded.admitMs.p50),
          addedAdmitP95Ms: round(redis.admitMs.p95 - embedded.admitMs.p95),
          addedAuthP50Ms: round(redis.authMs.p50 - embedded.authMs.p50),
          addedCycleP50Ms: round(redis.cycleMs.p50 - embedded.cycleMs.p50),
        },
      ];
    }),
  );
  const file = await writeResult('admission', {
    what: 'auth (key hash lookup) + admit (rate window + slot + credit reservation) then settle + release, through core Admission; cycleMs is what admission adds to a request',
    redis: redisNote,
    runs,
    comparison,
  });
  const line = runs
    .map((r) => `${r.store}@${r.concurrency}: ${r.cyclesPerSecond}/s, auth p50 ${r.authMs.p50} admit p50 ${r.admitMs.p50} p95 ${r.admitMs.p95} ms, cycle p50 ${r.cycleMs.p50} p95 ${r.cycleMs.p95} ms`)
    .join(' | ');
  console.log(`admission: ${line} → ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
