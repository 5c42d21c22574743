// One worker budget for the pack engines of a process (ONNX_WORKERS), split among the kinds that have packs installed
// rather than a full pool for each: with Piper, Kokoro and Flite packs on two cores that is two workers in all, not six.
// Whether the kinds' workers and their threads together exceed the cores is judged over the sum. The embedded eSpeak
// engine has workers of its own (TTS_WORKERS).

export interface KindDemand {
  readonly kind: string;
  /** Threads each worker of the kind keeps busy: onnxruntime's intra-op threads (ONNX_THREADS), or 1. */
  readonly threadsPerWorker: number;
}

export interface KindShare extends KindDemand {
  readonly workers: number;
}

export interface WorkerBudget {
  /** ONNX_WORKERS as configured (0 there means cores / ONNX_THREADS). */
  readonly budget: number;
  /** Each kind with packs and its workers, in the registry's order. */
  readonly kinds: readonly KindShare[];
  readonly totalWorkers: number;
  /** Workers x threads, summed over the kinds. */
  readonly totalThreads: number;
  readonly cores: number;
  /** The kinds' threads together exceed the cores (they would spin against each other): warned at start. */
  readonly oversubscribed: boolean;
}

/**
 * `budget` workers shared by `kinds` in turn, the first kinds taking the remainder; every kind gets at least one (so
 * with more kinds than the budget the total exceeds it, and says so in `totalWorkers`).
 */
export function splitWorkerBudget(budget: number, kinds: readonly KindDemand[], cores: number): WorkerBudget {
  const base = kinds.length === 0 ? 0 : Math.floor(budget / kinds.length);
  const remainder = kinds.length === 0 ? 0 : budget % kinds.length;
  const shares = kinds.map((kind, index) => ({ ...kind, workers: Math.max(1, base + (index < remainder ? 1 : 0)) }));
  const totalWorkers = shares.reduce((sum, share) => sum + share.workers, 0);
  const totalThreads = shares.reduce((sum, share) => sum + share.workers * share.threadsPerWorker, 0);
  return { budget, kinds: shares, totalWorkers, totalThreads, cores, oversubscribed: totalThreads > cores };
}
