// The usage part of the Store contract (run by runStoreContract on every store): totals from the store's rollups
// equal the totals of the records themselves for every grouping, across Europe/London's DST changes and
// Asia/Kolkata's half-hour offset and at instants inside a quarter hour; pages of records; the report window.

import { describe, expect, it } from 'vitest';
import { reportUsage } from '../../src/core/usage/usage-report.js';
import { parseUsagePeriod } from '../../src/core/usage/usage-period.js';
import { USAGE_GROUPINGS, summarizeUsage } from '../../src/core/usage/usage-summary.js';
import { MAX_USAGE_PAGE, PLAN_LIMITS, RATE_WINDOW_MS, type Store, type TimeRange, type UsageDetails } from '../../src/store/store.js';
import type { StoreUnderTest, TestClock } from './store-contract.js';

const at = (iso: string) => Date.parse(iso);

/**
 * Settled in this order (time ascending). 2026-03-29 01:00Z London moves to BST: its 29th is 23 hours (00:00Z to
 * 23:00Z); 2026-10-25 01:00Z back to GMT: its 25th is 25 hours (24th 23:00Z to 26th 00:00Z). Kolkata's days begin at
 * 18:30Z. Seconds are binary fractions, so every sum is exact whatever its order.
 */
const RECORDS: readonly (readonly [string, number, Partial<UsageDetails>])[] = [
  ['2026-03-28T23:59:59.999Z', 3, { voice: 'aarav', keyId: 'sha256:aaaaaaaaaaaa', audioSeconds: 0.25 }], // A
  ['2026-03-29T00:00:00.000Z', 5, { voice: 'meera', language: 'en-IN', outcome: 'cancelled', audioSeconds: 1.5 }], // B
  ['2026-03-29T00:59:59.999Z', 7, { voice: 'aarav', keyId: null, endpoint: 'call', callId: 'CA1', audioSeconds: 2.125 }], // C
  ['2026-03-29T01:00:00.000Z', 11, { voice: 'meera', outcome: 'failed', audioSeconds: 0 }], // D
  ['2026-03-29T18:29:59.999Z', 13, { voice: 'aarav', language: 'en-IN', audioSeconds: 0.5 }], // E
  ['2026-03-29T18:30:00.000Z', 17, { voice: 'meera', keyId: null, endpoint: 'call', callId: 'CA2', outcome: 'truncated', audioSeconds: 4 }], // F
  ['2026-03-29T22:59:59.999Z', 19, { voice: 'aarav', audioSeconds: 0.75 }], // G
  ['2026-03-29T23:00:00.000Z', 23, { voice: 'aarav', language: 'en-IN', keyId: 'sha256:aaaaaaaaaaaa', audioSeconds: 1.25 }], // H
  ['2026-03-30T00:07:00.000Z', 29, { voice: 'meera', audioSeconds: 3.5 }], // I
  ['2026-10-24T22:59:59.999Z', 31, { voice: 'aarav', audioSeconds: 0.125 }], // J
  ['2026-10-25T23:30:00.000Z', 37, { voice: 'meera', outcome: 'cancelled', audioSeconds: 2 }], // K
  ['2026-10-26T00:00:00.000Z', 41, { voice: 'aarav', keyId: null, endpoint: 'call', callId: 'CA3', audioSeconds: 1 }], // L
];
const BASE: UsageDetails = { keyId: 'sha256:bbbbbbbbbbbb', endpoint: 'generate', voice: 'aarav', language: 'hi-IN', engine: 'espeak', audioSeconds: 1, outcome: 'completed' };

async function seed(store: Store, clock: TestClock, accountId: string): Promise<void> {
  for (const [i, [iso, characters, details]] of RECORDS.entries()) {
    clock.advance(at(iso) - clock.now());
    const id = `u${i}`;
    expect((await store.admit({ accountId, limits: PLAN_LIMITS.growth, countRate: false, reservation: { id, credits: characters, ttlMs: 60_000 } })).ok).toBe(true);
    await store.settle(accountId, id, characters, { ...BASE, ...details });
  }
}

