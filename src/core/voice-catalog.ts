// The preset voice roster, loaded once at start-up from the voice bank manifest: which voice + language pairs
// exist, the engine parameters of each voice, and the two GET /v1/voices shapes.

import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import type { PackRequest } from '../engine/build-engine-registry.js';
import type { EmbeddedVoice, EmbeddedVoiceParams } from '../engine/espeak/espeak-voice-params.js';
import { LANGUAGE_CODES, type LanguageCode } from '../languages.js';
import { type Manifest, ManifestSchema, packOptionsOf } from './voice-catalog-schema.js';

export type VoiceGender = 'male' | 'female';

export interface CatalogVoice {
  readonly name: string;
  readonly gender: VoiceGender;
}

/**
 * One installed voice pack: the voice + language pair it serves, its engine kind (`piper`, `flite`, `kokoro`), where
 * its main file is (as written in the manifest: relative to RAAGA_MODELS_DIR, or absolute inside it) and the engine's own
 * fields (Piper's `speaker`, Kokoro's `style`). The engine registry takes it with the path made absolute.
 */
export type CatalogVoicePack = PackRequest;

export type VoicesByLanguage = Record<string, { voice_name: string; gender: VoiceGender }[]>;
export type VoicesByVoice = Record<string, { gender: VoiceGender; languages: string[] }>;

export interface VoiceCatalog {
  readonly modelId: string;
  /** Every preset voice, in manifest order. */
  voices(): readonly CatalogVoice[];
  languages(): readonly LanguageCode[];
  hasPair(voice: string, language: string): boolean;
  /** Every voice's eSpeak parameters, by name, in manifest order (the embedded engine's voices). */
  embeddedVoices(): readonly EmbeddedVoice[];
  /** eSpeak language id per language, as the manifest states it. */
  embeddedLanguageIds(): Readonly<Record<LanguageCode, string>>;
  /** Installed packs of the voice + language pairs that have one, in manifest order; every other pair is embedded-only. */
  voicePacks(): readonly CatalogVoicePack[];
  /** GET /v1/voices?group_by=language: a fresh object per call, safe to serialise or change. */
  groupByLanguage(): VoicesByLanguage;
  /** GET /v1/voices?group_by=voice. */
  groupByVoice(): VoicesByVoice;
}

export class VoiceCatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VoiceCatalogError';
  }
}

interface VoiceEntry {
  readonly name: string;
  readonly gender: VoiceGender;
  readonly languages: readonly LanguageCode[];
  readonly params: EmbeddedVoiceParams;
}

/**
 * Reads and validates the manifest; throws VoiceCatalogError naming the file and the offending field. Where a pack's
 * files are is not a manifest error: a pack whose file lies outside RAAGA_MODELS_DIR is refused by its engine at start
 * (engine/pack-checks.ts), naming the file, and only its pair falls back to the embedded engine.
 */
export function loadVoiceCatalog(manifestPath: string): VoiceCatalog {
  let text: string;
  try {
    text = readFileSync(manifestPath, 'utf8');
  } catch (error) {
    throw new VoiceCatalogError(`voice bank manifest ${manifestPath} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new VoiceCatalogError(`voice bank manifest ${manifestPath} is not valid JSON: ${(error as Error).message}`);
  }
  return voiceCatalogFromJson(json, manifestPath);
}

/** Validates an already-parsed manifest; `source` names it in error messages. */
export function voiceCatalogFromJson(json: unknown, source: string): VoiceCatalog {
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${formatPath(issue.path)}: ${issue.message}`);
    throw new VoiceCatalogError(`voice bank manifest ${source} is invalid:\n${problems.join('\n')}`);
  }
  return buildCatalog(parsed.data);
}

function formatPath(path: z.core.$ZodIssue['path']): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

function buildCatalog(manifest: Manifest): VoiceCatalog {
  // Keep the spec's language order regardless of the manifest's.
  const languages = LANGUAGE_CODES.filter((code) => manifest.languages.some((language) => language.code === code));
  const languageIds = Object.fromEntries(manifest.languages.map((language) => [language.code, language.embedded.espeakId])) as Record<
    LanguageCode,
    string
  >;
  const entries: VoiceEntry[] = manifest.voices.map((voice) => ({
    name: voice.voice_name,
    gender: voice.gender,
    languages: voice.languages === undefined ? languages : languages.filter((code) => voice.languages?.includes(code)),
    params: deepFreeze({ ...voice.embedded, formants: voice.embedded.formants.map(([f, s]) => [f, s] as const) }),
  }));
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const packs: readonly CatalogVoicePack[] = Object.freeze(
    manifest.voices.flatMap((voice) =>
      LANGUAGE_CODES.flatMap((language) => {
        const pack = voice.packs?.[language];
        if (pack === undefined || !byName.get(voice.voice_name)?.languages.includes(language)) return [];
        return [Object.freeze({ voiceName: voice.voice_name, language, engine: pack.engine, path: pack.path, sha256: pack.sha256, options: Object.freeze(packOptionsOf(pack)) })];
      }),
    ),
  );
  const voices: readonly CatalogVoice[] = Object.freeze(entries.map((entry) => Object.freeze({ name: entry.name, gender: entry.gender })));
  const embedded: readonly EmbeddedVoice[] = Object.freeze(entries.map((entry) => Object.freeze({ name: entry.name, params: entry.params })));
  Object.freeze(languages);
  Object.freeze(languageIds);

  return {
    modelId: manifest.model_id,
    voices: () => voices,
    languages: () => languages,
    hasPair: (voice, language) => byName.get(voice)?.languages.includes(language as LanguageCode) ?? false,
    embeddedVoices: () => embedded,
    embeddedLanguageIds: () => languageIds,
    voicePacks: () => packs,
    groupByLanguage: () => {
      const grouped: VoicesByLanguage = {};
      for (const language of languages) {
        grouped[language] = entries
          .filter((entry) => entry.languages.includes(language))
          .map((entry) => ({ voice_name: entry.name, gender: entry.gender }));
      }
      return grouped;
    },
    groupByVoice: () => {
      const grouped: VoicesByVoice = {};
      for (const entry of entries) grouped[entry.name] = { gender: entry.gender, languages: [...entry.languages] };
      return grouped;
    },
  };
}

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) {
    if (typeof inner === 'object' && inner !== null) deepFreeze(inner as object);
  }
  return Object.freeze(value);
}
