// An account's pronunciation lexicons as the stores keep them: named lists of entries per language, each a word or
// phrase (`grapheme`) and what to say instead (an `alias`, or `phoneme`s in an alphabet). The store checks their shape
// and the caps (names, lengths, entries per lexicon, lexicons per account) the same way in SQLite and Redis; what an
// entry may mean (its script, loops, phoneme symbols) is core/lexicons/lexicon-rules.ts's to say before it is written.

import { z } from 'zod';
import { LANGUAGE_CODES, type LanguageCode } from '../languages.js';

/** The lexicon every account has, applied to every request whether it names lexicons or not. */
export const DEFAULT_LEXICON = 'default';

/** Lower-case letters, digits, `_` and `-`: safe in URLs, Redis key names and shells. */
export const LEXICON_NAME_PATTERN = /^[a-z0-9_-]{1,64}$/;

/**
 * The caps every store enforces (docs/lexicons.md, "Limits"). Lengths are Unicode code points; lexicons per account
 * count those besides `default`.
 */
export const LEXICON_LIMITS = {
  lexiconsPerAccount: 20,
  entriesPerLexicon: 10_000,
  graphemeCodePoints: 100,
  aliasCodePoints: 200,
  phonemeCodePoints: 200,
} as const;

export const PHONEME_ALPHABETS = ['ipa', 'x-sampa'] as const;
export type PhonemeAlphabet = (typeof PHONEME_ALPHABETS)[number];

/** Say `alias` (any script) instead of `grapheme`. */
export interface AliasEntry {
  readonly language: LanguageCode;
  readonly grapheme: string;
  readonly alias: string;
}

/** Say `phoneme` (in `alphabet`) instead of `grapheme`, where the engine takes phonemes. */
export interface PhonemeEntry {
  readonly language: LanguageCode;
  readonly grapheme: string;
  readonly phoneme: string;
  readonly alphabet: PhonemeAlphabet;
}

export type LexiconEntry = AliasEntry | PhonemeEntry;

/** Which entry to remove: an entry is named by its language and grapheme (Latin letters in any case). */
export interface LexiconEntryRef {
  readonly language: LanguageCode;
  readonly grapheme: string;
}

export interface LexiconSummary {
  readonly name: string;
  readonly entryCount: number;
  /** The account's lexicon version (lexiconVersion) right after this lexicon last changed: grows with each change. */
  readonly revision: number;
  readonly updatedAtMs: number;
}

export interface StoredLexicon extends LexiconSummary {
  /** In a stable order: by language, then by grapheme key. */
  readonly entries: readonly LexiconEntry[];
}

/** A batch of changes made in one step: `remove` first, then `put` (an entry with the same key is replaced). */
export interface LexiconEdit {
  readonly put: readonly LexiconEntry[];
  readonly remove: readonly LexiconEntryRef[];
}

/** A cap was reached (lexicons per account, entries per lexicon): nothing of the change was stored. */
export class LexiconLimitError extends Error {
  constructor(
    readonly limit: keyof typeof LEXICON_LIMITS,
    message: string,
  ) {
    super(message);
    this.name = 'LexiconLimitError';
  }
}

/** The cap of lexicons per account counts those besides `default`, which always exists. */
export function lexiconsPerAccountMessage(): string {
  return `the account already has ${LEXICON_LIMITS.lexiconsPerAccount} lexicons besides '${DEFAULT_LEXICON}', the most it may keep; delete one first`;
}

export function entriesPerLexiconMessage(name: string, count: number): string {
  return `lexicon '${name}' would hold ${count} entries; a lexicon holds at most ${LEXICON_LIMITS.entriesPerLexicon}`;
}

export function isAliasEntry(entry: LexiconEntry): entry is AliasEntry {
  return 'alias' in entry;
}

/**
 * What makes two entries the same entry: their language and their grapheme in lower case (`HDFC` and `hdfc` are
 * one entry). Graphemes reach the store already in their canonical form (NFC, one space between words).
 */
