// The durable part of MemoryStore as one JSON file: its zod schema, the strict loader (a corrupt file is a
// startup error, never a silent reset) and the crash-safe writer (temp file + fsync + rename + fsync dir).

import { readFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ACCOUNT_ID_PATTERN } from './store.js';
import { TelephonySettingsSchema } from './telephony-settings.js';

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
  /** Optional so files written before telephony existed still load. */
  telephony: z.array(TelephonySettingsSchema).optional(),
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
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StoreFileError(path, `invalid JSON (${(error as Error).message})`);
  }
  const parsed = StoreSnapshotSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first ? first.path.map(String).join('.') || '(root)' : '(root)';
    throw new StoreFileError(path, `${where}: ${first?.message ?? 'invalid'}`);
  }
  const snapshot = parsed.data;
  const ids = new Set<string>();
  for (const account of snapshot.accounts) {
    if (ids.has(account.id)) throw new StoreFileError(path, `duplicate account ${account.id}`);
    ids.add(account.id);
  }
  for (const key of snapshot.keys) {
    if (!ids.has(key.accountId)) throw new StoreFileError(path, `a key belongs to unknown account ${key.accountId}`);
  }
  for (const voice of snapshot.voices) {
    if (!ids.has(voice.accountId)) throw new StoreFileError(path, `voice ${voice.id} belongs to unknown account`);
  }
  for (const settings of snapshot.telephony ?? []) {
    if (!ids.has(settings.accountId)) throw new StoreFileError(path, 'telephony settings belong to an unknown account');
  }
  return snapshot;
}

let tempCounter = 0;

/** Replaces `path` atomically and durably: after this resolves, a crash leaves either the old or the new file. */
export async function writeSnapshot(path: string, snapshot: StoreSnapshot): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = `${path}.${process.pid}.${tempCounter++}.tmp`;
  const data = JSON.stringify(snapshot);
  try {
    // 0o600: the file holds key hashes; nobody else on the machine needs to read them.
    const file = await open(temp, 'w', 0o600);
    try {
      await file.writeFile(data, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // The rename is only durable once the directory entry is flushed.
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}
