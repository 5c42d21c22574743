// The proof both installers ask of a pack before they record it: the engine kind's own trial loads it in this process
// and speaks one sentence in its language (EngineModule.trial); a refusal names what was installed and why.

import type { EngineModule, PackTrial, UnparsedPack } from '../../engine/engine-module.js';

export async function trialPack(module: EngineModule, pack: UnparsedPack, modelsDir: string, what: string): Promise<PackTrial> {
  try {
    return await module.trial(pack, { modelsDir });
  } catch (error) {
    throw new Error(`${what} does not load and speak as a ${module.kind} voice: ${error instanceof Error ? error.message : String(error)}; nothing was installed`);
  }
}
