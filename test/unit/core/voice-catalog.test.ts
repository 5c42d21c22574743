// The voice bank manifest as the catalog sees it: the shipped raaga-v1 roster, the GET /v1/voices shapes,
// and clear errors (file and field) for a broken manifest.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadVoiceCatalog, VoiceCatalogError, voiceCatalogFromJson } from '../../../src/core/voice-catalog.js';
import { LANGUAGE_CODES } from '../../../src/languages.js';

const manifestPath = new URL('../../../models/raaga-v1/manifest.json', import.meta.url).pathname;
const catalog = loadVoiceCatalog(manifestPath);
const manifest = () => JSON.parse(readFileSync(manifestPath, 'utf8')) as { voices: Record<string, unknown>[]; languages: unknown[] };

describe('raaga-v1 catalog', () => {
  it('holds sixteen lowercase voices, eight male and eight female, in all eight languages', () => {
    const voices = catalog.voices();
    expect(catalog.modelId).toBe('raaga-v1');
    expect(voices).toHaveLength(16);
    expect(voices.filter((v) => v.gender === 'male')).toHaveLength(8);
    expect(voices.filter((v) => v.gender === 'female')).toHaveLength(8);
    expect(new Set(voices.map((v) => v.name)).size).toBe(16);
    for (const { name } of voices) expect(name).toMatch(/^[a-z]+$/);
    expect(catalog.languages()).toEqual(LANGUAGE_CODES);
  });

  it('validates voice + language pairs', () => {
    for (const { name } of catalog.voices()) {
      for (const language of LANGUAGE_CODES) expect(catalog.hasPair(name, language)).toBe(true);
    }
    expect(catalog.hasPair('aarav', 'fr-FR')).toBe(false);
    expect(catalog.hasPair('nobody', 'hi-IN')).toBe(false);
    expect(catalog.hasPair('vc_123', 'hi-IN')).toBe(false);
  });

  it('gives each voice distinct embedded parameters with pitch in its gender band', () => {
    const seen = new Set<string>();
    const embedded = new Map(catalog.embeddedVoices().map((voice) => [voice.name, voice.params]));
    for (const { name, gender } of catalog.voices()) {
      const params = embedded.get(name);
      expect(params, name).toBeDefined();
      if (params === undefined) continue;
      if (gender === 'male') expect(params.pitchBaseHz).toBeLessThan(140);
      else expect(params.pitchBaseHz).toBeGreaterThan(150);
      expect(params.formants).toHaveLength(6);
      seen.add(JSON.stringify(params));
    }
    expect(seen.size).toBe(16);
    expect(embedded.has('nobody')).toBe(false);
    expect(catalog.embeddedVoices()).toHaveLength(16);
    expect(catalog.embeddedLanguageIds()).toMatchObject({ 'en-IN': 'en', 'hi-IN': 'hi', 'bn-IN': 'bn' });
  });

  it('groups by language as {lang: [{voice_name, gender}]}', () => {
    const grouped = catalog.groupByLanguage();
    expect(Object.keys(grouped)).toEqual([...LANGUAGE_CODES]);
    for (const entries of Object.values(grouped)) {
      expect(entries).toHaveLength(16);
      for (const entry of entries) expect(Object.keys(entry).sort()).toEqual(['gender', 'voice_name']);
    }
    expect(grouped['hi-IN']).toContainEqual({ voice_name: 'aarav', gender: 'male' });
  });

  it('groups by voice as {voice_name: {gender, languages}}', () => {
    const grouped = catalog.groupByVoice();
    expect(Object.keys(grouped)).toHaveLength(16);
    expect(grouped['meera']).toEqual({ gender: 'female', languages: [...LANGUAGE_CODES] });
    // Callers may serialise or change the result without touching the catalog.
    grouped['meera']?.languages.pop();
    expect(catalog.groupByVoice()['meera']?.languages).toHaveLength(8);
  });

  it('honours a voice-level language list', () => {
    const data = manifest();
    data.voices[0] = { ...data.voices[0], languages: ['hi-IN', 'en-IN'] };
    const partial = voiceCatalogFromJson(data, 'test.json');
    const name = partial.voices()[0]!.name;
    expect(partial.hasPair(name, 'hi-IN')).toBe(true);
    expect(partial.hasPair(name, 'ta-IN')).toBe(false);
    expect(partial.groupByVoice()[name]?.languages).toEqual(['en-IN', 'hi-IN']);
    expect(partial.groupByLanguage()['ta-IN']).toHaveLength(15);
  });
});

