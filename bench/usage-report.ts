// GET /v1/usage's work on a large ledger (security review H3): seeds 1M and 2M usage records of one account over 398
// days into a temp SQLite store (one transaction of bulk inserts; the rollup filled by the store's own v4 → v5
// migration, timed), then times a report per grouping (reportUsage, as the route runs it: median of 3) with the RSS it
// added and the event loop's longest block while it ran (monitorEventLoopDelay, and a 1 ms setInterval probe with the
// CPU time between its ticks, which tells a block from a wait for a core on a shared machine).
// BENCH_USAGE_BASELINE=1 also times the old path once at 1M (listUsage + summarizeUsage: every record in memory).
// BENCH_USAGE_SIZES=100000,… overrides the sizes. Writes bench/results/usage-report.json and prints it.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { localDay } from '../src/core/usage/time-zone.js';
import { parseUsagePeriod, type UsagePeriod } from '../src/core/usage/usage-period.js';
import { reportUsage } from '../src/core/usage/usage-report.js';
import { summarizeUsage, type UsageGrouping } from '../src/core/usage/usage-summary.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { round, writeResult } from './lib/stats.js';
import { seeded } from '../test/helpers/seeded-random.js';

const SIZES = (process.env.BENCH_USAGE_SIZES ?? '1000000,2000000').split(',').map(Number);
const BASELINE = process.env.BENCH_USAGE_BASELINE === '1';
const RUNS = 3;
const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-12-01T00:00:00Z');
const SPAN_DAYS = 398;
const ACCOUNT = 'acct_big';
const VOICES = ['aarav', 'ananya', 'meera', 'vc_custom1'];
const LANGUAGES = ['hi-IN', 'en-IN'];
const KEYS = ['sha256:aaaaaaaaaaaa', 'sha256:bbbbbbbbbbbb', 'sha256:cccccccccccc', null];
const OUTCOMES = ['completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'cancelled', 'cancelled', 'failed', 'truncated'];
const REPORTS: readonly { readonly groupBy: UsageGrouping; readonly timeZone: string }[] = [
  { groupBy: 'day', timeZone: 'UTC' },
  { groupBy: 'day', timeZone: 'Asia/Kolkata' },
  { groupBy: 'day', timeZone: 'Europe/London' },
  { groupBy: 'voice', timeZone: 'Asia/Kolkata' },
  { groupBy: 'language', timeZone: 'Asia/Kolkata' },
  { groupBy: 'key', timeZone: 'Asia/Kolkata' },
];

async function seed(dataDir: string, records: number): Promise<{ seedMs: number; migrateMs: number }> {
  const store = await SqliteStore.open({ dataDir, now: () => NOW });
  await store.createAccount({ id: ACCOUNT, plan: 'growth', credits: 0 });
  await store.close();
  const db = new Database(join(dataDir, 'raaga.db'));
  const insert = db.prepare(
    'INSERT INTO usage (at_ms, account_id, key_id, endpoint, call_id, voice, language, engine, characters, audio_seconds, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // The same ledger every run.
  const next = seeded(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const start = NOW - SPAN_DAYS * DAY_MS;
  const step = (SPAN_DAYS * DAY_MS) / records;
  const t0 = performance.now();
  db.transaction(() => {
    for (let i = 0; i < records; i++) {
      const key = pick(KEYS);
      const outcome = pick(OUTCOMES);
      const characters = outcome === 'failed' || outcome === 'truncated' ? 0 : 1 + Math.floor(next() * 300);
      insert.run(Math.floor(start + i * step), ACCOUNT, key, key === null ? 'call' : 'generate', key === null ? `CA${i}` : null, pick(VOICES), pick(LANGUAGES), 'espeak', characters, Math.round(next() * 20_000) / 1000, outcome);
    }
  })();
  const seedMs = performance.now() - t0;
  // As a v4 file: the store's migration fills the rollup from the records, as an upgrade does.
  db.exec('DROP TABLE usage_rollup; DROP TABLE usage_rollup_totals');
  db.pragma('user_version = 4');
  db.close();
  const t1 = performance.now();
  (await SqliteStore.open({ dataDir, now: () => NOW })).close();
  return { seedMs, migrateMs: performance.now() - t1 };
}

interface Measured {
  readonly ms: number;
  readonly rssGrowthMiB: number;
  readonly longestBlockMs: number;
  readonly probeLongestGapMs: number;
  /** The most CPU the process used between two probe ticks: the longest block, less the waits for a core. */
  readonly probeLongestCpuMs: number;
  readonly requests: number;
  readonly groups: number;
}

/** Runs `work` with the event loop watched: the histogram's max and the longest gap between 1 ms probe ticks. */
async function measure(work: () => Promise<{ total: { requests: number }; groups: readonly unknown[] }>): Promise<Measured> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let longestGap = 0;
  // CPU time between two ticks: on a loaded machine a wall-clock gap may be the process waiting for a core, not a block.
  let lastCpu = process.cpuUsage();
  let longestCpu = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    longestGap = Math.max(longestGap, now - last);
    longestCpu = Math.max(longestCpu, (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000);
    last = now;
    lastCpu = cpu;
  }, 1);
  await new Promise((r) => setTimeout(r, 20));
  histogram.enable();
  last = performance.now();
  longestGap = 0;
  lastCpu = process.cpuUsage();
  longestCpu = 0;
  const rss = process.memoryUsage().rss;
  const t0 = performance.now();
  const summary = await work();
  const ms = performance.now() - t0;
  const rssGrowth = process.memoryUsage().rss - rss;
  await new Promise((r) => setTimeout(r, 5));
  histogram.disable();
  clearInterval(probe);
  return {
    ms: round(ms, 1),
    rssGrowthMiB: round(Math.max(0, rssGrowth) / 2 ** 20, 1),
    longestBlockMs: round(histogram.max / 1e6, 1),
    probeLongestGapMs: round(longestGap, 1),
    probeLongestCpuMs: round(longestCpu, 1),
    requests: summary.total.requests,
    groups: summary.groups.length,
  };
}

function median(runs: readonly Measured[]): Measured & { readonly runs: readonly number[] } {
  const sorted = [...runs].sort((a, b) => a.ms - b.ms);
  const middle = sorted[Math.floor(sorted.length / 2)]!;
  return {
    ...middle,
    rssGrowthMiB: Math.max(...runs.map((r) => r.rssGrowthMiB)),
    longestBlockMs: Math.max(...runs.map((r) => r.longestBlockMs)),
    probeLongestGapMs: Math.max(...runs.map((r) => r.probeLongestGapMs)),
    probeLongestCpuMs: Math.max(...runs.map((r) => r.probeLongestCpuMs)),
    runs: runs.map((r) => r.ms),
  };
}

function periodOf(timeZone: string): UsagePeriod {
  const from = localDay(NOW - SPAN_DAYS * DAY_MS, timeZone);
  const to = localDay(NOW - 1, timeZone);
  return parseUsagePeriod({ from, to, timezone: timeZone }, NOW);
}

const results: Record<string, unknown>[] = [];
for (const records of SIZES) {
  const dataDir = await mkdtemp(join(tmpdir(), 'raaga-usage-bench-'));
  try {
    const seeded = await seed(dataDir, records);
    const store = await SqliteStore.open({ dataDir, now: () => NOW });
    const db = new Database(join(dataDir, 'raaga.db'), { readonly: true });
    const rollupRows = (db.prepare('SELECT (SELECT COUNT(*) FROM usage_rollup) + (SELECT COUNT(*) FROM usage_rollup_totals) AS n').get() as { n: number }).n;
    db.close();
    const reports: Record<string, unknown>[] = [];
    for (const { groupBy, timeZone } of REPORTS) {
      const period = periodOf(timeZone);
      const runs: Measured[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(() => reportUsage(store, ACCOUNT, period, groupBy)));
      reports.push({ groupBy, timeZone, days: Math.round((period.toMs - period.fromMs) / DAY_MS), ...median(runs) });
      process.stderr.write(`${records} records, ${groupBy} (${timeZone}): ${JSON.stringify(reports.at(-1))}\n`);
    }
    let baseline: Record<string, unknown> | undefined;
    if (BASELINE && records <= 1_000_000) {
      const period = periodOf('Asia/Kolkata');
      baseline = { groupBy: 'voice', timeZone: 'Asia/Kolkata', ...(await measure(async () => summarizeUsage(await store.listUsage(ACCOUNT, period), 'voice', period.timeZone))) };
      process.stderr.write(`${records} records, old path (listUsage + summarizeUsage): ${JSON.stringify(baseline)}\n`);
    }
    await store.close();
    results.push({ records, seedMs: round(seeded.seedMs, 0), rollupFillAtUpgradeMs: round(seeded.migrateMs, 0), rollupRows, reports, ...(baseline ? { oldPath: baseline } : {}) });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
const file = await writeResult('usage-report', { spanDays: SPAN_DAYS, runsPerReport: RUNS, results });
process.stdout.write(`${JSON.stringify(results, null, 2)}\nwritten to ${file}\n`);
