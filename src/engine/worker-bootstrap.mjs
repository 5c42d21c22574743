// Plain-JS entry for every engine worker: loads the entry named in workerData.entry. From dist/ that is compiled
// JavaScript and loads as it is; from the sources it is TypeScript, so tsx (a dev dependency) is registered first,
// because `new Worker('x.ts')` cannot load TypeScript itself.

import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';

// Synthesis is throughput work that runs ahead of playout; the event loop's frame pacing and barge-in are not.
// On Linux a nice value set without a pid applies to this thread alone (and to threads it starts, such as
// onnxruntime's), so under contention the event loop wins the core. Elsewhere it may apply to the whole process
// or fail: Linux is the supported platform for this, so a refusal leaves the worker at the process's priority.
if (workerData.niceness > 0) {
  try {
    setPriority(workerData.niceness);
  } catch {
    // Not permitted here: the worker keeps the process's priority.
  }
}

if (String(workerData.entry).endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
