// Usage totals: exact character sums, outcome counts, seconds rounded once, groups ordered (null last).

import { describe, expect, it } from 'vitest';
import { summarizeUsage } from '../../../../src/core/usage/usage-summary.js';
import type { UsageRecord } from '../../../../src/store/store.js';

let n = 0;
function record(extra: Partial<UsageRecord>): UsageRecord {
  return {
    id: String(++n),
    atMs: Date.parse('2026-11-24T10:00:00Z'),
    accountId: 'acct_1',
    keyId: 'sha256:aaaaaaaaaaaa',
    endpoint: 'generate',
    voice: 'aarav',
    language: 'hi-IN',
    engine: 'embedded',
    characters: 10,
    audioSeconds: 0.1,
    outcome: 'completed',
    ...extra,
  };
}

describe('summarizeUsage', () => {
  const records = [
    record({ characters: 7, audioSeconds: 0.1 }),
    record({ characters: 5, audioSeconds: 0.2, voice: 'ananya', outcome: 'cancelled' }),
    record({ characters: 0, audioSeconds: 0, keyId: null, endpoint: 'call', callId: 'CA1', outcome: 'failed' }),
    record({ characters: 3, audioSeconds: 0.3, atMs: Date.parse('2026-11-24T19:00:00Z'), keyId: 'sha256:bbbbbbbbbbbb' }),
  ];

  it('totals exactly and counts outcomes', () => {
    const { total } = summarizeUsage(records, 'voice', 'UTC');
    // 0.1 + 0.2 + 0.3 is 0.6000000000000001 in binary floating point: rounded once, at the end.
    expect(total).toEqual({ characters: 15, requests: 4, audioSeconds: 0.6, outcomes: { completed: 2, cancelled: 1, truncated: 0, failed: 1 } });
  });

  it('groups by local day in the given zone, by voice and by key (calls, with no key, last)', () => {
    expect(summarizeUsage(records, 'day', 'UTC').groups.map((g) => [g.group, g.characters])).toEqual([['2026-11-24', 15]]);
    expect(summarizeUsage(records, 'day', 'Asia/Kolkata').groups.map((g) => [g.group, g.characters])).toEqual([
      ['2026-11-24', 12],
      ['2026-11-25', 3],
    ]);
    expect(summarizeUsage(records, 'voice', 'UTC').groups.map((g) => [g.group, g.requests])).toEqual([
      ['aarav', 3],
      ['ananya', 1],
    ]);
    expect(summarizeUsage(records, 'key', 'UTC').groups.map((g) => [g.group, g.characters])).toEqual([
      ['sha256:aaaaaaaaaaaa', 12],
      ['sha256:bbbbbbbbbbbb', 3],
      [null, 0],
    ]);
    expect(summarizeUsage([], 'day', 'UTC')).toEqual({ total: { characters: 0, requests: 0, audioSeconds: 0, outcomes: { completed: 0, cancelled: 0, truncated: 0, failed: 0 } }, groups: [] });
  });
});
