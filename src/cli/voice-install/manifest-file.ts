// Reads and rewrites the voice bank manifest for `raaga voices add`: records one pack, validates the whole result
// with the server's own schema, and replaces the file atomically (temp file + rename) in its hand-written layout.

import { open, readFile, rename, rm } from 'node:fs/promises';
import { voiceCatalogFromJson, type VoiceCatalog } from '../../core/voice-catalog.js';
import type { LanguageCode } from '../../languages.js';

export interface ManifestFile {
  readonly path: string;
  readonly json: { voices: { voice_name: string; packs?: Record<string, unknown> }[] } & Record<string, unknown>;
  readonly catalog: VoiceCatalog;
}

export async function readManifestFile(path: string): Promise<ManifestFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`voice bank manifest ${path} cannot be read (set RAAGA_MODELS_DIR): ${(error as Error).message}`);
  }
  let json: ManifestFile['json'];
  try {
    json = JSON.parse(text) as ManifestFile['json'];
  } catch (error) {
    throw new Error(`voice bank manifest ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return { path, json, catalog: voiceCatalogFromJson(json, path) };
}

/** A pack to record: its engine kind, main file, that file's sha256, and the engine's own fields. */
export interface PackRecord {
  readonly engine: string;
  readonly path: string;
  readonly sha256?: string | undefined;
  readonly options?: Readonly<Record<string, unknown>>;
}

/** Sets `voices[voice].packs[language]`, validates (the engine's own fields too), and writes the manifest atomically. */
export async function recordPack(file: ManifestFile, voiceName: string, language: LanguageCode, pack: PackRecord): Promise<void> {
  await recordPacks(file, [{ voiceName, language, pack }]);
}

/** Records several packs in one atomic write: a catalog install gives every preset of a voice at once, or none. */
export async function recordPacks(file: ManifestFile, packs: readonly { readonly voiceName: string; readonly language: LanguageCode; readonly pack: PackRecord }[]): Promise<void> {
  const json = structuredClone(file.json);
  for (const { voiceName, language, pack } of packs) {
    const voice = json.voices.find((candidate) => candidate.voice_name === voiceName);
    if (voice === undefined) throw new Error(`voice ${voiceName} is not in ${file.path}`);
    voice.packs = { ...voice.packs, [language]: { engine: pack.engine, path: pack.path, ...pack.options, ...(pack.sha256 === undefined ? {} : { sha256: pack.sha256 }) } };
  }
  voiceCatalogFromJson(json, file.path);
  const temp = `${file.path}.tmp-${process.pid}`;
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(`${formatManifest(json)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // rename is atomic within a directory: a reader (the server starting) sees the old or the new manifest.
    await rename(temp, file.path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * JSON with two-space indents, laid out like the committed manifest so a pack install is a small diff: arrays of
 * numbers (formants) on one line, and small leaf objects three levels deep (`"embedded": { "espeakId": "hi" }`) inline.
 */
export function formatManifest(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const numeric = (v: unknown): boolean => typeof v === 'number' || (Array.isArray(v) && v.every((x) => typeof x === 'number'));
  if (Array.isArray(value) && value.every(numeric)) return JSON.stringify(value).replace(/,/g, ', ');
  const entries: [string | null, unknown][] = Array.isArray(value) ? value.map((v) => [null, v]) : Object.entries(value);
  if (entries.length === 0) return Array.isArray(value) ? '[]' : '{}';
  const leaf = !Array.isArray(value) && entries.every(([, v]) => v === null || typeof v !== 'object');
  if (leaf && entries.length <= 2 && indent.length >= 6) {
    return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')} }`;
  }
  const inner = `${indent}  `;
  const lines = entries.map(([k, v]) => `${inner}${k === null ? '' : `${JSON.stringify(k)}: `}${formatManifest(v, inner)}`);
  const [opening, closing] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${opening}\n${lines.join(',\n')}\n${indent}${closing}`;
}
