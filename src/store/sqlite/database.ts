// The embedded database: the one home of better-sqlite3. Opens `<dataDir>/raaga.db` (or a private in-memory
// database) with the settings every connection needs, and creates or upgrades the schema.
// WAL lets the server and the CLI use the file at once: readers never block the writer, and a writer waits up to
// BUSY_TIMEOUT_MS for the other process's transaction instead of failing. synchronous=FULL makes each committed
// transaction survive a power cut, as store.json's fsync did (measured cost: bench/admission.ts).

import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;
export type SqliteStatement = Database.Statement;

export const DATABASE_FILE_NAME = 'raaga.db';

/** A transaction of the other process (the CLI, a backup) is waited for this long before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;

/** `PRAGMA user_version` of the schema below; a newer file is refused rather than misread. */
const SCHEMA_VERSION = 6;

const SCHEMA = `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  plan TEXT NOT NULL CHECK (plan IN ('free', 'developer', 'growth')),
  credits INTEGER NOT NULL CHECK (credits >= 0),
  created_at_ms INTEGER NOT NULL
) STRICT;
CREATE TABLE api_keys (
  hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
) STRICT;
CREATE INDEX api_keys_by_account ON api_keys (account_id);
CREATE TABLE custom_voices (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  name TEXT NOT NULL,
  base_voice TEXT NOT NULL,
  pitch_shift_semitones REAL NOT NULL,
  rate_multiplier REAL NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX custom_voices_by_account ON custom_voices (account_id);
CREATE TABLE telephony_settings (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  json TEXT NOT NULL
) STRICT;
CREATE TABLE usage (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at_ms INTEGER NOT NULL,
  account_id TEXT NOT NULL,
  key_id TEXT,
  endpoint TEXT NOT NULL,
  call_id TEXT,
  voice TEXT NOT NULL,
  language TEXT NOT NULL,
  engine TEXT NOT NULL,
  characters INTEGER NOT NULL CHECK (characters >= 0),
  audio_seconds REAL NOT NULL,
  outcome TEXT NOT NULL
) STRICT;
CREATE INDEX usage_by_account_time ON usage (account_id, at_ms);
CREATE INDEX usage_by_time ON usage (at_ms);
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
`;

/** Version 2: outbound calls (POST /v1/calls), their status events, and each account's call-placing pace. */
const SCHEMA_V2 = `
CREATE TABLE outbound_calls (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  idempotency_key TEXT,
  created_at_ms INTEGER NOT NULL,
  json TEXT NOT NULL,
  has_webhook INTEGER NOT NULL CHECK (has_webhook IN (0, 1)),
  last_sequence INTEGER NOT NULL,
  last_recorded_at_ms INTEGER NOT NULL,
  webhook_through INTEGER NOT NULL DEFAULT 0,
  UNIQUE (account_id, idempotency_key)
) STRICT;
CREATE INDEX outbound_calls_by_time ON outbound_calls (created_at_ms);
CREATE INDEX outbound_webhook_backlog ON outbound_calls (last_recorded_at_ms) WHERE has_webhook = 1 AND webhook_through < last_sequence;
CREATE TABLE outbound_call_events (
  call_id TEXT NOT NULL REFERENCES outbound_calls (id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (call_id, status)
) STRICT;
CREATE TABLE dial_slots (
  account_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  next_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, provider)
) STRICT;
`;

/** Version 3: keys held for a while by one owner (Store.holdKey). */
const SCHEMA_V3 = `
CREATE TABLE held_keys (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  owner TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL,
  PRIMARY KEY (namespace, key)
) STRICT;
CREATE INDEX held_keys_by_expiry ON held_keys (expires_at_ms);
`;

/** Version 4: each account's outbound calls of the current UTC day (Store.claimOutboundCallOfDay), one row per account. */
const SCHEMA_V4 = `
CREATE TABLE outbound_call_days (
  account_id TEXT PRIMARY KEY,
  day INTEGER NOT NULL,
  calls INTEGER NOT NULL
) STRICT;
`;

/**
 * Version 5: usage totals per account and UTC day, hour and quarter hour (src/store/usage-rollup.ts), written with
 * each usage record, so reports never read every record; filled here once from the records already kept. One row per
 * voice × language × key × outcome in `usage_rollup` (reports grouped by voice, language or key), and per outcome
 * alone in `usage_rollup_totals` (reports by day: a few rows per bucket however many voices and keys there are).
 * key_id '' stands for no key (phone calls): a primary key column cannot be NULL.
 */
