// SqliteStore's lexicons (store/lexicon.ts): a row per lexicon and per entry, and the account's lexicon version, each
// change one IMMEDIATE transaction that bumps the version, so another process on the same file sees it on its next
// version read. A change past a cap throws inside the transaction: nothing of it is kept.

import {
  DEFAULT_LEXICON,
  LEXICON_LIMITS,
  LexiconLimitError,
  entryOf,
  entriesPerLexiconMessage,
  lexiconsPerAccountMessage,
  isAliasEntry,
  lexiconEntryKey,
  sortedEntries,
  type LexiconEdit,
  type LexiconEntry,
  type LexiconSummary,
  type StoredLexicon,
} from '../lexicon.js';
import type { SqliteDatabase, SqliteStatement } from './database.js';

interface LexiconRow {
  readonly name: string;
  readonly revision: number;
  readonly updated_at_ms: number;
  readonly entry_count: number;
}

interface EntryRow {
  readonly language: string;
  readonly grapheme: string;
  readonly alias: string | null;
  readonly phoneme: string | null;
  readonly alphabet: string | null;
}

export class SqliteLexicons {
  private readonly sql: Record<string, SqliteStatement>;

  constructor(private readonly db: SqliteDatabase) {
    const prepare = (sql: string): SqliteStatement => db.prepare(sql);
    const summary =
      'SELECT l.name, l.revision, l.updated_at_ms, (SELECT COUNT(*) FROM lexicon_entries e WHERE e.account_id = l.account_id AND e.name = l.name) AS entry_count FROM lexicons l';
    this.sql = {
      version: prepare('SELECT version FROM lexicon_versions WHERE account_id = ?'),
      bump: prepare('INSERT INTO lexicon_versions (account_id, version) VALUES (?, 1) ON CONFLICT (account_id) DO UPDATE SET version = version + 1 RETURNING version'),
      summaries: prepare(`${summary} WHERE l.account_id = ? ORDER BY l.name`),
      summary: prepare(`${summary} WHERE l.account_id = ? AND l.name = ?`),
      others: prepare('SELECT COUNT(*) AS n FROM lexicons WHERE account_id = ? AND name <> ?'),
      upsert: prepare(
        'INSERT INTO lexicons (account_id, name, revision, updated_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, name) DO UPDATE SET revision = excluded.revision, updated_at_ms = excluded.updated_at_ms',
      ),
      clear: prepare('DELETE FROM lexicon_entries WHERE account_id = ? AND name = ?'),
      put: prepare(
        'INSERT OR REPLACE INTO lexicon_entries (account_id, name, entry_key, language, grapheme, alias, phoneme, alphabet) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      remove: prepare('DELETE FROM lexicon_entries WHERE account_id = ? AND name = ? AND entry_key = ?'),
      entries: prepare('SELECT language, grapheme, alias, phoneme, alphabet FROM lexicon_entries WHERE account_id = ? AND name = ?'),
      drop: prepare('DELETE FROM lexicons WHERE account_id = ? AND name = ?'),
    };
  }

  /** Runs `change` in the caller's account check and one transaction; returns the lexicon's summary after it. */
  put(accountId: string, name: string, entries: readonly LexiconEntry[], updatedAtMs: number, requireAccount: () => void): LexiconSummary {
    return this.db.transaction(() => {
      requireAccount();
      this.open(accountId, name, updatedAtMs);
      this.sql.clear!.run(accountId, name);
      for (const entry of entries) this.write(accountId, name, entry);
      return this.after(accountId, name);
    }).immediate();
  }

  edit(accountId: string, name: string, edit: LexiconEdit, updatedAtMs: number, requireAccount: () => void): LexiconSummary {
    return this.db.transaction(() => {
      requireAccount();
      this.open(accountId, name, updatedAtMs);
      for (const ref of edit.remove) this.sql.remove!.run(accountId, name, lexiconEntryKey(ref));
      for (const entry of edit.put) this.write(accountId, name, entry);
      return this.after(accountId, name);
    }).immediate();
  }

  get(accountId: string, name: string): StoredLexicon | null {
    const row = this.sql.summary!.get(accountId, name) as LexiconRow | undefined;
    if (!row) return null;
    const entries = sortedEntries((this.sql.entries!.all(accountId, name) as EntryRow[]).map(entryOf));
    return { ...summaryOf(row), entries };
  }

  list(accountId: string): LexiconSummary[] {
    return (this.sql.summaries!.all(accountId) as LexiconRow[]).map(summaryOf);
  }

  delete(accountId: string, name: string): boolean {
    return this.db.transaction(() => {
      const deleted = this.sql.drop!.run(accountId, name).changes > 0;
      if (deleted) this.sql.bump!.get(accountId);
      return deleted;
    }).immediate();
  }

  version(accountId: string): number {
    return (this.sql.version!.get(accountId) as { version: number } | undefined)?.version ?? 0;
  }

  /** The lexicon row, created when missing (within the cap of lexicons per account), at the next version. */
  private open(accountId: string, name: string, updatedAtMs: number): void {
    const exists = this.sql.summary!.get(accountId, name) !== undefined;
    if (!exists && name !== DEFAULT_LEXICON && (this.sql.others!.get(accountId, DEFAULT_LEXICON) as { n: number }).n >= LEXICON_LIMITS.lexiconsPerAccount) {
      throw new LexiconLimitError('lexiconsPerAccount', lexiconsPerAccountMessage());
    }
    const version = (this.sql.bump!.get(accountId) as { version: number }).version;
    this.sql.upsert!.run(accountId, name, version, updatedAtMs);
  }

  private write(accountId: string, name: string, entry: LexiconEntry): void {
    const alias = isAliasEntry(entry) ? entry.alias : null;
    const phoneme = isAliasEntry(entry) ? null : entry.phoneme;
    const alphabet = isAliasEntry(entry) ? null : entry.alphabet;
    this.sql.put!.run(accountId, name, lexiconEntryKey(entry), entry.language, entry.grapheme, alias, phoneme, alphabet);
  }

  /** The summary once the change is in; past the entry cap it throws, and the transaction undoes everything. */
  private after(accountId: string, name: string): LexiconSummary {
    const summary = summaryOf(this.sql.summary!.get(accountId, name) as LexiconRow);
    if (summary.entryCount > LEXICON_LIMITS.entriesPerLexicon) throw new LexiconLimitError('entriesPerLexicon', entriesPerLexiconMessage(name, summary.entryCount));
    return summary;
  }
}

function summaryOf(row: LexiconRow): LexiconSummary {
  return { name: row.name, entryCount: row.entry_count, revision: row.revision, updatedAtMs: row.updated_at_ms };
}
