// Voice packs in the voice bank manifest: per voice, per language, {engine, path, sha256, the engine's own fields};
// listed in manifest order; an unknown engine or bad engine fields refused; checked against the voice's languages;
// files outside RAAGA_MODELS_DIR refused; absent from GET /v1/voices.

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

describe('pack files stay inside RAAGA_MODELS_DIR', () => {
  const modelsDir = mkdtempSync(join(tmpdir(), 'raaga-models-confined-'));
  const manifestFile = join(modelsDir, 'raaga-v1', 'manifest.json');
  mkdirSync(join(modelsDir, 'raaga-v1'));
  afterAll(() => rmSync(modelsDir, { recursive: true, force: true }));

  /** The repo manifest with the given packs for aarav, written where the server reads it; the load's message. */
  const loadWith = (packs: Record<string, unknown>): string => {
    const json = manifest();
    voice(json, 'aarav').packs = packs;
    writeFileSync(manifestFile, JSON.stringify(json));
    try {
      loadVoiceCatalog(manifestFile);
      return 'loaded';
    } catch (error) {
      expect(error).toBeInstanceOf(VoiceCatalogError);
      return (error as Error).message;
    }
  };
  const aarav = manifest().voices.findIndex((v) => v.voice_name === 'aarav');
  const outside = (field: string, value: string, language = 'hi-IN') =>
    `voices[${aarav}].packs.${language}.${field}: '${value}' (voice aarav, ${language}) is outside RAAGA_MODELS_DIR (${modelsDir}); a pack's files live under it: write the path relative to it, e.g. packs/<name>/<file>`;

  it.each([
    ['an absolute path elsewhere', '/etc/passwd'],
    ['../ leading out', '../outside/model.onnx'],
    ['../ leading out after a step in', 'packs/../../elsewhere/model.onnx'],
    ['the directory itself', '.'],
  ])("refuses a pack's path as %s, naming the entry", (_label, path) => {
    expect(loadWith({ 'hi-IN': { engine: 'piper', path, speaker: 0 } })).toBe(`voice bank manifest ${manifestFile} is invalid:\n  ${outside('path', path)}`);
  });

  it("refuses a Kokoro style file outside it, and reports every such file at once", () => {
    const message = loadWith({
      'hi-IN': { engine: 'kokoro', path: 'packs/kokoro/model.onnx', style: '../../home/someone/hf_alpha.bin' },
      'en-IN': { engine: 'kokoro', path: '/srv/models/kokoro.onnx', style: '/tmp/af_heart.bin' },
    });
    expect(message.split('\n')[0]).toBe(`voice bank manifest ${manifestFile} is invalid:`);
    expect(message.split('\n').slice(1).sort()).toEqual(
      [`  ${outside('style', '../../home/someone/hf_alpha.bin')}`, `  ${outside('path', '/srv/models/kokoro.onnx', 'en-IN')}`, `  ${outside('style', '/tmp/af_heart.bin', 'en-IN')}`].sort(),
    );
  });

  it('accepts relative paths under it and absolute ones inside it', () => {
    expect(
      loadWith({
        'hi-IN': { engine: 'kokoro', path: join(modelsDir, 'packs', 'kokoro', 'model.onnx'), style: 'packs/kokoro-voice/hf_alpha.bin' },
        'en-IN': { engine: 'piper', path: 'packs/x/../y/model.onnx', speaker: 0 },
        'ta-IN': { engine: 'flite', path: '..voice.flitevox' },
      }),
    ).toBe('loaded');
    // The check needs the models directory: a manifest parsed without one (a document, not a load) is not confined.
    const json = manifest();
    voice(json, 'aarav').packs = { 'hi-IN': { path: '/etc/passwd' } };
    expect(() => voiceCatalogFromJson(json, 'm.json')).not.toThrow();
    expect(() => voiceCatalogFromJson(json, 'm.json', modelsDir)).toThrow(`voices[${aarav}].packs.hi-IN.path: '/etc/passwd' (voice aarav, hi-IN) is outside RAAGA_MODELS_DIR`);
  });
});
