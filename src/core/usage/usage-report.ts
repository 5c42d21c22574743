// A usage report from the store's totals (Store.aggregateUsage), for GET /v1/usage and `raaga usage`: the period's
// local days computed here (exact across DST and half-hour offsets), the sums done by the store over its rollup
// buckets, never by loading every record. The same totals, groups and order as summarizeUsage over the records.

import { ApiError } from '../../errors.js';
import { USAGE_OUTCOMES, type AdmissionLedger, type UsageAggregate, type UsageOutcome } from '../../store/store.js';
import { storeCall } from '../store-call.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DAY_MS } from '../../config.js';
import { localDaySpans, type LocalDaySpan } from './time-zone.js';
import type { UsagePeriod } from './usage-period.js';
import { type UsageGrouping, type UsageGroup, type UsageSummary, type UsageTotals } from './usage-summary.js';

/** GET /v1/usage's own window per account, apart from the synthesis window: a report costs the store more than a voice list. */
export const USAGE_REPORTS_PER_MINUTE = 60;

const DAYS_PER_TURN = 32;

/** Counts one report in the account's report window; throws 429 rate_limit_exceeded with Retry-After when it is full. */
export async function admitUsageReport(store: Pick<AdmissionLedger, 'admitUsageReport'>, accountId: string): Promise<void> {
  const admission = await storeCall(() => store.admitUsageReport(accountId, USAGE_REPORTS_PER_MINUTE));
  if (admission.ok) return;
  const seconds = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
  throw new ApiError(
    'rate_limit_exceeded',
    `At most ${USAGE_REPORTS_PER_MINUTE} usage reports per minute for this account (a window of their own, apart from synthesis); retry in ${seconds} s.`,
    { retryAfterSeconds: seconds },
  );
}

export async function reportUsage(store: Pick<AdmissionLedger, 'aggregateUsage'>, accountId: string, period: UsagePeriod, groupBy: UsageGrouping): Promise<UsageSummary> {
  let groups: { group: string | null; totals: UsageAggregate }[];
  if (groupBy === 'day') {
    const days = await localDaysOf(period);
    const perDay = await store.aggregateUsage(accountId, days, null);
    // A zone that sets its clock back across midnight gives a date two spans: one group each date.
    const byDay = new Map<string, UsageAggregate[]>();
    days.forEach((span, i) => {
      const list = byDay.get(span.day) ?? [];
      list.push(...(perDay[i] ?? []));
      byDay.set(span.day, list);
    });
    groups = [...byDay].filter(([, list]) => list.length > 0).map(([day, list]) => ({ group: day, totals: merge(list) }));
    groups.sort((a, b) => ((a.group ?? '') < (b.group ?? '') ? -1 : 1));
  } else {
    const [aggregates = []] = await store.aggregateUsage(accountId, [period], groupBy);
    groups = aggregates.map((a) => ({ group: a.group, totals: a }));
  }
  const total = merge(groups.map((g) => g.totals));
  return { total: finish(total), groups: groups.map(({ group, totals }): UsageGroup => ({ group, ...finish(totals) })) };
}

/** The period's local days, a month of them per turn of the event loop (each takes one time zone lookup). */
async function localDaysOf(period: UsagePeriod): Promise<LocalDaySpan[]> {
  const days: LocalDaySpan[] = [];
  for (let from = period.fromMs; from < period.toMs; ) {
    const chunk = localDaySpans(from, Math.min(period.toMs, from + DAYS_PER_TURN * DAY_MS), period.timeZone);
    // The last day of a chunk may be cut short by the chunk, not by the period: it is found again whole next turn.
    if (chunk.length > 1 && chunk.at(-1)!.toMs < period.toMs) chunk.pop();
    days.push(...chunk);
    from = chunk.at(-1)!.toMs;
    if (from < period.toMs) await nextTurn();
  }
  return days;
}

function merge(list: readonly UsageAggregate[]): UsageAggregate {
  const outcomes = Object.fromEntries(USAGE_OUTCOMES.map((o) => [o, 0])) as Record<UsageOutcome, number>;
  let characters = 0;
  let requests = 0;
  let audioSeconds = 0;
  for (const a of list) {
    characters += a.characters;
    requests += a.requests;
    audioSeconds += a.audioSeconds;
    for (const outcome of USAGE_OUTCOMES) outcomes[outcome] += a.outcomes[outcome];
  }
  return { group: null, characters, requests, audioSeconds, outcomes };
}

function finish(a: UsageAggregate): UsageTotals {
  return { characters: a.characters, requests: a.requests, audioSeconds: Number(a.audioSeconds.toFixed(6)), outcomes: { ...a.outcomes } };
}
