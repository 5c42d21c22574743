// SqliteStore's usage totals and ledger pages: the rollup rows each settlement adds to (tables usage_rollup and
// usage_rollup_totals, schema v5),
// the report that sums them piece by piece (src/store/usage-rollup.ts) with a turn of the event loop between pieces,
// and pages of records on the (account_id, at_ms) index. Every query reads a bounded number of rows.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { ROLLUP_TIERS, REPORT_SLICE_MS, UsageAccumulator, rollupPieces } from '../usage-rollup.js';
import type { TimeRange, UsageAggregate, UsageDetails, UsageDimension } from '../store.js';
import type { SqliteDatabase, SqliteStatement } from './database.js';

/** The column each dimension groups by; '' is the rollup's "no key". */
const ROLLUP_COLUMN: Readonly<Record<UsageDimension | 'none', string>> = { voice: 'voice', language: 'language', key: 'key_id', none: "''" };
const RECORD_COLUMN: Readonly<Record<UsageDimension | 'none', string>> = { voice: 'voice', language: 'language', key: "COALESCE(key_id, '')", none: "''" };

/** Buckets one query sums at most: a query reads at most this many times the groups' combinations, a short block. */
const BUCKETS_PER_QUERY = 16;

interface TotalsRow {
  readonly grp: string;
  readonly outcome: string;
  readonly characters: number;
  readonly requests: number;
  readonly audio_seconds: number;
}

export class SqliteUsageRollup {
  readonly #add: SqliteStatement;
  readonly #addTotal: SqliteStatement;
  readonly #prune: SqliteStatement;
  readonly #pruneTotals: SqliteStatement;
  readonly #fromRollup: Record<string, SqliteStatement> = {};
  readonly #fromRecords: Record<string, SqliteStatement> = {};
  readonly #page: SqliteStatement;
  readonly #pageAfter: SqliteStatement;

