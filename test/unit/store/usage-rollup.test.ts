// How a report interval splits into whole rollup buckets (day, hour, quarter hour, largest first) and the short
// record ranges at its edges: every instant exactly once, and a local day in any zone a handful of pieces.

import { describe, expect, it } from 'vitest';
import { ROLLUP_TIERS, UsageAccumulator, rollupPieces } from '../../../src/store/usage-rollup.js';

const at = (iso: string) => Date.parse(iso);
const show = (from: string, to: string) =>
  rollupPieces({ fromMs: at(from), toMs: at(to) }).map((p) => [p.tier?.name ?? 'records', new Date(p.fromMs).toISOString(), new Date(p.toMs).toISOString()]);

describe('rollupPieces', () => {
  it('reads a UTC day as one day bucket, and a Kolkata day as 23 hours and 4 quarter hours', () => {
    expect(show('2026-11-24T00:00:00Z', '2026-11-25T00:00:00Z')).toEqual([['d', '2026-11-24T00:00:00.000Z', '2026-11-25T00:00:00.000Z']]);
    expect(show('2026-11-23T18:30:00Z', '2026-11-24T18:30:00Z')).toEqual([
      ['q', '2026-11-23T18:30:00.000Z', '2026-11-23T19:00:00.000Z'],
      ['h', '2026-11-23T19:00:00.000Z', '2026-11-24T18:00:00.000Z'],
      ['q', '2026-11-24T18:00:00.000Z', '2026-11-24T18:30:00.000Z'],
    ]);
  });

  it('reads what no bucket covers whole from the records, and covers every instant exactly once', () => {
    expect(show('2026-11-24T10:07:30.5Z', '2026-11-26T11:20:00Z')).toEqual([
      ['records', '2026-11-24T10:07:30.500Z', '2026-11-24T10:15:00.000Z'],
      ['q', '2026-11-24T10:15:00.000Z', '2026-11-24T11:00:00.000Z'],
      ['h', '2026-11-24T11:00:00.000Z', '2026-11-25T00:00:00.000Z'],
      ['d', '2026-11-25T00:00:00.000Z', '2026-11-26T00:00:00.000Z'],
      ['h', '2026-11-26T00:00:00.000Z', '2026-11-26T11:00:00.000Z'],
      ['q', '2026-11-26T11:00:00.000Z', '2026-11-26T11:15:00.000Z'],
      ['records', '2026-11-26T11:15:00.000Z', '2026-11-26T11:20:00.000Z'],
    ]);
    expect(show('2026-11-24T10:01:00Z', '2026-11-24T10:02:00Z')).toEqual([['records', '2026-11-24T10:01:00.000Z', '2026-11-24T10:02:00.000Z']]);
    expect(rollupPieces({ fromMs: 7, toMs: 7 })).toEqual([]);
    for (const [from, to] of [[1_700_000_123_457, 1_734_567_890_123], [0, 900_000], [899_999, 3_600_001]] as const) {
      const pieces = rollupPieces({ fromMs: from, toMs: to });
      expect(pieces[0]!.fromMs).toBe(from);
      expect(pieces.at(-1)!.toMs).toBe(to);
      pieces.forEach((p, i) => {
        if (i > 0) expect(p.fromMs).toBe(pieces[i - 1]!.toMs);
        if (p.tier) expect([p.fromMs % p.tier.spanMs, p.toMs % p.tier.spanMs]).toEqual([0, 0]);
        else expect(p.toMs - p.fromMs).toBeLessThan(ROLLUP_TIERS.at(-1)!.spanMs);
      });
    }
  });
});

describe('UsageAccumulator', () => {
  it('sums per group and outcome, drops groups without records and orders by value, null last', () => {
    const totals = new UsageAccumulator();
    totals.add(null, 'completed', 5, 2, 1.5);
    totals.add('b', 'cancelled', 3, 1, 0.25);
    totals.add('a', 'failed', 0, 1, 0);
    totals.add('b', 'completed', 4, 1, 0.5);
    totals.add('c', 'completed', 0, 0, 0);
    expect(totals.result()).toEqual([
      { group: 'a', characters: 0, requests: 1, audioSeconds: 0, outcomes: { completed: 0, cancelled: 0, truncated: 0, failed: 1 } },
      { group: 'b', characters: 7, requests: 2, audioSeconds: 0.75, outcomes: { completed: 1, cancelled: 1, truncated: 0, failed: 0 } },
      { group: null, characters: 5, requests: 2, audioSeconds: 1.5, outcomes: { completed: 2, cancelled: 0, truncated: 0, failed: 0 } },
    ]);
  });
});