describe('broken manifests', () => {
  function brokenFile(content: string): string {
    const path = join(mkdtempSync(join(tmpdir(), 'raaga-catalog-')), 'manifest.json');
    writeFileSync(path, content);
    return path;
  }

  it('names the file and the field of a bad value', () => {
    const data = manifest();
    (data.voices[3] as { embedded: { pitchBaseHz: unknown } }).embedded.pitchBaseHz = 'low';
    const path = brokenFile(JSON.stringify(data));
    expect(() => loadVoiceCatalog(path)).toThrow(VoiceCatalogError);
    expect(() => loadVoiceCatalog(path)).toThrow(path);
    expect(() => loadVoiceCatalog(path)).toThrow('voices[3].embedded.pitchBaseHz');
  });

  it('refuses a roster that is not sixteen voices, eight per gender', () => {
    const data = manifest();
    data.voices.pop();
    expect(() => voiceCatalogFromJson(data, 'short.json')).toThrow(/16 voices, 8 male and 8 female; found 15/);
    const swapped = manifest();
    swapped.voices[0] = { ...swapped.voices[0], gender: 'female' };
    expect(() => voiceCatalogFromJson(swapped, 'swapped.json')).toThrow(/7 male, 9 female/);
  });

  it('refuses duplicate names, bad names, a missing language and unknown fields', () => {
    const dup = manifest();
    dup.voices[1] = { ...dup.voices[1], voice_name: dup.voices[0]!['voice_name'] };
    expect(() => voiceCatalogFromJson(dup, 'dup.json')).toThrow(/voices\[1\]\.voice_name: .*listed twice/);
    const upper = manifest();
    upper.voices[2] = { ...upper.voices[2], voice_name: 'Aarav' };
    expect(() => voiceCatalogFromJson(upper, 'upper.json')).toThrow(/voices\[2\]\.voice_name: voice_name must be lowercase/);
    const noBengali = manifest();
    noBengali.languages.pop();
    expect(() => voiceCatalogFromJson(noBengali, 'langs.json')).toThrow(/languages: language bn-IN is missing/);
    const extra = manifest();
    extra.voices[0] = { ...extra.voices[0], pitch: 3 };
    expect(() => voiceCatalogFromJson(extra, 'extra.json')).toThrow(/voices\[0\]/);
  });

  it('accepts per-language packs and rejects packs for unknown languages', () => {
    const data = manifest();
    data.voices[0] = { ...data.voices[0], packs: { 'hi-IN': { path: 'packs/aarav-hi.onnx' } } };
    expect(() => voiceCatalogFromJson(data, 'packs.json')).not.toThrow();
    data.voices[0] = { ...data.voices[0], packs: { 'fr-FR': { path: 'x.onnx' } } };
    expect(() => voiceCatalogFromJson(data, 'packs.json')).toThrow(/voices\[0\]\.packs/);
  });

  it('reports unreadable and non-JSON files with their path', () => {
    expect(() => loadVoiceCatalog('/nonexistent/manifest.json')).toThrow(/\/nonexistent\/manifest\.json cannot be read/);
    const path = brokenFile('{ not json');
    expect(() => loadVoiceCatalog(path)).toThrow(new RegExp(`${path} is not valid JSON`));
  });
});
