// From the voice bank's installed packs to the engine registry: each pack goes to its engine kind (which checks its
// fields and files), each kind with a usable pack builds one engine with its share of the one worker budget, and the
// embedded engine closes the list. A pack that cannot be used is reported with its reason and its pair stays with the
// embedded engine.

import { availableParallelism } from 'node:os';
import type { EngineContext, UnparsedPack } from './engine-module.js';
import { EngineRegistry } from './engine-registry.js';
import { PACK_ENGINES, PACK_ENGINE_KINDS } from './engines.js';
import type { PairEngine } from './pair-engine.js';
import { splitWorkerBudget } from './worker-budget.js';

/** A pack as the catalog lists it, path already absolute, with the engine kind the manifest names. */
export interface PackRequest extends UnparsedPack {
  readonly engine: string;
}

export function buildEngineRegistry(embedded: PairEngine, packs: readonly PackRequest[], context: EngineContext): EngineRegistry {
  const fail = (pack: PackRequest, reason: string): void =>
    context.onEvent({ type: 'pack-failed', voiceName: pack.voiceName, language: pack.language, path: pack.path, reason });
  for (const pack of packs) {
    if (!PACK_ENGINE_KINDS.includes(pack.engine)) fail(pack, `engine '${pack.engine}' is not one this Raaga has (${PACK_ENGINE_KINDS.join(', ')})`);
  }
  // One budget for the process: ONNX_WORKERS shared by the kinds that have packs, judged over their sum.
  const kinds = PACK_ENGINES.filter((module) => packs.some((pack) => pack.engine === module.kind));
  const demands = kinds.map((module) => ({ kind: module.kind, threadsPerWorker: module.threadedWorkers ? context.threadsPerWorker : 1 }));
  const budget = splitWorkerBudget(context.workers, demands, context.cores ?? availableParallelism());
  if (kinds.length > 0) context.onEvent({ type: 'worker-budget', ...budget });
  const engines: PairEngine[] = [];
  const packsOf = new Map<PairEngine, readonly PackRequest[]>();
  for (const [index, module] of kinds.entries()) {
    const mine = packs.filter((pack) => pack.engine === module.kind);
    const engine = module.create(mine, { ...context, workers: budget.kinds[index]?.workers ?? 1 });
    if (engine === undefined) continue;
    engines.push(engine);
    packsOf.set(engine, mine);
  }
  return new EngineRegistry(engines, embedded, (engine, error) => {
    const reason = `no ${engine.kind} worker could start: ${error instanceof Error ? error.message : String(error)}`;
    for (const pack of packsOf.get(engine) ?? []) fail(pack, reason);
  });
}
