// The engine kinds a voice pack can be installed for, in the order the registry asks them (the embedded eSpeak
// engine, which speaks every pair, comes after all of them). Adding an engine kind is its folder and one line here:
// the manifest, the registry, the installers and the CLI's lists all read this one.

import type { EngineModule } from './engine-module.js';
import { fliteEngineModule } from './flite/flite-engine-module.js';
import { kokoroEngineModule } from './kokoro/kokoro-engine-module.js';
import { piperEngineModule } from './piper/piper-engine-module.js';

export const PACK_ENGINES: readonly EngineModule[] = [piperEngineModule, kokoroEngineModule, fliteEngineModule];

/** The module of an engine kind, or undefined for one this Raaga does not have. */
export function packEngine(kind: string): EngineModule | undefined {
  return PACK_ENGINES.find((module) => module.kind === kind);
}

export const PACK_ENGINE_KINDS: readonly string[] = PACK_ENGINES.map((module) => module.kind);
