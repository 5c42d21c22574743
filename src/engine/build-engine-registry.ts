// From the voice bank's installed packs to the engine registry: each pack goes to its engine kind (its options
// checked by the kind's schema), each kind with a usable pack builds one engine, and the embedded engine closes the
// list. A pack that cannot be used is reported with its reason and its pair stays with the embedded engine.

import type { LanguageCode } from '../languages.js';
import type { EngineContext, InstalledPack } from './engine-module.js';
import { EngineRegistry } from './engine-registry.js';
import { PACK_ENGINES } from './engines.js';
import type { PairEngine } from './pair-engine.js';

/** A pack as the catalog lists it, path already absolute. */
export interface PackRequest {
  readonly voiceName: string;
  readonly language: LanguageCode;
  readonly engine: string;
  readonly path: string;
  readonly sha256: string | undefined;
  /** The manifest's engine-specific fields, not yet checked. */
  readonly options: Readonly<Record<string, unknown>>;
}

export function buildEngineRegistry(embedded: PairEngine, packs: readonly PackRequest[], context: EngineContext): EngineRegistry {
  const fail = (pack: PackRequest, reason: string): void =>
    context.onEvent({ type: 'pack-failed', voiceName: pack.voiceName, language: pack.language, path: pack.path, reason });
  for (const pack of packs) {
    if (!PACK_ENGINES.some((module) => module.kind === pack.engine)) fail(pack, `engine '${pack.engine}' is not one this Raaga has (${PACK_ENGINES.map((m) => m.kind).join(', ')})`);
  }
  const engines: PairEngine[] = [];
  const packsOf = new Map<PairEngine, PackRequest[]>();
  for (const module of PACK_ENGINES) {
    const mine = packs.filter((pack) => pack.engine === module.kind);
    const installed: InstalledPack<unknown>[] = [];
    const accepted: PackRequest[] = [];
    for (const pack of mine) {
      const options = module.packOptions.safeParse(pack.options);
      if (!options.success) {
        fail(pack, `its ${module.kind} fields are invalid: ${options.error.issues.map((issue) => `${issue.path.join('.') || '(pack)'} ${issue.message}`).join('; ')}`);
        continue;
      }
      installed.push({ voiceName: pack.voiceName, language: pack.language, path: pack.path, sha256: pack.sha256, options: options.data });
      accepted.push(pack);
    }
    if (installed.length === 0) continue;
    const engine = (module as unknown as { create: (packs: InstalledPack<unknown>[], context: EngineContext) => PairEngine | undefined }).create(installed, context);
    if (engine === undefined) continue;
    engines.push(engine);
    packsOf.set(engine, accepted);
  }
  return new EngineRegistry(engines, embedded, (engine, error) => {
    const reason = `no ${engine.kind} worker could start: ${error instanceof Error ? error.message : String(error)}`;
    for (const pack of packsOf.get(engine) ?? []) fail(pack, reason);
  });
}
