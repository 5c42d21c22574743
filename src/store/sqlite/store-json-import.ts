// The one-time move from the JSON-file store (`<dataDir>/store.json`, Raaga before SQLite) into raaga.db: the whole
// file in one transaction with a marker row, then the file is renamed aside as a backup. A crash before the commit
// leaves nothing imported and the file in place; a crash after it leaves the marker, so the next start only renames.

import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { assertLexiconEntries, isAliasEntry, lexiconEntryKey, type LexiconEntry } from '../lexicon.js';
import { readSnapshot, type StoreSnapshot } from '../store-snapshot.js';
import type { SqliteDatabase } from './database.js';

export const STORE_JSON_FILE_NAME = 'store.json';
const IMPORTED_MARKER = 'store_json_imported_at_ms';

export interface StoreJsonImport {
  readonly accounts: number;
  readonly keys: number;
  readonly voices: number;
  /** Where store.json was moved. */
  readonly backupPath: string;
}

/** Imports `<dataDir>/store.json` when present; null when there is none. Throws StoreFileError for a corrupt file. */
export function importStoreJson(db: SqliteDatabase, dataDir: string, nowMs: number): StoreJsonImport | null {
  const path = join(dataDir, STORE_JSON_FILE_NAME);
  if (!existsSync(path)) return null;
  const snapshot = readSnapshot(path);
  if (!snapshot) return null;
  db.transaction(() => {
    if (db.prepare('SELECT 1 FROM meta WHERE key = ?').get(IMPORTED_MARKER)) return;
    const taken = snapshot.accounts.filter((a) => db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(a.id));
    if (taken.length > 0) {
      throw new Error(
        `${path} holds accounts that raaga.db already has (${taken.map((a) => a.id).join(', ')}); ` +
          'the file was not imported. Move it away if raaga.db is the one to keep.',
      );
    }
    insertSnapshot(db, snapshot);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(IMPORTED_MARKER, String(nowMs));
  }).immediate();
  const backupPath = freeBackupPath(path, nowMs);
  renameSync(path, backupPath);
  return { accounts: snapshot.accounts.length, keys: snapshot.keys.length, voices: snapshot.voices.length, backupPath };
}

/** Inserts a validated snapshot's rows (the caller holds the transaction). */
function insertSnapshot(db: SqliteDatabase, snapshot: StoreSnapshot): void {
  const account = db.prepare('INSERT INTO accounts (id, plan, credits, created_at_ms) VALUES (?, ?, ?, ?)');
  for (const a of snapshot.accounts) account.run(a.id, a.plan, a.credits, a.createdAtMs);
  const key = db.prepare('INSERT INTO api_keys (hash, account_id, revoked) VALUES (?, ?, ?)');
  for (const k of snapshot.keys) key.run(k.hash, k.accountId, k.revoked ? 1 : 0);
  const voice = db.prepare(
    'INSERT INTO custom_voices (id, account_id, name, base_voice, pitch_shift_semitones, rate_multiplier, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const v of snapshot.voices) voice.run(v.id, v.accountId, v.name, v.baseVoice, v.pitchShiftSemitones, v.rateMultiplier, v.createdAtMs);
  const telephony = db.prepare('INSERT INTO telephony_settings (account_id, json) VALUES (?, ?)');
  for (const t of snapshot.telephony ?? []) telephony.run(t.accountId, JSON.stringify(t));
  // A store.json never had lexicons, but an export does (`raaga store export` put where store.json was).
  const version = db.prepare('INSERT INTO lexicon_versions (account_id, version) VALUES (?, 1) ON CONFLICT (account_id) DO UPDATE SET version = version + 1 RETURNING version');
  const lexicon = db.prepare('INSERT INTO lexicons (account_id, name, revision, updated_at_ms) VALUES (?, ?, ?, ?)');
  const entry = db.prepare('INSERT INTO lexicon_entries (account_id, name, entry_key, language, grapheme, alias, phoneme, alphabet) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  for (const l of snapshot.lexicons ?? []) {
    assertLexiconEntries(l.entries as LexiconEntry[]);
    lexicon.run(l.accountId, l.name, (version.get(l.accountId) as { version: number }).version, l.updatedAtMs);
    for (const e of l.entries as LexiconEntry[]) {
      const alias = isAliasEntry(e) ? e.alias : null;
      entry.run(l.accountId, l.name, lexiconEntryKey(e), e.language, e.grapheme, alias, isAliasEntry(e) ? null : e.phoneme, isAliasEntry(e) ? null : e.alphabet);
    }
  }
}

function freeBackupPath(path: string, nowMs: number): string {
  const plain = `${path}.imported`;
  return existsSync(plain) ? `${plain}.${nowMs}` : plain;
}
