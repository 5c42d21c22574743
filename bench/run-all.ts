// `npm run bench`: runs every bench script in turn (each prints one summary line and writes bench/results/*.json),
// then combines every result file into bench/results/latest.json. BENCH_ONLY=latency,peer-tts runs only those; the
// soak (30 minutes by default) runs only when BENCH_ONLY names it.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createProgress, items } from '../src/cli/progress.js';

const dir = fileURLToPath(new URL('.', import.meta.url));
/** Benches too long for every run. */
const ON_REQUEST = ['soak.ts'];
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim().replace(/\.ts$/, ''));
const scripts = readdirSync(dir)
  .filter((file) => file.endsWith('.ts') && file !== 'run-all.ts')
  .filter((file) => (only === undefined ? !ON_REQUEST.includes(file) : only.includes(file.replace(/\.ts$/, ''))))
  .sort();
let failed = 0;
const startedAt = new Date();
const loadBefore = loadavg()[0];
const ran: Record<string, { exitCode: number | null; seconds: number }> = {};
// On stderr: each script prints its own summary line on stdout.
const progress = createProgress(process.stderr, 'benchmarks', scripts.length, { unit: items('scripts') });
for (const script of scripts) {
  const scriptStarted = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${script}`], { stdio: 'inherit', env: process.env });
  ran[script.replace(/\.ts$/, '')] = { exitCode: run.status, seconds: Math.round((performance.now() - scriptStarted) / 100) / 10 };
  if (run.status !== 0) {
    failed++;
    console.error(`bench ${script} failed with exit code ${run.status}`);
  }
  progress.advance(1);
}
progress.done();
// Every result file (each dated by its `at`), including those of scripts not run this time.
const resultsDir = `${dir}results/`;
const results = Object.fromEntries(
  readdirSync(resultsDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json') && entry.name !== 'latest.json')
    .map((entry) => [entry.name.replace(/\.json$/, ''), JSON.parse(readFileSync(`${resultsDir}${entry.name}`, 'utf8')) as unknown]),
);
const totalSeconds = Math.round((Date.now() - startedAt.getTime()) / 1000);
writeFileSync(
  `${resultsDir}latest.json`,
  `${JSON.stringify({ startedAt: startedAt.toISOString(), totalSeconds, loadAverage1m: { before: loadBefore, after: loadavg()[0] }, ran, results }, null, 2)}\n`,
);
console.error(`bench: ${Object.keys(ran).length} scripts in ${totalSeconds} s, ${failed} failed → ${resultsDir}latest.json`);
process.exit(failed > 0 ? 1 : 0);