export function lexiconEntryKey(entry: LexiconEntryRef): string {
  return `${entry.language}\u0000${entry.grapheme.toLowerCase()}`;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

const text = (max: number) =>
  z
    .string()
    .refine((value) => value.trim() !== '', 'must not be empty')
    .refine((value) => codePoints(value) <= max, `must be at most ${max} characters`);

const LanguageSchema = z.enum(LANGUAGE_CODES);

export const LexiconEntrySchema = z.union([
  z.strictObject({ language: LanguageSchema, grapheme: text(LEXICON_LIMITS.graphemeCodePoints), alias: text(LEXICON_LIMITS.aliasCodePoints) }),
  z.strictObject({
    language: LanguageSchema,
    grapheme: text(LEXICON_LIMITS.graphemeCodePoints),
    phoneme: text(LEXICON_LIMITS.phonemeCodePoints),
    alphabet: z.enum(PHONEME_ALPHABETS),
  }),
]);

/** A lexicon in `raaga store export|import` documents. */
export const LexiconSnapshotSchema = z.object({
  accountId: z.string(),
  name: z.string().regex(LEXICON_NAME_PATTERN),
  updatedAtMs: z.number().int(),
  entries: z.array(LexiconEntrySchema).max(LEXICON_LIMITS.entriesPerLexicon),
});

export function assertLexiconName(name: string): void {
  if (!LEXICON_NAME_PATTERN.test(name)) throw new Error(`invalid lexicon name ${JSON.stringify(name)}: use 1-64 of a-z, 0-9, _ and -`);
}

/** Throws for an entry no store may keep (its shape and lengths; the meaning is core's to check first). */
export function assertLexiconEntry(entry: LexiconEntry, at: string): void {
  const parsed = LexiconEntrySchema.safeParse(entry);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  throw new Error(`invalid lexicon entry ${at}: ${issue ? `${issue.path.join('.') || 'entry'} ${issue.message}` : 'invalid'}`);
}

/** Throws unless the entries fit one lexicon: each well formed, at most the cap, no two with the same key. */
export function assertLexiconEntries(entries: readonly LexiconEntry[]): void {
  if (entries.length > LEXICON_LIMITS.entriesPerLexicon) {
    throw new LexiconLimitError('entriesPerLexicon', `a lexicon holds at most ${LEXICON_LIMITS.entriesPerLexicon} entries, got ${entries.length}`);
  }
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    assertLexiconEntry(entry, `#${index + 1}`);
    const key = lexiconEntryKey(entry);
    if (seen.has(key)) throw new Error(`lexicon entry #${index + 1} (${entry.language} '${entry.grapheme}') repeats an earlier entry`);
    seen.add(key);
  });
}

export function assertLexiconEdit(edit: LexiconEdit): void {
  edit.put.forEach((entry, index) => assertLexiconEntry(entry, `put #${index + 1}`));
  const seen = new Set<string>();
  edit.put.forEach((entry, index) => {
    const key = lexiconEntryKey(entry);
    if (seen.has(key)) throw new Error(`lexicon entry put #${index + 1} (${entry.language} '${entry.grapheme}') repeats an earlier one`);
    seen.add(key);
  });
  for (const ref of edit.remove) {
    if (!LANGUAGE_CODES.includes(ref.language) || typeof ref.grapheme !== 'string') throw new Error('a removal names a language and a grapheme');
  }
}

/**
 * Entries in the stores' stable order: by key (language, then the lower-case grapheme), keys being unique in a
 * lexicon. The keys are sorted with the default comparison (UTF-16 order, as `<`), several times faster than a callback.
 */
export function sortedEntries(entries: Iterable<LexiconEntry>): LexiconEntry[] {
  const byKey = new Map<string, LexiconEntry>();
  for (const entry of entries) byKey.set(lexiconEntryKey(entry), entry);
  return [...byKey.keys()].sort().map((key) => byKey.get(key) as LexiconEntry);
}

/** An entry with only its own fields (a row or JSON may carry more). */
export function entryOf(raw: { language: string; grapheme: string; alias?: string | null; phoneme?: string | null; alphabet?: string | null }): LexiconEntry {
  const language = raw.language as LanguageCode;
  if (raw.alias !== undefined && raw.alias !== null) return { language, grapheme: raw.grapheme, alias: raw.alias };
  return { language, grapheme: raw.grapheme, phoneme: raw.phoneme ?? '', alphabet: (raw.alphabet ?? 'ipa') as PhonemeAlphabet };
}
