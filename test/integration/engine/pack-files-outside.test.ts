// A pack whose files lie outside RAAGA_MODELS_DIR, as the manifest writes them (absolute elsewhere, `../` leading
// out) or for real (a model, a sidecar or a style file that is a symbolic link out), is refused at start naming the
// file; its pair speaks with the embedded engine, and the other packs and the server carry on.

import { copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVoiceCatalog } from '../../../src/core/voice-catalog.js';
import { buildEngineRegistry, type PackRequest } from '../../../src/engine/build-engine-registry.js';
import type { PackEvent } from '../../../src/engine/engine-module.js';
import type { EngineRegistry } from '../../../src/engine/engine-registry.js';
import { EspeakEngine } from '../../../src/engine/espeak-engine.js';
import { kokoroVoiceFiles, type KokoroVoiceFiles } from '../../helpers/kokoro-voice-files.js';
import { fixtureModelPath, job, REPO_MANIFEST, TONE_TEXT } from '../../helpers/voice-packs.js';

const catalog = loadVoiceCatalog(REPO_MANIFEST);
const never = (): AbortSignal => new AbortController().signal;
let modelsDir: string;
let elsewhere: string;
let kokoro: KokoroVoiceFiles;
let registry: EngineRegistry;
const events: PackEvent[] = [];

const piper = (voiceName: string, path: string): PackRequest => ({ voiceName, language: 'en-IN', engine: 'piper', path, sha256: undefined, options: { speaker: 0 } });

beforeAll(async () => {
  modelsDir = await mkdtemp(join(tmpdir(), 'raaga-models-'));
  elsewhere = await mkdtemp(join(tmpdir(), 'raaga-elsewhere-'));
  kokoro = await kokoroVoiceFiles();
  const tone = fixtureModelPath(TONE_TEXT);
  for (const target of [join(modelsDir, 'packs', 'good'), join(modelsDir, 'packs', 'linked'), join(modelsDir, 'packs', 'sidecar-out'), elsewhere]) {
    await mkdir(target, { recursive: true });
    await copyFile(tone, join(target, 'model.onnx'));
    await copyFile(`${tone}.json`, join(target, 'model.onnx.json'));
  }
  await rm(join(modelsDir, 'packs', 'linked', 'model.onnx'));
  await symlink(join(elsewhere, 'model.onnx'), join(modelsDir, 'packs', 'linked', 'model.onnx'));
  await rm(join(modelsDir, 'packs', 'sidecar-out', 'model.onnx.json'));
  await symlink(join(elsewhere, 'model.onnx.json'), join(modelsDir, 'packs', 'sidecar-out', 'model.onnx.json'));
  await mkdir(join(modelsDir, 'packs', 'kokoro'));
  await copyFile(await kokoro.model('model.onnx'), join(modelsDir, 'packs', 'kokoro', 'model.onnx'));
  const style = await kokoro.style('hf_alpha.bin', 1);
  const embedded = new EspeakEngine({ workers: 1, maxQueue: 16, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
  registry = buildEngineRegistry(
    embedded,
    [
      piper('meera', join(modelsDir, 'packs', 'good', 'model.onnx')),
      piper('aarav', join(elsewhere, 'model.onnx')),
      piper('rahul', join(modelsDir, '..', 'outside', 'model.onnx')),
      piper('pooja', join(modelsDir, 'packs', 'linked', 'model.onnx')),
      piper('kavya', join(modelsDir, 'packs', 'sidecar-out', 'model.onnx')),
      { voiceName: 'divya', language: 'hi-IN', engine: 'kokoro', path: join(modelsDir, 'packs', 'kokoro', 'model.onnx'), sha256: undefined, options: { style } },
    ],
    { workers: 1, threadsPerWorker: 1, maxQueue: 16, modelsDir, onEvent: (event) => events.push(event) },
  );
  await registry.start();
}, 120_000);
afterAll(async () => {
  await registry?.close();
  await kokoro.remove();
  await rm(modelsDir, { recursive: true, force: true });
  await rm(elsewhere, { recursive: true, force: true });
});

describe('pack files outside RAAGA_MODELS_DIR', () => {
  it('are refused at start, each pack once, naming the file', () => {
    const failed = Object.fromEntries(events.flatMap((event) => (event.type === 'pack-failed' ? [[event.voiceName, event.reason]] : [])));
    expect(Object.keys(failed).sort()).toEqual(['aarav', 'divya', 'kavya', 'pooja', 'rahul']);
    expect(failed.aarav).toBe(`model file ${join(elsewhere, 'model.onnx')} is outside RAAGA_MODELS_DIR (${modelsDir}): a pack's files live under it`);
    expect(failed.rahul).toBe(`model file ${join(modelsDir, '..', 'outside', 'model.onnx')} is outside RAAGA_MODELS_DIR (${modelsDir}): a pack's files live under it`);
    expect(failed.pooja).toMatch(new RegExp(`^model file ${join(modelsDir, 'packs', 'linked', 'model.onnx')} is a symbolic link to .*${join(elsewhere, 'model.onnx')}, which is outside RAAGA_MODELS_DIR`));
    expect(failed.kavya).toMatch(new RegExp(`^voice sidecar ${join(modelsDir, 'packs', 'sidecar-out', 'model.onnx.json')} is a symbolic link to .*model\\.onnx\\.json, which is outside RAAGA_MODELS_DIR`));
    expect(failed.divya).toMatch(/^style file .*hf_alpha\.bin is outside RAAGA_MODELS_DIR/);
  });

  it('leave their pairs to the embedded engine while the pack inside serves', async () => {
    expect(registry.isReady()).toBe(true);
    for (const voice of ['aarav', 'rahul', 'pooja', 'kavya']) {
      expect(registry.kindFor(voice, 'en-IN')).toBe('espeak');
      expect((await registry.synthesize(job(voice, 'en-IN', 'Your order has shipped.'), never())).engine).toBe('espeak');
    }
    expect(registry.kindFor('divya', 'hi-IN')).toBe('espeak');
    expect((await registry.synthesize(job('meera', 'en-IN', 'ok'), never())).engine).toBe('piper');
  });
});
