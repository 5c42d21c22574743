// Totals of usage records, overall and per group (local day, voice, language or key), and the shapes of a report.
// Reports themselves come from the store's totals (usage-report.ts); summing records in memory here is the reference
// they are tested against. Characters are integers summed exactly; seconds are rounded to the microsecond once, at the end.

import { USAGE_OUTCOMES, type UsageOutcome, type UsageRecord } from '../../store/store.js';
import { localDay } from './time-zone.js';

export const USAGE_GROUPINGS = ['day', 'voice', 'language', 'key'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

export interface UsageTotals {
  /** Credits debited: the spec bills characters (code points). */
  readonly characters: number;
  /** Settled utterances and requests, whatever their outcome. */
  readonly requests: number;
  readonly audioSeconds: number;
  readonly outcomes: Readonly<Record<UsageOutcome, number>>;
}

export interface UsageGroup extends UsageTotals {
  /** The local day (YYYY-MM-DD), voice, language, or key fingerprint; null for `key` on phone calls (no key). */
  readonly group: string | null;
}

export interface UsageSummary {
  readonly total: UsageTotals;
  /** In order of the group's value (days ascending); null last. */
  readonly groups: readonly UsageGroup[];
}

interface Accumulator {
  characters: number;
  requests: number;
  audioSeconds: number;
  outcomes: Record<UsageOutcome, number>;
}

export function summarizeUsage(records: readonly UsageRecord[], groupBy: UsageGrouping, timeZone: string): UsageSummary {
  const total = accumulator();
  const groups = new Map<string | null, Accumulator>();
  for (const record of records) {
    const key = groupOf(record, groupBy, timeZone);
    let group = groups.get(key);
    if (!group) {
      group = accumulator();
      groups.set(key, group);
    }
    add(total, record);
    add(group, record);
  }
  const ordered = [...groups].sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0));
  return { total: finish(total), groups: ordered.map(([group, totals]) => ({ group, ...finish(totals) })) };
}

function groupOf(record: UsageRecord, groupBy: UsageGrouping, timeZone: string): string | null {
  switch (groupBy) {
    case 'day':
      return localDay(record.atMs, timeZone);
    case 'voice':
      return record.voice;
    case 'language':
      return record.language;
    case 'key':
      return record.keyId;
  }
}

function accumulator(): Accumulator {
  const outcomes = Object.fromEntries(USAGE_OUTCOMES.map((o) => [o, 0])) as Record<UsageOutcome, number>;
  return { characters: 0, requests: 0, audioSeconds: 0, outcomes };
}

function add(into: Accumulator, record: UsageRecord): void {
  into.characters += record.characters;
  into.requests += 1;
  into.audioSeconds += record.audioSeconds;
  into.outcomes[record.outcome] += 1;
}

function finish(a: Accumulator): UsageTotals {
  return { characters: a.characters, requests: a.requests, audioSeconds: Number(a.audioSeconds.toFixed(6)), outcomes: { ...a.outcomes } };
}
