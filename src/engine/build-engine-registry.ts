// From the voice bank's installed packs to the engine registry: each pack goes to its engine kind (which checks its
// fields and files), each kind with a usable pack builds one engine, and the embedded engine closes the list. A pack
// that cannot be used is reported with its reason and its pair stays with the embedded engine.

import type { EngineContext, UnparsedPack } from './engine-module.js';
import { EngineRegistry } from './engine-registry.js';
import { PACK_ENGINES, PACK_ENGINE_KINDS } from './engines.js';
import type { PairEngine } from './pair-engine.js';

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
  const engines: PairEngine[] = [];
  const packsOf = new Map<PairEngine, readonly PackRequest[]>();
  for (const module of PACK_ENGINES) {
    const mine = packs.filter((pack) => pack.engine === module.kind);
    if (mine.length === 0) continue;
    const engine = module.create(mine, context);
    if (engine === undefined) continue;
    engines.push(engine);
    packsOf.set(engine, mine);
  }
  return new EngineRegistry(engines, embedded, (engine, error) => {
    const reason = `no ${engine.kind} worker could start: ${error instanceof Error ? error.message : String(error)}`;
    for (const pack of packsOf.get(engine) ?? []) fail(pack, reason);
  });
}
