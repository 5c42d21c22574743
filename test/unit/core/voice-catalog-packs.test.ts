// Voice packs in the voice bank manifest: per voice, per language, {engine, path, sha256, the engine's own fields};
// listed in manifest order; an unknown engine or bad engine fields refused; checked against the voice's languages;
// files outside RAAGA_MODELS_DIR left to the engine (refused at start, naming the file); absent from GET /v1/voices.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadVoiceCatalog, VoiceCatalogError, voiceCatalogFromJson } from '../../../src/core/voice-catalog.js';

const manifestPath = new URL('../../../models/raaga-v1/manifest.json', import.meta.url).pathname;
type ManifestJson = { voices: ({ voice_name: string } & Record<string, unknown>)[] };
const manifest = () => JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestJson;
const voice = (json: ManifestJson, name: string) => json.voices.find((v) => v.voice_name === name)!;
const SHA = 'a'.repeat(64);

describe('voice packs in the catalog', () => {
  it('ships with no packs: every pair is embedded', () => {
    expect(loadVoiceCatalog(manifestPath).voicePacks()).toEqual([]);
  });

  it('lists packs (a pack without engine is Piper\'s, as before engines plugged in), and leaves GET /v1/voices unchanged', () => {
    const json = manifest();
    voice(json, 'meera').packs = { 'te-IN': { engine: 'piper', path: 'packs/te/model.onnx', speaker: 3, sha256: SHA }, 'hi-IN': { path: 'packs/hi/model.onnx' } };
    const catalog = voiceCatalogFromJson(json, 'm.json');
    expect(catalog.voicePacks()).toEqual([
      { voiceName: 'meera', language: 'hi-IN', engine: 'piper', path: 'packs/hi/model.onnx', sha256: undefined, options: {} },
      { voiceName: 'meera', language: 'te-IN', engine: 'piper', path: 'packs/te/model.onnx', sha256: SHA, options: { speaker: 3 } },
    ]);
    const plain = loadVoiceCatalog(manifestPath);
    expect(catalog.groupByLanguage()).toEqual(plain.groupByLanguage());
    expect(catalog.groupByVoice()).toEqual(plain.groupByVoice());
  });

  it('refuses malformed packs naming the field', () => {
    const json = manifest();
    voice(json, 'aarav').packs = { 'hi-IN': { path: 'x.onnx', speaker: -1, sha256: 'xyz', extra: true } };
    const message = (() => {
      try {
        voiceCatalogFromJson(json, 'm.json');
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/packs\.hi-IN\.sha256: sha256 must be 64 lowercase hex digits/);
    expect(message).toMatch(/packs\.hi-IN\.speaker: /);
    expect(message).toMatch(/packs\.hi-IN: Unrecognized key: "extra"/);
    voice(json, 'aarav').packs = { 'hi-IN': { engine: 'festival', path: 'x.scm' } };
    expect(() => voiceCatalogFromJson(json, 'm.json')).toThrow(/packs\.hi-IN\.engine: engine 'festival' is not one of piper/);
  });

  it('refuses a pack for a language the voice does not speak', () => {
    const json = manifest();
    Object.assign(voice(json, 'aarav'), { languages: ['en-IN', 'hi-IN'], packs: { 'ta-IN': { path: 'packs/ta/model.onnx' } } });
    expect(() => voiceCatalogFromJson(json, 'm.json')).toThrow(/packs\.ta-IN: voice aarav does not speak ta-IN/);
  });
});

describe('pack files outside RAAGA_MODELS_DIR are not a manifest error', () => {
  const modelsDir = mkdtempSync(join(tmpdir(), 'raaga-models-confined-'));
  const manifestFile = join(modelsDir, 'raaga-v1', 'manifest.json');
  mkdirSync(join(modelsDir, 'raaga-v1'));
  afterAll(() => rmSync(modelsDir, { recursive: true, force: true }));

  // The engine refuses such a pack at start, naming the file, and its pair falls back: the server still starts
  // (test/integration/engine/pack-files-outside.test.ts). The manifest loads, with the pack as written.
  it.each([
    ['an absolute path elsewhere', '/etc/passwd'],
    ['../ leading out', '../outside/model.onnx'],
    ['../ leading out after a step in', 'packs/../../elsewhere/model.onnx'],
  ])("loads a pack's path given as %s, leaving it to the engine", (_label, path) => {
    const json = manifest();
    voice(json, 'aarav').packs = { 'hi-IN': { engine: 'piper', path, speaker: 0 }, 'en-IN': { engine: 'kokoro', path: 'packs/kokoro/model.onnx', style: '/tmp/af_heart.bin' } };
    writeFileSync(manifestFile, JSON.stringify(json));
    expect(loadVoiceCatalog(manifestFile).voicePacks().map((pack) => [pack.language, pack.path, pack.options])).toEqual([
      ['en-IN', 'packs/kokoro/model.onnx', { style: '/tmp/af_heart.bin' }],
      ['hi-IN', path, { speaker: 0 }],
    ]);
  });
});
