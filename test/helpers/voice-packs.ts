// Test voice packs: the committed tone voices (fixtures/voices/), engines over them, and a temporary models
// directory whose manifest routes chosen voice + language pairs to packs, as `raaga voices add` would leave it.

import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TONE_ESPEAK, TONE_TEXT, type ToneVoiceFixture } from '../../fixtures/voices/lib/fixture-voices.js';
import type { PackEvent } from '../../src/engine/engine-module.js';
import { PiperEngine, type PiperRoute } from '../../src/engine/piper/piper-engine.js';
import { loadPiperSidecar } from '../../src/engine/piper/piper-sidecar.js';
import type { SynthesisJob } from '../../src/engine/tts-engine.js';
import type { LanguageCode } from '../../src/languages.js';

export { TONE_ESPEAK, TONE_TEXT };

const root = fileURLToPath(new URL('../../', import.meta.url));
export const REPO_MANIFEST = join(root, 'models', 'raaga-v1', 'manifest.json');

export function fixtureModelPath(voice: ToneVoiceFixture): string {
  return join(root, 'fixtures', 'voices', voice.name, 'model.onnx');
}

export function piperModel(modelPath: string): { modelPath: string; sidecar: ReturnType<typeof loadPiperSidecar> } {
  return { modelPath, sidecar: loadPiperSidecar(`${modelPath}.json`) };
}

/** An engine over the given models with the given routes; the caller closes it. */
export function toneEngine(routes: PiperRoute[], options: { workers?: number; events?: PackEvent[]; extraModels?: string[] } = {}): PiperEngine {
  const paths = [...new Set([...routes.map((route) => route.path), ...(options.extraModels ?? [])])];
  return new PiperEngine({
    models: paths.map(piperModel),
    routes,
    workers: options.workers ?? 1,
    threadsPerWorker: 1,
    maxQueue: 64,
    onEvent: (event) => options.events?.push(event),
  });
}

export function job(voiceName: string, language: LanguageCode, text: string, extra: Partial<SynthesisJob> = {}): SynthesisJob {
  return {
    text,
    language,
    voiceName,
    speed: 1,
    pitchShiftSemitones: 0,
    ...extra,
  };
}

export interface PackInstall {
  readonly voice: string;
  readonly language: LanguageCode;
  readonly fixture?: ToneVoiceFixture;
  /** A directory name under packs/ with deliberately broken files instead of a fixture. */
  readonly broken?: 'corrupt-model' | 'bad-sidecar' | 'missing';
  readonly speaker?: number;
}

/** A temp models dir: the repo manifest plus the given packs copied under packs/ and recorded per voice + language. */
export async function modelsDirWithPacks(installs: readonly PackInstall[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'raaga-models-'));
  await mkdir(join(dir, 'raaga-v1'), { recursive: true });
  const manifest = JSON.parse(await readFile(REPO_MANIFEST, 'utf8')) as { voices: { voice_name: string; packs?: Record<string, unknown> }[] };
  for (const install of installs) {
    const name = install.fixture?.name ?? `broken-${install.broken ?? 'x'}`;
    const packDir = join(dir, 'packs', name);
    if (install.fixture !== undefined) {
      await cp(join(root, 'fixtures', 'voices', install.fixture.name), packDir, { recursive: true });
    } else if (install.broken === 'corrupt-model') {
      await mkdir(packDir, { recursive: true });
      await writeFile(join(packDir, 'model.onnx'), 'not an onnx file');
      await cp(join(root, 'fixtures', 'voices', TONE_TEXT.name, 'model.onnx.json'), join(packDir, 'model.onnx.json'));
    } else if (install.broken === 'bad-sidecar') {
      await mkdir(packDir, { recursive: true });
      await cp(join(root, 'fixtures', 'voices', TONE_TEXT.name, 'model.onnx'), join(packDir, 'model.onnx'));
      await writeFile(join(packDir, 'model.onnx.json'), JSON.stringify({ audio: { sample_rate: 'fast' } }));
    }
    const voice = manifest.voices.find((candidate) => candidate.voice_name === install.voice);
    if (voice === undefined) throw new Error(`no voice ${install.voice}`);
    voice.packs = { ...voice.packs, [install.language]: { path: `packs/${name}/model.onnx`, speaker: install.speaker ?? 0 } };
  }
  await writeFile(join(dir, 'raaga-v1', 'manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

/**
 * Writes `<modelsDir>/raaga-v1/manifest.json`: the repo manifest with the given voices' packs replaced, as
 * `raaga voices add` would leave it (e.g. `{ priya: { 'en-IN': { engine: 'flite', path } } }`).
 */
export async function writeManifestWithPacks(modelsDir: string, packsByVoice: Readonly<Record<string, Record<string, unknown>>>): Promise<void> {
  const manifest = JSON.parse(await readFile(REPO_MANIFEST, 'utf8')) as { voices: { voice_name: string; packs?: Record<string, unknown> }[] };
  for (const [voiceName, packs] of Object.entries(packsByVoice)) {
    const voice = manifest.voices.find((candidate) => candidate.voice_name === voiceName);
    if (voice === undefined) throw new Error(`no voice ${voiceName} in the repo manifest`);
    voice.packs = packs;
  }
  await mkdir(join(modelsDir, 'raaga-v1'), { recursive: true });
  await writeFile(join(modelsDir, 'raaga-v1', 'manifest.json'), JSON.stringify(manifest, null, 2));
}
