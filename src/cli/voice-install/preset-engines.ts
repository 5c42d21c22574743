// Which engine speaks each preset voice in each language, as the server would decide at start from the manifest:
// an installed pack's engine when its file is there (inside RAAGA_MODELS_DIR for real), the embedded eSpeak engine
// otherwise (`raaga voices list`).

import { resolve } from 'node:path';
import { loadVoiceCatalog } from '../../core/voice-catalog.js';
import { ESPEAK_ENGINE_KIND } from '../../engine/espeak-engine.js';
import { packFileProblem } from '../../engine/pack-checks.js';
import { manifestPath } from '../preset-voice-names.js';

export interface PresetEngine {
  readonly voice: string;
  readonly language: string;
  readonly engine: string;
  /** The pack's main file as the manifest names it; null for the embedded engine. */
  readonly pack: string | null;
  /** Why a recorded pack is not used (its file is missing, or outside RAAGA_MODELS_DIR); absent otherwise. */
  readonly problem?: string;
}

export function presetEngines(modelsDir: string): PresetEngine[] {
  const catalog = loadVoiceCatalog(manifestPath(modelsDir));
  const packs = new Map(catalog.voicePacks().map((pack) => [`${pack.voiceName}/${pack.language}`, pack]));
  const out: PresetEngine[] = [];
  for (const { name } of catalog.voices()) {
    for (const language of catalog.languages()) {
      if (!catalog.hasPair(name, language)) continue;
      const pack = packs.get(`${name}/${language}`);
      const problem = pack === undefined ? undefined : packFileProblem(resolve(modelsDir, pack.path), modelsDir);
      if (pack === undefined) out.push({ voice: name, language, engine: ESPEAK_ENGINE_KIND, pack: null });
      else if (problem === 'does not exist') out.push({ voice: name, language, engine: ESPEAK_ENGINE_KIND, pack: pack.path, problem: `${pack.engine} pack file missing` });
      else if (problem !== undefined) out.push({ voice: name, language, engine: ESPEAK_ENGINE_KIND, pack: pack.path, problem: `${pack.engine} pack file ${problem}` });
      else out.push({ voice: name, language, engine: pack.engine, pack: pack.path });
    }
  }
  return out;
}
