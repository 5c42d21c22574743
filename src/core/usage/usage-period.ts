// The period of a usage report from what a caller types (`from`, `to`, `timezone`), shared by GET /v1/usage and
// `raaga usage`: a date alone is a whole local day in the time zone, a date-time needs its offset; by default the
// period is this local month so far.

import { ApiError } from '../../errors.js';
import { DAY_MS, DEFAULT_USAGE_RETENTION_DAYS } from '../../config.js';
import type { TimeRange } from '../../store/store.js';
import { assertTimeZone, startOfLocalDay, startOfLocalMonth } from './time-zone.js';

/** Longer periods would outlast the default retention and read too much at once. */
export const MAX_USAGE_PERIOD_DAYS = DEFAULT_USAGE_RETENTION_DAYS;
export const DEFAULT_USAGE_TIME_ZONE = 'UTC';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** ISO 8601 with a mandatory offset: `2026-11-01T09:30:00+05:30`, `2026-11-01T04:00:00.000Z`. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

export interface UsagePeriodInput {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly timezone?: string | undefined;
}

export interface UsagePeriod extends TimeRange {
  readonly timeZone: string;
}

/** Throws ApiError validation_error naming the field and what it accepts. */
export function parseUsagePeriod(input: UsagePeriodInput, nowMs: number): UsagePeriod {
  const timeZone = input.timezone ?? DEFAULT_USAGE_TIME_ZONE;
  try {
    assertTimeZone(timeZone);
  } catch {
    throw invalid('timezone', `'${timeZone}' is not an IANA time zone; use e.g. 'Asia/Kolkata' or 'UTC'`);
  }
  const fromMs = input.from === undefined ? startOfLocalMonth(nowMs, timeZone) : instant('from', input.from, timeZone, 'start');
  const toMs = input.to === undefined ? nowMs : instant('to', input.to, timeZone, 'end');
  if (fromMs >= toMs) throw invalid('to', 'must be after from (a date alone in to includes that whole day)');
  if (toMs - fromMs > MAX_USAGE_PERIOD_DAYS * DAY_MS) throw invalid('to', `the period may span at most ${MAX_USAGE_PERIOD_DAYS} days; ask for several periods`);
  return { fromMs, toMs, timeZone };
}

function instant(field: 'from' | 'to', value: string, timeZone: string, edge: 'start' | 'end'): number {
  const date = DATE.exec(value);
  if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const check = new Date(Date.UTC(year, month - 1, day));
    if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) throw invalid(field, `${value} is not a calendar date`);
    return startOfLocalDay(year, month, edge === 'start' ? day : day + 1, timeZone);
  }
  if (DATE_TIME.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  throw invalid(field, `'${value}' is neither a date (YYYY-MM-DD) nor a date-time with its offset (2026-11-01T09:30:00+05:30 or …Z)`);
}

function invalid(field: string, problem: string): ApiError {
  return new ApiError('validation_error', `${field}: ${problem}.`);
}
