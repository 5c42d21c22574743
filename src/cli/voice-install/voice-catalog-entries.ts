// The public voices Raaga knows how to install (catalog-entries.json, sources in docs/notes/voice-catalog-sources.md):
// their zod schema, read once and checked, and the look-ups `raaga voices catalog` and `voices install` make.

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PACK_ENGINES } from '../../engine/engines.js';
import { LANGUAGE_CODES, type LanguageCode } from '../../languages.js';
import { CHECKSUM_ALGORITHMS } from './download.js';

/** What an entry installs: a pack of an engine kind, or a part of one (Kokoro's voice, the model its voices share). */
export const CATALOG_KINDS: readonly string[] = PACK_ENGINES.flatMap((module) => module.catalogKinds);

const Language = z.enum(LANGUAGE_CODES);

const CatalogFileSchema = z.strictObject({
  // `.` and `..` match the characters but name a directory: downloaded to, they land outside the entry's own.
  name: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'a plain file name')
    .refine((name) => name !== '.' && name !== '..', 'a plain file name, not . or ..'),
  url: z.url({ protocol: /^https?$/ }),
  /** Null only where no size is published (the entry's notes say so). */
  size_bytes: z.number().int().positive().nullable(),
  checksum: z.strictObject({ algorithm: z.enum(CHECKSUM_ALGORITHMS), value: z.string().regex(/^[0-9a-f]+$/) }).nullable(),
  checksum_source: z.string().nullable(),
});

export const CatalogEntrySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  engine: z.string().refine((kind) => CATALOG_KINDS.includes(kind), { message: `must be one of ${CATALOG_KINDS.join(', ')}` }),
  languages: z.array(Language).min(1),
  gender: z.enum(['female', 'male']).nullable(),
  speaker: z.string().nullable(),
  licence: z.strictObject({ name: z.string(), spdx: z.string().nullable(), commercial_use: z.boolean().nullable(), url: z.string() }),
  files: z.array(CatalogFileSchema).min(1),
  quality: z.strictObject({ metric: z.enum(['MOS', 'grade']).nullable(), value: z.string(), source: z.string() }).nullable(),
  notes: z.string(),
  /** The preset voices this voice speaks for by default, per language (docs/voices.md has the table). */
  presets: z.partialRecord(Language, z.array(z.string()).min(1)),
});

export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;
export type CatalogFile = z.infer<typeof CatalogFileSchema>;

const ENTRIES_PATH = new URL('./catalog-entries.json', import.meta.url);

/** The entries of one catalog file, checked; a message naming the file and each bad field otherwise. */
function readEntries(path: string): CatalogEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`voice catalog ${path} cannot be read: ${(error as Error).message}`);
  }
  const parsed = z.array(CatalogEntrySchema).safeParse(json);
  if (!parsed.success) throw new Error(`voice catalog ${path} is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  return parsed.data;
}

/** The catalog Raaga ships, plus an operator's own entries (RAAGA_VOICE_CATALOG) after it. */
export class VoiceCatalogIndex {
  readonly entries: readonly CatalogEntry[];

  constructor(entries: readonly CatalogEntry[]) {
    const seen = new Set<string>();
    for (const entry of entries) {
      if (seen.has(entry.id)) throw new Error(`voice catalog: id '${entry.id}' appears twice (an operator's entry needs an id of its own)`);
      seen.add(entry.id);
    }
    this.entries = Object.freeze([...entries]);
  }

  static load(extraPath?: string | undefined): VoiceCatalogIndex {
    return new VoiceCatalogIndex([...readEntries(ENTRIES_PATH.pathname), ...(extraPath === undefined ? [] : readEntries(extraPath))]);
  }

  entry(id: string): CatalogEntry | undefined {
    return this.entries.find((entry) => entry.id === id);
  }

  /** An unknown id's refusal: names the id and the ids sharing its longest prefix, so a typo is easy to fix. */
  unknownEntryMessage(id: string): string {
    const shared = (other: string): number => {
      let n = 0;
      while (n < id.length && id[n] === other[n]) n++;
      return n;
    };
    const best = Math.max(0, ...this.entries.map((entry) => shared(entry.id)));
    const near = best < 4 ? [] : this.entries.filter((entry) => shared(entry.id) === best).slice(0, 6).map((entry) => entry.id);
    return `'${id}' is not in the voice catalog${near.length > 0 ? `; did you mean ${near.join(', ')}?` : ''} (raaga voices catalog lists them)`;
  }
}

/** True when the licence allows commercial use; false or unknown needs the operator's --accept-licence. */
export function needsLicenceAcceptance(entry: CatalogEntry): boolean {
  return entry.licence.commercial_use !== true;
}

export function entryLanguage(entry: CatalogEntry, asked: LanguageCode | undefined): LanguageCode {
  if (asked !== undefined) {
    if (!entry.languages.includes(asked)) throw new Error(`${entry.id} speaks ${entry.languages.join(', ')}, not ${asked}`);
    return asked;
  }
  const [only, ...more] = entry.languages;
  if (only === undefined || more.length > 0) throw new Error(`${entry.id} speaks ${entry.languages.join(', ')}: choose one with --language`);
  return only;
}