  constructor(db: SqliteDatabase) {
    this.#add = db.prepare(
      'INSERT INTO usage_rollup (account_id, span_ms, bucket_ms, voice, language, key_id, outcome, characters, requests, audio_seconds) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (account_id, span_ms, bucket_ms, voice, language, key_id, outcome) DO UPDATE SET ' +
        'characters = characters + excluded.characters, requests = requests + 1, audio_seconds = audio_seconds + excluded.audio_seconds',
    );
    this.#addTotal = db.prepare(
      'INSERT INTO usage_rollup_totals (account_id, span_ms, bucket_ms, outcome, characters, requests, audio_seconds) VALUES (?, ?, ?, ?, ?, 1, ?) ' +
        'ON CONFLICT (account_id, span_ms, bucket_ms, outcome) DO UPDATE SET ' +
        'characters = characters + excluded.characters, requests = requests + 1, audio_seconds = audio_seconds + excluded.audio_seconds',
    );
    this.#prune = db.prepare('DELETE FROM usage_rollup WHERE bucket_ms < ?');
    this.#pruneTotals = db.prepare('DELETE FROM usage_rollup_totals WHERE bucket_ms < ?');
    for (const dimension of ['voice', 'language', 'key', 'none'] as const) {
      this.#fromRollup[dimension] = db.prepare(
        `SELECT ${ROLLUP_COLUMN[dimension]} AS grp, outcome, SUM(characters) AS characters, SUM(requests) AS requests, SUM(audio_seconds) AS audio_seconds ` +
          `FROM ${dimension === 'none' ? 'usage_rollup_totals' : 'usage_rollup'} WHERE account_id = ? AND span_ms = ? AND bucket_ms >= ? AND bucket_ms < ? GROUP BY grp, outcome`,
      );
      this.#fromRecords[dimension] = db.prepare(
        `SELECT ${RECORD_COLUMN[dimension]} AS grp, outcome, SUM(characters) AS characters, COUNT(*) AS requests, SUM(audio_seconds) AS audio_seconds ` +
          'FROM usage WHERE account_id = ? AND at_ms >= ? AND at_ms < ? GROUP BY grp, outcome',
      );
    }
    this.#page = db.prepare('SELECT * FROM usage WHERE account_id = ? AND at_ms >= ? AND at_ms < ? ORDER BY at_ms, id LIMIT ?');
    this.#pageAfter = db.prepare('SELECT * FROM usage WHERE account_id = ? AND (at_ms, id) > (?, ?) AND at_ms < ? ORDER BY at_ms, id LIMIT ?');
  }

  /** The record's share of each tier's bucket; run in the settlement's transaction, beside the record's insert. */
  add(atMs: number, accountId: string, characters: number, usage: UsageDetails): void {
    for (const { spanMs } of ROLLUP_TIERS) {
      const bucket = atMs - (atMs % spanMs);
      this.#add.run(accountId, spanMs, bucket, usage.voice, usage.language, usage.keyId ?? '', usage.outcome, characters, usage.audioSeconds);
      this.#addTotal.run(accountId, spanMs, bucket, usage.outcome, characters, usage.audioSeconds);
    }
  }

  /** Drops buckets that begin before `cutoffMs`, a day boundary (so no bucket outlives part of its records). */
  prune(cutoffMs: number): void {
    this.#prune.run(cutoffMs);
    this.#pruneTotals.run(cutoffMs);
  }

  async aggregate(accountId: string, intervals: readonly TimeRange[], dimension: UsageDimension | null): Promise<UsageAggregate[][]> {
    const key = dimension ?? 'none';
    const fromRollup = this.#fromRollup[key]!;
    const fromRecords = this.#fromRecords[key]!;
    const results: UsageAggregate[][] = [];
    let sliceStart = performance.now();
    for (const interval of intervals) {
      const totals = new UsageAccumulator();
      const add = (rows: readonly TotalsRow[]) => {
        for (const row of rows) totals.add(dimension === null || (dimension === 'key' && row.grp === '') ? null : row.grp, row.outcome, row.characters, row.requests, row.audio_seconds);
      };
      for (const piece of rollupPieces(interval)) {
        if (performance.now() - sliceStart >= REPORT_SLICE_MS) {
          await nextTurn();
          sliceStart = performance.now();
        }
        const { tier } = piece;
        if (!tier) {
          add(fromRecords.all(accountId, piece.fromMs, piece.toMs) as TotalsRow[]);
          continue;
        }
        // A long piece (a year of days) in queries of BUCKETS_PER_QUERY buckets, each a short block.
        for (let from = piece.fromMs; from < piece.toMs; from += BUCKETS_PER_QUERY * tier.spanMs) {
          if (performance.now() - sliceStart >= REPORT_SLICE_MS) {
            await nextTurn();
            sliceStart = performance.now();
          }
          add(fromRollup.all(accountId, tier.spanMs, from, Math.min(piece.toMs, from + BUCKETS_PER_QUERY * tier.spanMs)) as TotalsRow[]);
        }
      }
      results.push(totals.result());
    }
    return results;
  }

  /** Raw rows of a page: `after` is `<at_ms>:<id>` of the last row of the previous page. */
  page(accountId: string, range: TimeRange, after: string | undefined, limit: number): { rows: unknown[]; next: string | null } {
    let rows: { at_ms: number; id: number }[];
    if (after === undefined) {
      rows = this.#page.all(accountId, range.fromMs, range.toMs, limit + 1) as { at_ms: number; id: number }[];
    } else {
      const match = /^(\d{1,16}):(\d{1,16})$/.exec(after);
      if (!match) throw new RangeError(`not a usage page cursor: ${JSON.stringify(after)}`);
      const atMs = Math.max(Number(match[1]), range.fromMs);
      const id = Number(match[1]) < range.fromMs ? 0 : Number(match[2]);
      rows = this.#pageAfter.all(accountId, atMs, id, range.toMs, limit + 1) as { at_ms: number; id: number }[];
    }
    const more = rows.length > limit;
    if (more) rows.length = limit;
    const last = rows.at(-1);
    return { rows, next: more && last ? `${last.at_ms}:${last.id}` : null };
  }
}
