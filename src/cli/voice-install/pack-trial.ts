// The proof both installers ask of a pack before they record it: the engine kind's own trial loads it in this process
// and speaks one sentence in its language (EngineModule.trial); a refusal names what was installed and why. Before any
// file is fetched, the kind's build from source must match its BUILD.json: a voice installed for an engine that could
// not load it would only fall back to eSpeak at the next start.

import { checkEngineBuild, type EngineBuildDirs } from '../../engine/build-record-check.js';
import type { EngineModule, PackTrial, UnparsedPack } from '../../engine/engine-module.js';

export async function trialPack(module: EngineModule, pack: UnparsedPack, modelsDir: string, what: string): Promise<PackTrial> {
  try {
    return await module.trial(pack, { modelsDir });
  } catch (error) {
    throw new Error(`${what} does not load and speak as a ${module.kind} voice: ${error instanceof Error ? error.message : String(error)}; nothing was installed`);
  }
}

/** Throws, naming the file, when the kind's build does not match its BUILD.json (`dirs`: a test's copy instead). */
export async function requireMatchingBuild(module: EngineModule, dirs?: EngineBuildDirs): Promise<void> {
  if (module.build === undefined) return;
  const mismatch = await checkEngineBuild(module.kind, module.build, dirs);
  if (mismatch !== undefined) throw new Error(`${module.kind} voices cannot be installed: ${mismatch.message}; nothing was installed`);
}
