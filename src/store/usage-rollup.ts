// Usage totals kept beside the ledger, so a report reads a bounded number of rows however many records a period holds.
// Each settlement adds its record to three rollup buckets (its UTC day, hour and quarter hour) in the same atomic step
// as the record; a report splits each of its intervals into whole buckets, largest first, and reads only the few
// sub-quarter edges from the records themselves. Every time zone's day boundary is a whole quarter hour in UTC (every
// offset in use is a multiple of 15 minutes: +05:30, +05:45, +08:45, +12:45), so a local day in any zone costs at
// most 23 hour and 4 quarter rows per group, and the edges are read from records only at a period's own instants.
// Pure: the stores do the I/O (SQLite table usage_rollup, Redis hashes usage-totals:<tier>:<bucket>).

import { MAX_USAGE_PAGE, USAGE_OUTCOMES, type TimeRange, type UsageAggregate, type UsageOutcome } from './store.js';

export interface RollupTier {
  /** Short name, part of the Redis key (`d`, `h`, `q`). */
  readonly name: string;
  readonly spanMs: number;
}

/** Largest first; each span divides the one before, and every bucket starts at a multiple of its span (UTC). */
export const ROLLUP_TIERS: readonly RollupTier[] = [
  { name: 'd', spanMs: 86_400_000 },
  { name: 'h', spanMs: 3_600_000 },
  { name: 'q', spanMs: 900_000 },
];

/** The start of the bucket of `ms` in a tier. */
export function bucketStart(ms: number, spanMs: number): number {
  return ms - (((ms % spanMs) + spanMs) % spanMs);
}

/** A piece of an interval: whole buckets of one tier `[fromMs, toMs)`, or (tier null) records read one by one. */
export interface RollupPiece extends TimeRange {
  readonly tier: RollupTier | null;
}

/**
 * `[fromMs, toMs)` as whole buckets (largest tier first) and at most two record ranges shorter than the smallest
 * tier, in time order. Exact for any instants: what no bucket covers whole is read from the records.
 */
export function rollupPieces(range: TimeRange, tiers: readonly RollupTier[] = ROLLUP_TIERS): RollupPiece[] {
  const { fromMs, toMs } = range;
  if (fromMs >= toMs) return [];
  const [tier, ...smaller] = tiers;
  if (!tier) return [{ tier: null, fromMs, toMs }];
  const lo = bucketStart(fromMs + tier.spanMs - 1, tier.spanMs);
  const hi = bucketStart(toMs, tier.spanMs);
  if (lo >= hi) return rollupPieces(range, smaller);
  return [...rollupPieces({ fromMs, toMs: lo }, smaller), { tier, fromMs: lo, toMs: hi }, ...rollupPieces({ fromMs: hi, toMs }, smaller)];
}

interface MutableAggregate {
  group: string | null;
  characters: number;
  requests: number;
  audioSeconds: number;
  outcomes: Record<UsageOutcome, number>;
}

/** Adds up rows of (group, outcome, characters, requests, seconds) into one aggregate per group. */
export class UsageAccumulator {
  readonly #groups = new Map<string | null, MutableAggregate>();

  add(group: string | null, outcome: string, characters: number, requests: number, audioSeconds: number): void {
    let aggregate = this.#groups.get(group);
    if (!aggregate) {
      aggregate = { group, characters: 0, requests: 0, audioSeconds: 0, outcomes: Object.fromEntries(USAGE_OUTCOMES.map((o) => [o, 0])) as Record<UsageOutcome, number> };
      this.#groups.set(group, aggregate);
    }
    aggregate.characters += characters;
    aggregate.requests += requests;
    aggregate.audioSeconds += audioSeconds;
    if ((USAGE_OUTCOMES as readonly string[]).includes(outcome)) aggregate.outcomes[outcome as UsageOutcome] += requests;
  }

  /** Groups with at least one record, in order of their value (null last). */
  result(): UsageAggregate[] {
    return [...this.#groups.values()].filter((a) => a.requests > 0).sort((a, b) => compareGroups(a.group, b.group));
  }
}

export function compareGroups(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** A report asks for at most this many intervals (a 400-day period has at most 401 local days). */
export const MAX_USAGE_INTERVALS = 1_000;

export function assertUsageIntervals(intervals: readonly TimeRange[]): void {
  if (intervals.length > MAX_USAGE_INTERVALS) throw new RangeError(`at most ${MAX_USAGE_INTERVALS} usage intervals per report, got ${intervals.length}`);
  for (const { fromMs, toMs } of intervals) {
    if (!Number.isSafeInteger(fromMs) || !Number.isSafeInteger(toMs) || fromMs > toMs) {
      throw new RangeError(`usage range must be integer epoch ms with from ≤ to, got ${fromMs}..${toMs}`);
    }
  }
}

export function assertUsagePageLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_USAGE_PAGE) throw new RangeError(`a usage page holds 1 to ${MAX_USAGE_PAGE} records, got ${limit}`);
}

/** Yields to the event loop between pieces of a report once this much time passed without a turn. */
export const REPORT_SLICE_MS = 4;
