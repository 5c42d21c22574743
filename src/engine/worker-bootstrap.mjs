// Plain-JS entry for every engine worker: loads the entry named in workerData.entry. From dist/ that is compiled
// JavaScript and loads as it is; from the sources it is TypeScript, so tsx (a dev dependency) is registered first,
// because `new Worker('x.ts')` cannot load TypeScript itself.

import { workerData } from 'node:worker_threads';

if (String(workerData.entry).endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
