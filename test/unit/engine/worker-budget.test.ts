// The one worker budget of a process's pack engines: ONNX_WORKERS split among the kinds that have packs (not a full
// pool each), at least one worker a kind, and oversubscription judged over every kind's workers x threads.

import { describe, expect, it } from 'vitest';
import { splitWorkerBudget } from '../../../src/engine/worker-budget.js';

const piper = { kind: 'piper', threadsPerWorker: 1 };
const kokoro = { kind: 'kokoro', threadsPerWorker: 1 };
const flite = { kind: 'flite', threadsPerWorker: 1 };

describe('splitWorkerBudget', () => {
  it('gives one kind the whole budget', () => {
    expect(splitWorkerBudget(2, [piper], 2)).toMatchObject({ kinds: [{ kind: 'piper', workers: 2 }], totalWorkers: 2, totalThreads: 2, oversubscribed: false });
  });

  it('splits the budget among the kinds with packs, the first ones taking the remainder', () => {
    const budget = splitWorkerBudget(8, [piper, kokoro, flite], 8);
    expect(budget.kinds.map((share) => [share.kind, share.workers])).toEqual([
      ['piper', 3],
      ['kokoro', 3],
      ['flite', 2],
    ]);
    expect([budget.totalWorkers, budget.totalThreads, budget.oversubscribed]).toEqual([8, 8, false]);
  });

  it('two cores, three kinds: three workers in all (one each), not a full pool of two per kind, and that is over the cores', () => {
    const budget = splitWorkerBudget(2, [piper, kokoro, flite], 2);
    expect(budget.kinds.map((share) => share.workers)).toEqual([1, 1, 1]);
    expect(budget).toMatchObject({ budget: 2, totalWorkers: 3, totalThreads: 3, cores: 2, oversubscribed: true });
  });

  it('judges oversubscription on the sum of workers x threads, each kind with its own threads', () => {
    const threaded = [{ kind: 'piper', threadsPerWorker: 2 }, { kind: 'kokoro', threadsPerWorker: 2 }, flite];
    expect(splitWorkerBudget(3, threaded, 5)).toMatchObject({ totalWorkers: 3, totalThreads: 5, oversubscribed: false });
    expect(splitWorkerBudget(4, threaded, 5)).toMatchObject({ totalWorkers: 4, totalThreads: 7, oversubscribed: true });
  });

  it('has nothing to share without packs', () => {
    expect(splitWorkerBudget(4, [], 4)).toEqual({ budget: 4, kinds: [], totalWorkers: 0, totalThreads: 0, cores: 4, oversubscribed: false });
  });
});
