// A temporary models directory in which chosen voice + language pairs speak with the medium-profile ONNX voice
// (fixtures/voices/generate.ts --medium, generated on demand), as `raaga voices add` would leave it. Each language
// gets its own pack (the model linked, a sidecar whose espeak.voice is that language's), so ids follow the language.

import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureMediumVoice, MEDIUM_SIDECAR } from '../../fixtures/voices/lib/fixture-voices.js';
import type { LanguageCode } from '../../src/languages.js';

const REPO_MANIFEST = fileURLToPath(new URL('../../models/raaga-v1/manifest.json', import.meta.url));

interface Manifest {
  languages: { code: string; embedded: { espeakId: string } }[];
  voices: { voice_name: string; packs?: Record<string, unknown> }[];
}

export interface MediumVoiceModels {
  /** Use as RAAGA_MODELS_DIR. */
  readonly dir: string;
  /** The pack's model path per language (for engines built directly). */
  readonly modelPaths: ReadonlyMap<LanguageCode, string>;
  remove(): Promise<void>;
}

export async function mediumVoiceModels(pairs: readonly { voice: string; language: LanguageCode }[]): Promise<MediumVoiceModels> {
  const mediumModel = await ensureMediumVoice();
  const dir = await mkdtemp(join(tmpdir(), 'raaga-bench-models-'));
  const manifest = JSON.parse(await readFile(REPO_MANIFEST, 'utf8')) as Manifest;
  const modelPaths = new Map<LanguageCode, string>();
  for (const { voice, language } of pairs) {
    const packDir = join(dir, 'packs', `medium-${language}`);
    if (!modelPaths.has(language)) {
      const espeakVoice = manifest.languages.find((entry) => entry.code === language)?.embedded.espeakId;
      if (espeakVoice === undefined) throw new Error(`no language ${language} in the manifest`);
      await mkdir(packDir, { recursive: true });
      await symlink(mediumModel, join(packDir, 'model.onnx'));
      await writeFile(join(packDir, 'model.onnx.json'), JSON.stringify({ ...MEDIUM_SIDECAR, espeak: { voice: espeakVoice } }));
      modelPaths.set(language, join(packDir, 'model.onnx'));
    }
    const entry = manifest.voices.find((candidate) => candidate.voice_name === voice);
    if (entry === undefined) throw new Error(`no voice ${voice} in the manifest`);
    entry.packs = { ...entry.packs, [language]: { path: `packs/medium-${language}/model.onnx`, speaker: 0 } };
  }
  await mkdir(join(dir, 'raaga-v1'), { recursive: true });
  await writeFile(join(dir, 'raaga-v1', 'manifest.json'), JSON.stringify(manifest, null, 2));
  return { dir, modelPaths, remove: () => rm(dir, { recursive: true, force: true }) };
}
