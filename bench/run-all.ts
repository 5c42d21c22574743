// `npm run bench`: runs every bench script in turn (each prints one summary line and writes bench/results/*.json).

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const scripts = readdirSync(dir).filter((file) => file.endsWith('.ts') && file !== 'run-all.ts').sort();
let failed = 0;
for (const script of scripts) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${script}`], { stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    failed++;
    console.error(`bench ${script} failed with exit code ${run.status}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
