// The local days of a report period: each span is exactly the instants localDay() files under its date, across
// DST changes (23- and 25-hour days), a half-hour offset, and a zone that skips midnight itself (Santiago).

import { describe, expect, it } from 'vitest';
import { localDay, localDaySpans, nextLocalDayStart } from '../../../../src/core/usage/time-zone.js';

const at = (iso: string) => Date.parse(iso);
const spans = (from: string, to: string, zone: string) =>
  localDaySpans(at(from), at(to), zone).map((s) => [s.day, new Date(s.fromMs).toISOString(), (s.toMs - s.fromMs) / 3_600_000]);

describe('localDaySpans', () => {
  it('gives London 23 hours on the spring change and 25 on the autumn one', () => {
    expect(spans('2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z', 'Europe/London')).toEqual([
      ['2026-03-28', '2026-03-28T00:00:00.000Z', 24],
      ['2026-03-29', '2026-03-29T00:00:00.000Z', 23],
      ['2026-03-30', '2026-03-29T23:00:00.000Z', 24],
      ['2026-03-31', '2026-03-30T23:00:00.000Z', 1],
    ]);
    expect(spans('2026-10-24T23:00:00Z', '2026-10-26T00:00:00Z', 'Europe/London')).toEqual([['2026-10-25', '2026-10-24T23:00:00.000Z', 25]]);
  });

  it('starts Kolkata days at 18:30 UTC and clips the first and last day to the period', () => {
    expect(spans('2026-11-24T12:00:00Z', '2026-11-25T20:00:00Z', 'Asia/Kolkata')).toEqual([
      ['2026-11-24', '2026-11-24T12:00:00.000Z', 6.5],
      ['2026-11-25', '2026-11-24T18:30:00.000Z', 24],
      ['2026-11-26', '2026-11-25T18:30:00.000Z', 1.5],
    ]);
    expect(localDaySpans(5, 5, 'UTC')).toEqual([]);
  });

  it('finds the first instant of a day whose midnight the zone skips (Santiago, 6 Sep 2026 begins at 01:00)', () => {
    expect(spans('2026-09-05T04:00:00Z', '2026-09-07T03:00:00Z', 'America/Santiago')).toEqual([
      ['2026-09-05', '2026-09-05T04:00:00.000Z', 24],
      ['2026-09-06', '2026-09-06T04:00:00.000Z', 23],
    ]);
    const start = nextLocalDayStart(at('2026-09-05T12:00:00Z'), 'America/Santiago');
    expect([localDay(start - 1, 'America/Santiago'), localDay(start, 'America/Santiago')]).toEqual(['2026-09-05', '2026-09-06']);
  });
});
