// `raaga store export|import`: a whole store as one JSON document (the store.json format, StoreSnapshotSchema) read
// and written through the Store contract, so accounts, keys (revoked ones stay revoked), exact balances, custom
// voices, telephony settings and pronunciation lexicons move between the embedded store and Redis in either direction.
// Admission state and the usage ledger stay behind: they belong to the store that served the requests.

import type { LexiconEntry } from './lexicon.js';
import { parseSnapshot, type StoreSnapshot } from './store-snapshot.js';
import type { Store, TelephonySettings } from './store.js';

export async function exportStore(store: Store): Promise<StoreSnapshot> {
  const snapshot: StoreSnapshot = { version: 1, accounts: [], keys: [], voices: [], telephony: [], lexicons: [] };
  for (const account of await store.listAccounts()) {
    snapshot.accounts.push({ ...account });
    for (const key of await store.listKeyHashRecords(account.id)) snapshot.keys.push({ hash: key.hash, accountId: account.id, revoked: key.revoked });
    for (const voice of await store.listCustomVoices(account.id)) snapshot.voices.push({ ...voice });
    const telephony = await store.getTelephonySettings(account.id);
    if (telephony) snapshot.telephony?.push(telephony);
    for (const { name } of await store.listLexicons(account.id)) {
      const lexicon = await store.getLexicon(account.id, name);
      if (lexicon) snapshot.lexicons?.push({ accountId: account.id, name, updatedAtMs: lexicon.updatedAtMs, entries: [...lexicon.entries] });
    }
  }
  return snapshot;
}

export interface ImportResult {
  readonly accounts: number;
  readonly keys: number;
  readonly voices: number;
  readonly lexicons: number;
  /** Accounts left alone because the target store already had them (`skipExisting`). */
  readonly skipped: readonly string[];
}

export class ImportConflictError extends Error {
  constructor(readonly accountIds: readonly string[]) {
    super(
      `the target store already has ${accountIds.length === 1 ? 'account' : 'accounts'} ${accountIds.slice(0, 10).join(', ')}` +
        `${accountIds.length > 10 ? ` and ${accountIds.length - 10} more` : ''}; nothing was imported. ` +
        'Pass --skip-existing to import only the others.',
    );
    this.name = 'ImportConflictError';
  }
}

export interface ImportOptions {
  readonly skipExisting?: boolean;
  /**
   * Throws for telephony settings the providers would refuse (the CLI passes telephony/'s check: the store knows only
   * the credentials' generic shape). Run on every record before anything is written.
   */
  readonly checkTelephony?: (settings: TelephonySettings) => void;
  /**
   * Returns a lexicon's entries as the server would take them, or throws (the CLI passes core's lexicon rules: the
   * store knows only their shape). Run on every lexicon before anything is written.
   */
  readonly checkLexicon?: (entries: readonly LexiconEntry[]) => readonly LexiconEntry[];
}

/**
 * Imports a document: every account it holds must be new to the store (checked before anything is written), unless
 * `skipExisting`, which leaves existing accounts and everything of theirs untouched. Keys are added before they are
 * revoked, so a revoked key is never live in the target for longer than the import of its account. Telephony settings
 * from before the credentials map are imported in the new shape.
 */
export async function importStore(store: Store, text: string, options: ImportOptions = {}): Promise<ImportResult> {
  let snapshot: StoreSnapshot;
  try {
    snapshot = parseSnapshot(text);
  } catch (error) {
    throw new Error(`that is not a Raaga store export: ${(error as Error).message}`);
  }
  for (const settings of snapshot.telephony ?? []) {
    try {
      options.checkTelephony?.(settings);
    } catch (error) {
      throw new Error(`the telephony settings of ${settings.accountId} are invalid (${(error as Error).message.replace(/^invalid telephony settings: /, '')}); nothing was imported`);
    }
  }
  const lexicons = (snapshot.lexicons ?? []).map((lexicon) => {
    try {
      return { ...lexicon, entries: options.checkLexicon ? options.checkLexicon(lexicon.entries as LexiconEntry[]) : (lexicon.entries as LexiconEntry[]) };
    } catch (error) {
      throw new Error(`lexicon ${lexicon.name} of ${lexicon.accountId} is invalid (${(error as Error).message}); nothing was imported`);
    }
  });
  const existing: string[] = [];
  for (const account of snapshot.accounts) if (await store.getAccount(account.id)) existing.push(account.id);
  if (existing.length > 0 && !options.skipExisting) throw new ImportConflictError(existing);
  const skip = new Set(existing);
  let keys = 0;
  let voices = 0;
  let lexiconCount = 0;
  for (const account of snapshot.accounts) {
    if (skip.has(account.id)) continue;
    await store.createAccount(account);
    for (const key of snapshot.keys.filter((k) => k.accountId === account.id)) {
      await store.addKeyHash(account.id, key.hash);
      if (key.revoked) await store.revokeKeyHash(key.hash);
      keys++;
    }
    for (const voice of snapshot.voices.filter((v) => v.accountId === account.id)) {
      await store.putCustomVoice(voice);
      voices++;
    }
    const telephony = snapshot.telephony?.find((t) => t.accountId === account.id);
    if (telephony) await store.putTelephonySettings(telephony);
    for (const lexicon of lexicons.filter((l) => l.accountId === account.id)) {
      await store.putLexicon(account.id, lexicon.name, lexicon.entries, { updatedAtMs: lexicon.updatedAtMs });
      lexiconCount++;
    }
  }
  return { accounts: snapshot.accounts.length - skip.size, keys, voices, lexicons: lexiconCount, skipped: existing };
}