const SCHEMA_V5 = `
CREATE TABLE usage_rollup (
  account_id TEXT NOT NULL,
  span_ms INTEGER NOT NULL,
  bucket_ms INTEGER NOT NULL,
  voice TEXT NOT NULL,
  language TEXT NOT NULL,
  key_id TEXT NOT NULL,
  outcome TEXT NOT NULL,
  characters INTEGER NOT NULL,
  requests INTEGER NOT NULL,
  audio_seconds REAL NOT NULL,
  PRIMARY KEY (account_id, span_ms, bucket_ms, voice, language, key_id, outcome)
) STRICT, WITHOUT ROWID;
CREATE INDEX usage_rollup_by_bucket ON usage_rollup (bucket_ms);
CREATE TABLE usage_rollup_totals (
  account_id TEXT NOT NULL,
  span_ms INTEGER NOT NULL,
  bucket_ms INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  characters INTEGER NOT NULL,
  requests INTEGER NOT NULL,
  audio_seconds REAL NOT NULL,
  PRIMARY KEY (account_id, span_ms, bucket_ms, outcome)
) STRICT, WITHOUT ROWID;
CREATE INDEX usage_rollup_totals_by_bucket ON usage_rollup_totals (bucket_ms);
${[86_400_000, 3_600_000, 900_000]
  .map(
    (span) =>
      `INSERT INTO usage_rollup SELECT account_id, ${span}, at_ms - at_ms % ${span}, voice, language, COALESCE(key_id, ''), outcome, ` +
      `SUM(characters), COUNT(*), SUM(audio_seconds) FROM usage GROUP BY 1, 2, 3, 4, 5, 6, 7;\n` +
      `INSERT INTO usage_rollup_totals SELECT account_id, ${span}, at_ms - at_ms % ${span}, outcome, ` +
      `SUM(characters), COUNT(*), SUM(audio_seconds) FROM usage GROUP BY 1, 2, 3, 4;`,
  )
  .join('\n')}
`;

/**
 * Version 6: pronunciation lexicons (store/lexicon.ts). One row per lexicon, one per entry (its key: the language and
 * the lower-case grapheme), and each account's lexicon version, bumped in the transaction of every change: what
 * another instance or process reads to learn it must reload.
 */
const SCHEMA_V6 = `
CREATE TABLE lexicons (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  name TEXT NOT NULL,
  revision INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, name)
) STRICT, WITHOUT ROWID;
CREATE TABLE lexicon_entries (
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  entry_key TEXT NOT NULL,
  language TEXT NOT NULL,
  grapheme TEXT NOT NULL,
  alias TEXT,
  phoneme TEXT,
  alphabet TEXT,
  PRIMARY KEY (account_id, name, entry_key),
  FOREIGN KEY (account_id, name) REFERENCES lexicons (account_id, name) ON DELETE CASCADE,
  CHECK ((alias IS NULL) <> (phoneme IS NULL AND alphabet IS NULL))
) STRICT, WITHOUT ROWID;
CREATE TABLE lexicon_versions (
  account_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) STRICT;
`;

/**
 * Opens (creating when missing) the store database: in `dataDir`, or in memory when it is undefined (tests, and
 * a server run without a data directory). The file is created 0600 first: it holds key hashes and provider
 * secrets, and SQLite gives its -wal and -shm files the database file's permissions.
 */
export function openDatabase(dataDir: string | undefined): SqliteDatabase {
  let db: SqliteDatabase;
  if (dataDir === undefined) {
    db = new Database(':memory:');
  } else {
    const path = join(dataDir, DATABASE_FILE_NAME);
    closeSync(openSync(path, 'a', 0o600));
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
  }
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  try {
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function migrate(db: SqliteDatabase): void {
  // IMMEDIATE: two processes opening a fresh file at once must not both create the schema.
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === SCHEMA_VERSION) return;
    if (version > SCHEMA_VERSION) {
      throw new Error(`the store database has schema version ${version}, newer than this Raaga (${SCHEMA_VERSION}); upgrade Raaga`);
    }
    if (version < 1) db.exec(SCHEMA);
    if (version < 2) db.exec(SCHEMA_V2);
    if (version < 3) db.exec(SCHEMA_V3);
    if (version < 4) db.exec(SCHEMA_V4);
    if (version < 5) db.exec(SCHEMA_V5);
    if (version < 6) db.exec(SCHEMA_V6);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
