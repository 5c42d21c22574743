// The usage period and the calendar arithmetic under it: local days and months in a zone with a fixed offset (IST),
// one with daylight saving (New York), and the refusals a caller meets.

import { describe, expect, it } from 'vitest';
import { isApiError } from '../../../../src/errors.js';
import { localDay, startOfLocalDay, startOfLocalMonth } from '../../../../src/core/usage/time-zone.js';
import { parseUsagePeriod } from '../../../../src/core/usage/usage-period.js';

const NOW = Date.parse('2026-11-24T20:00:00Z'); // 25 Nov 01:30 in India

describe('time zone arithmetic', () => {
  it('finds local midnight and the local day in IST and across a daylight-saving change', () => {
    expect(new Date(startOfLocalDay(2026, 11, 25, 'Asia/Kolkata')).toISOString()).toBe('2026-11-24T18:30:00.000Z');
    expect(localDay(NOW, 'Asia/Kolkata')).toBe('2026-11-25');
    expect(localDay(NOW, 'UTC')).toBe('2026-11-24');
    expect(new Date(startOfLocalMonth(NOW, 'Asia/Kolkata')).toISOString()).toBe('2026-10-31T18:30:00.000Z');
    // New York leaves daylight saving on 1 Nov 2026: midnight is 04:00Z that day and 05:00Z the next.
    expect(new Date(startOfLocalDay(2026, 11, 1, 'America/New_York')).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(new Date(startOfLocalDay(2026, 11, 2, 'America/New_York')).toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(new Date(startOfLocalDay(2026, 12, 32, 'UTC')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('parseUsagePeriod', () => {
  it('defaults to this local month so far, in UTC unless told', () => {
    expect(parseUsagePeriod({}, NOW)).toEqual({ fromMs: Date.parse('2026-11-01T00:00:00Z'), toMs: NOW, timeZone: 'UTC' });
    expect(parseUsagePeriod({ timezone: 'Asia/Kolkata' }, NOW)).toEqual({ fromMs: Date.parse('2026-10-31T18:30:00Z'), toMs: NOW, timeZone: 'Asia/Kolkata' });
  });

  it('reads dates as whole local days and date-times by their offset', () => {
    expect(parseUsagePeriod({ from: '2026-04-01', to: '2027-03-31', timezone: 'Asia/Kolkata' }, NOW)).toEqual({
      fromMs: Date.parse('2026-03-31T18:30:00Z'),
      toMs: Date.parse('2027-03-31T18:30:00Z'),
      timeZone: 'Asia/Kolkata',
    });
    expect(parseUsagePeriod({ from: '2026-11-01T09:30:00+05:30', to: '2026-11-01T04:00:00.500Z' }, NOW)).toMatchObject({
      fromMs: Date.parse('2026-11-01T04:00:00Z'),
      toMs: Date.parse('2026-11-01T04:00:00.500Z'),
    });
  });

  it('refuses what it cannot read with validation_error naming the field', () => {
    const refusal = (input: Parameters<typeof parseUsagePeriod>[0]) => {
      try {
        parseUsagePeriod(input, NOW);
      } catch (error) {
        if (isApiError(error)) return `${error.code}: ${error.message}`;
        throw error;
      }
      return 'accepted';
    };
    expect(refusal({ timezone: 'India/Mumbai' })).toBe("validation_error: timezone: 'India/Mumbai' is not an IANA time zone; use e.g. 'Asia/Kolkata' or 'UTC'.");
    expect(refusal({ from: '2026-13-01' })).toBe('validation_error: from: 2026-13-01 is not a calendar date.');
    expect(refusal({ from: '01/11/2026' })).toMatch(/^validation_error: from: '01\/11\/2026' is neither a date/);
    expect(refusal({ to: '2026-11-01T10:00' })).toMatch(/^validation_error: to: .*with its offset/);
    expect(refusal({ from: '2026-11-02', to: '2026-11-01' })).toBe('validation_error: to: must be after from (a date alone in to includes that whole day).');
    expect(refusal({ from: '2025-01-01', to: '2026-02-05' })).toMatch(/at most 400 days/);
    expect(refusal({ from: '2025-01-01', to: '2026-02-04' })).toBe('accepted'); // 400 days exactly
  });
});
