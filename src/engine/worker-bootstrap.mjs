// Plain-JS entry for every engine worker: registers tsx in the worker thread, then loads the TypeScript
// entry named in workerData.entry. Needed because `new Worker('x.ts')` cannot load TypeScript itself.

import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.entry);