export function runUsageContract(fresh: () => Promise<StoreUnderTest>): void {
  describe('usage totals', () => {
    it('equal the records\' totals for every grouping and zone, with days exact across DST and +05:30', async () => {
      const { store, clock } = await fresh();
      const account = await store.createAccount({ id: 'acct_totals', plan: 'growth', credits: 10_000 });
      const other = await store.createAccount({ id: 'acct_other', plan: 'growth', credits: 10_000 });
      await seed(store, clock, account.id);
      await seed(store, clock, other.id); // another account's records never count
      clock.advance(at('2026-11-01T00:00:00Z') - clock.now());

      for (const timezone of ['UTC', 'Europe/London', 'Asia/Kolkata']) {
        const period = parseUsagePeriod({ from: '2026-03-28', to: '2026-10-26', timezone }, clock.now());
        const records = await store.listUsage(account.id, period);
        for (const groupBy of USAGE_GROUPINGS) {
          expect({ timezone, groupBy, report: await reportUsage(store, account.id, period, groupBy) }).toEqual({
            timezone,
            groupBy,
            report: summarizeUsage(records, groupBy, timezone),
          });
        }
      }
      const days = async (timezone: string) => {
        const period = parseUsagePeriod({ from: '2026-03-28', to: '2026-10-26', timezone }, clock.now());
        return (await reportUsage(store, account.id, period, 'day')).groups.map((g) => [g.group, g.characters, g.requests]);
      };
      expect(await days('Europe/London')).toEqual([
        ['2026-03-28', 3, 1],
        ['2026-03-29', 5 + 7 + 11 + 13 + 17 + 19, 6],
        ['2026-03-30', 23 + 29, 2],
        ['2026-10-24', 31, 1],
        ['2026-10-25', 37, 1],
        ['2026-10-26', 41, 1],
      ]);
      expect(await days('Asia/Kolkata')).toEqual([
        ['2026-03-29', 3 + 5 + 7 + 11 + 13, 5],
        ['2026-03-30', 17 + 19 + 23 + 29, 4],
        ['2026-10-25', 31, 1],
        ['2026-10-26', 37 + 41, 2],
      ]);
      const london = await reportUsage(store, account.id, parseUsagePeriod({ from: '2026-03-28', to: '2026-10-26', timezone: 'Europe/London' }, clock.now()), 'key');
      expect(london.total).toEqual({ characters: 236, requests: 12, audioSeconds: 17, outcomes: { completed: 8, cancelled: 2, truncated: 1, failed: 1 } });
      expect(london.groups.map((g) => [g.group, g.characters])).toEqual([
        ['sha256:aaaaaaaaaaaa', 3 + 23],
        ['sha256:bbbbbbbbbbbb', 5 + 11 + 13 + 19 + 29 + 31 + 37],
        [null, 7 + 17 + 41],
      ]);
    });

    it('are exact for periods that begin and end inside a quarter hour, and for empty periods', async () => {
      const { store, clock } = await fresh();
      const account = await store.createAccount({ id: 'acct_edges', plan: 'growth', credits: 10_000 });
      await seed(store, clock, account.id);
      const ranges: TimeRange[] = [
        { fromMs: at('2026-03-29T00:59:59.999Z'), toMs: at('2026-03-29T18:30:00.000Z') }, // C, D, E
        { fromMs: at('2026-03-29T00:00:00.001Z'), toMs: at('2026-03-29T23:00:00.000Z') }, // C … G
        { fromMs: at('2026-03-29T00:07:00.000Z'), toMs: at('2026-03-30T00:07:00.001Z') }, // C … I
        { fromMs: at('2026-03-29T01:00:00.001Z'), toMs: at('2026-03-29T01:14:00.000Z') }, // none
        { fromMs: at('2026-03-29T05:00:00.000Z'), toMs: at('2026-03-29T05:00:00.000Z') }, // empty
      ];
      const totals = await store.aggregateUsage(account.id, ranges, 'voice');
      expect(totals.map((groups) => groups.map((g) => [g.group, g.characters, g.requests]))).toEqual([
        [['aarav', 7 + 13, 2], ['meera', 11, 1]],
        [['aarav', 7 + 13 + 19, 3], ['meera', 11 + 17, 2]],
        [['aarav', 7 + 13 + 19 + 23, 4], ['meera', 11 + 17 + 29, 3]],
        [],
        [],
      ]);
      const [all] = await store.aggregateUsage(account.id, [ranges[2]!], null);
      expect(all).toEqual([{ group: null, characters: 119, requests: 7, audioSeconds: 12.125, outcomes: { completed: 5, cancelled: 0, truncated: 1, failed: 1 } }]);
      expect(await store.aggregateUsage('acct_nobody', ranges, 'key')).toEqual(ranges.map(() => []));
      await expect(store.aggregateUsage(account.id, [{ fromMs: 10, toMs: 5 }], null)).rejects.toThrow(RangeError);
      await expect(store.aggregateUsage(account.id, Array.from({ length: 1_001 }, () => ranges[0]!), null)).rejects.toThrow(/at most 1000/);
    });

    it('lists records a page at a time, oldest first, with a cursor to the next page', async () => {
      const { store, clock } = await fresh();
      const account = await store.createAccount({ id: 'acct_pages', plan: 'growth', credits: 10_000 });
      await seed(store, clock, account.id);
      const range = { fromMs: at('2026-03-29T00:00:00Z'), toMs: at('2026-10-26T00:00:00Z') }; // B … K: 10 records
      const pages: string[][] = [];
      let after: string | undefined;
      for (;;) {
        const page = await store.listUsagePage(account.id, range, { after, limit: 4 });
        pages.push(page.records.map((r) => new Date(r.atMs).toISOString()));
        if (page.next === null) break;
        after = page.next;
      }
      expect(pages.map((p) => p.length)).toEqual([4, 4, 2]);
      expect(pages.flat()).toEqual(RECORDS.slice(1, 11).map(([iso]) => iso));
      const whole = await store.listUsagePage(account.id, range, { limit: 10 });
      expect(whole.records.map(({ id: _id, ...r }) => r)).toEqual((await store.listUsage(account.id, range)).map(({ id: _id, ...r }) => r));
      expect(whole.next).toBeNull();
      await expect(store.listUsagePage(account.id, range, { limit: MAX_USAGE_PAGE + 1 })).rejects.toThrow(RangeError);
      await expect(store.listUsagePage(account.id, range, { limit: 0 })).rejects.toThrow(RangeError);
      await expect(store.listUsagePage(account.id, range, { after: 'nonsense', limit: 5 })).rejects.toThrow(/cursor/);
      expect(await store.listUsagePage('acct_nobody', range, { limit: 5 })).toEqual({ records: [], next: null });
    });

    it('counts reports in a window of their own, apart from synthesis', async () => {
      const { store, clock } = await fresh();
      const account = await store.createAccount({ id: 'acct_reports', plan: 'free', credits: 10 });
      const other = await store.createAccount({ id: 'acct_reports_2', plan: 'free', credits: 10 });
      const t0 = clock.now();
      for (let i = 0; i < 3; i++) {
        expect(await store.admitUsageReport(account.id, 3)).toEqual({ ok: true, rate: { limit: 3, remaining: 2 - i, resetAtMs: t0 + RATE_WINDOW_MS } });
        clock.advance(1_000);
      }
      expect(await store.admitUsageReport(account.id, 3)).toEqual({ ok: false, rate: { limit: 3, remaining: 0, resetAtMs: t0 + RATE_WINDOW_MS }, retryAfterMs: RATE_WINDOW_MS - 3_000 });
      expect((await store.admitUsageReport(other.id, 3)).ok).toBe(true);
      // The synthesis window is untouched: a free account still has its 15 requests.
      expect(await store.rateStatus(account.id, PLAN_LIMITS.free)).toMatchObject({ remaining: 15 });
      clock.advance(RATE_WINDOW_MS - 3_000);
      expect(await store.admitUsageReport(account.id, 3)).toMatchObject({ ok: true, rate: { remaining: 0 } });
    });
  });
}
