// From the voice bank's installed packs to the engine registry: each pack goes to its engine kind (which checks its
// fields and files), each kind with a usable pack builds one engine with its share of the one worker budget, and the
// embedded engine closes the list. A pack that cannot be used is reported with its reason and its pair stays with the
// embedded engine; so are all the packs of a kind whose build from source does not match its BUILD.json, in one report.

import { availableParallelism } from 'node:os';
import { checkEngineBuild, type BuildMismatch, type EngineBuildDirs } from './build-record-check.js';
import type { EngineContext, UnparsedPack } from './engine-module.js';
import { EngineRegistry } from './engine-registry.js';
import { PACK_ENGINES, PACK_ENGINE_KINDS } from './engines.js';
import type { PairEngine } from './pair-engine.js';
import { splitWorkerBudget } from './worker-budget.js';

/** A pack as the catalog lists it, path already absolute, with the engine kind the manifest names. */
export interface PackRequest extends UnparsedPack {
  readonly engine: string;
}

/**
 * The kinds among `packs` whose build from source (EngineModule.build) does not match its BUILD.json, with the first
 * file that differs: hashed once per process, before buildEngineRegistry (which is synchronous) refuses their packs.
 */
export async function unmatchedPackBuilds(packs: readonly PackRequest[], dirs: EngineBuildDirs = {}): Promise<ReadonlyMap<string, BuildMismatch>> {
  const unmatched = new Map<string, BuildMismatch>();
  for (const module of PACK_ENGINES) {
    if (module.build === undefined || !packs.some((pack) => pack.engine === module.kind)) continue;
    const mismatch = await checkEngineBuild(module.kind, module.build, dirs);
    if (mismatch !== undefined) unmatched.set(module.kind, mismatch);
  }
  return unmatched;
}

/** `unmatchedBuilds` (unmatchedPackBuilds): kinds whose packs are all refused, one `build-mismatch` event each. */
export function buildEngineRegistry(
  embedded: PairEngine,
  requested: readonly PackRequest[],
  context: EngineContext,
  unmatchedBuilds: ReadonlyMap<string, BuildMismatch> = new Map(),
): EngineRegistry {
  const fail = (pack: PackRequest, reason: string): void =>
    context.onEvent({ type: 'pack-failed', voiceName: pack.voiceName, language: pack.language, path: pack.path, reason });
  for (const pack of requested) {
    if (!PACK_ENGINE_KINDS.includes(pack.engine)) fail(pack, `engine '${pack.engine}' is not one this Raaga has (${PACK_ENGINE_KINDS.join(', ')})`);
  }
  for (const [engine, mismatch] of unmatchedBuilds) {
    const refused = requested.filter((pack) => pack.engine === engine).map(({ voiceName, language, path }) => ({ voiceName, language, path }));
    if (refused.length > 0) context.onEvent({ type: 'build-mismatch', engine, file: mismatch.file, reason: mismatch.message, packs: refused });
  }
  // A refused kind has no engine and no share of the budget: its pairs are the embedded engine's.
  const packs = requested.filter((pack) => !unmatchedBuilds.has(pack.engine));
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
