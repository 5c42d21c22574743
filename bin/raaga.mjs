#!/usr/bin/env node
// Entry for `npx raaga`: the compiled CLI in dist/ (built by `npm ci` through `prepare`, or `npm run build`).
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write('raaga: dist/ is missing; build it with `npm run build` (npm ci does this by itself).\n');
  process.exit(1);
}
await import(compiled.href);
