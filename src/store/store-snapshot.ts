// The store as one JSON document: the format of `raaga store export|import` and of store.json, the file of the
// embedded store before SQLite (imported once, src/store/sqlite/store-json-import.ts). Its zod schema and the strict
// loader: a corrupt file is an error naming what is wrong, never a silent reset.

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { LexiconSnapshotSchema } from './lexicon.js';
import { ACCOUNT_ID_PATTERN } from './store.js';
import { StoredTelephonySettingsSchema } from './telephony-settings.js';

const PlanSchema = z.enum(['free', 'developer', 'growth']);
const AccountIdSchema = z.string().regex(ACCOUNT_ID_PATTERN);

export const StoreSnapshotSchema = z.object({
  version: z.literal(1),
  accounts: z.array(
    z.object({
      id: AccountIdSchema,
      plan: PlanSchema,
      credits: z.number().int().nonnegative(),
      createdAtMs: z.number().int(),
    }),
  ),
  keys: z.array(
    z.object({
      hash: z.string().regex(/^[0-9a-f]{64}$/),
      accountId: AccountIdSchema,
      revoked: z.boolean(),
    }),
  ),
  voices: z.array(
    z.object({
      id: z.string().startsWith('vc_'),
      accountId: AccountIdSchema,
      name: z.string(),
      baseVoice: z.string().min(1),
      pitchShiftSemitones: z.number().min(-12).max(12),
      rateMultiplier: z.number().min(0.8).max(1.25),
      createdAtMs: z.number().int(),
    }),
  ),
  /** Optional so files written before telephony existed still load; records from before the credentials map are migrated. */
  telephony: z.array(StoredTelephonySettingsSchema).optional(),
  /** Optional so files written before lexicons existed still load. */
  lexicons: z.array(LexiconSnapshotSchema).optional(),
});

export type StoreSnapshot = z.infer<typeof StoreSnapshotSchema>;

export class StoreFileError extends Error {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(
      `store file ${path} is unreadable: ${problem}. Refusing to start with an empty store; ` +
        'restore a backup or move the file away deliberately.',
    );
    this.name = 'StoreFileError';
    this.path = path;
  }
}

/**
 * Reads and validates a snapshot; null when the file does not exist (a fresh data dir). Synchronous because
 * it runs once at startup, before anything is served.
 */
export function readSnapshot(path: string): StoreSnapshot | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StoreFileError(path, (error as Error).message);
  }
  try {
    return parseSnapshot(text);
  } catch (error) {
    throw new StoreFileError(path, (error as Error).message);
  }
}

/** Parses and checks a snapshot document; throws an Error whose message names the first problem. */
export function parseSnapshot(text: string): StoreSnapshot {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`invalid JSON (${(error as Error).message})`);
  }
  const parsed = StoreSnapshotSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first ? first.path.map(String).join('.') || '(root)' : '(root)';
    throw new Error(`${where}: ${first?.message ?? 'invalid'}`);
  }
  const snapshot = parsed.data;
  const ids = new Set<string>();
  for (const account of snapshot.accounts) {
    if (ids.has(account.id)) throw new Error(`duplicate account ${account.id}`);
    ids.add(account.id);
  }
  for (const key of snapshot.keys) {
    if (!ids.has(key.accountId)) throw new Error(`a key belongs to unknown account ${key.accountId}`);
  }
  for (const voice of snapshot.voices) {
    if (!ids.has(voice.accountId)) throw new Error(`voice ${voice.id} belongs to unknown account`);
  }
  for (const settings of snapshot.telephony ?? []) {
    if (!ids.has(settings.accountId)) throw new Error('telephony settings belong to an unknown account');
  }
  const lexicons = new Set<string>();
  for (const lexicon of snapshot.lexicons ?? []) {
    if (!ids.has(lexicon.accountId)) throw new Error(`lexicon ${lexicon.name} belongs to unknown account ${lexicon.accountId}`);
    const key = `${lexicon.accountId}/${lexicon.name}`;
    if (lexicons.has(key)) throw new Error(`duplicate lexicon ${lexicon.name} of account ${lexicon.accountId}`);
    lexicons.add(key);
  }
  return snapshot;
}
