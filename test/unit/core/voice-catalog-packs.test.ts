// Neural voice packs in the voice bank manifest: per voice, per language, {path, speaker, sha256}; listed in
// manifest order; checked against the voice's languages; absent from GET /v1/voices.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadVoiceCatalog, voiceCatalogFromJson } from '../../../src/core/voice-catalog.js';

const manifestPath = new URL('../../../models/raaga-v1/manifest.json', import.meta.url).pathname;
type ManifestJson = { voices: ({ voice_name: string } & Record<string, unknown>)[] };
const manifest = () => JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestJson;
const voice = (json: ManifestJson, name: string) => json.voices.find((v) => v.voice_name === name)!;
const SHA = 'a'.repeat(64);

describe('voice packs in the catalog', () => {
  it('ships with no packs: every pair is embedded', () => {
    expect(loadVoiceCatalog(manifestPath).voicePacks()).toEqual([]);
  });

  it('lists packs with speaker defaulting to 0, and leaves GET /v1/voices unchanged', () => {
    const json = manifest();
    voice(json, 'meera').packs = { 'te-IN': { path: 'packs/te/model.onnx', speaker: 3, sha256: SHA }, 'hi-IN': { path: 'packs/hi/model.onnx' } };
    const catalog = voiceCatalogFromJson(json, 'm.json');
    expect(catalog.voicePacks()).toEqual([
      { voiceName: 'meera', language: 'hi-IN', path: 'packs/hi/model.onnx', speaker: 0, sha256: undefined },
      { voiceName: 'meera', language: 'te-IN', path: 'packs/te/model.onnx', speaker: 3, sha256: SHA },
    ]);
    const plain = loadVoiceCatalog(manifestPath);
    expect(catalog.groupByLanguage()).toEqual(plain.groupByLanguage());
    expect(catalog.groupByVoice()).toEqual(plain.groupByVoice());
  });

  it('refuses malformed packs naming the field', () => {
    const json = manifest();
    voice(json, 'aarav').packs = { 'hi-IN': { path: 'x.onnx', speaker: -1, sha256: 'xyz', extra: true } };
    expect(() => voiceCatalogFromJson(json, 'm.json')).toThrow(/voices\[\d+\]\.packs\.hi-IN\.speaker[\s\S]*packs\.hi-IN\.sha256: sha256 must be 64 lowercase hex digits/);
  });

  it('refuses a pack for a language the voice does not speak', () => {
    const json = manifest();
    Object.assign(voice(json, 'aarav'), { languages: ['en-IN', 'hi-IN'], packs: { 'ta-IN': { path: 'packs/ta/model.onnx' } } });
    expect(() => voiceCatalogFromJson(json, 'm.json')).toThrow(/packs\.ta-IN: voice aarav does not speak ta-IN/);
  });
});
