// Calendar arithmetic in an IANA time zone with nothing but Intl: the local day of an instant, and the instant a
// local day or month begins. Usage reports group and bound by the caller's calendar (Asia/Kolkata, say), not UTC's.

const formatters = new Map<string, Intl.DateTimeFormat>();
const DAY_MS = 86_400_000;

/** Throws RangeError for a name Intl does not know. */
export function assertTimeZone(timeZone: string): void {
  formatterFor(timeZone);
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface LocalTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** en-US with 2-digit fields and h23: `11/24/2026, 23:59:07`. format() and a match cost a third of formatToParts. */
const EN_US = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

function localTime(ms: number, timeZone: string): LocalTime {
  const match = EN_US.exec(formatterFor(timeZone).format(new Date(ms)));
  if (match) {
    return { year: Number(match[3]), month: Number(match[1]), day: Number(match[2]), hour: Number(match[4]), minute: Number(match[5]), second: Number(match[6]) };
  }
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year ?? 0, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0 };
}

/** `YYYY-MM-DD` of the instant in the zone. */
export function localDay(ms: number, timeZone: string): string {
  const t = localTime(ms, timeZone);
  return `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}

/** The zone's offset from UTC at the instant, in ms (IST: +19,800,000). Whole seconds, as every zone today. */
function offsetMs(ms: number, timeZone: string): number {
  const t = localTime(ms, timeZone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant local midnight begins on that date (month 1-12; out-of-range days roll over as Date.UTC does).
 * Found from the offset at a first guess, then corrected once for a zone whose offset differs at the answer (DST).
 */
export function startOfLocalDay(year: number, month: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  const first = wall - offsetMs(wall, timeZone);
  return wall - offsetMs(first, timeZone);
}

/** The instant the local month holding `ms` begins. */
export function startOfLocalMonth(ms: number, timeZone: string): number {
  const t = localTime(ms, timeZone);
  return startOfLocalDay(t.year, t.month, 1, timeZone);
}

/**
 * The first instant after `ms` that belongs to another local day, exactly: local midnight of the next date when the
 * zone has one there, else (a zone that skips midnight for DST) the instant its clock jumps past it.
 */
export function nextLocalDayStart(ms: number, timeZone: string): number {
  const day = localDay(ms, timeZone);
  const t = localTime(ms, timeZone);
  const guess = startOfLocalDay(t.year, t.month, t.day + 1, timeZone);
  if (guess > ms && localDay(guess, timeZone) !== day && localDay(guess - 1, timeZone) === day) return guess;
  // Binary search for the change (days are at most 25 hours long; offsets change at whole seconds at most).
  let lo = ms;
  let hi = ms + 26 * 3_600_000;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDay(mid, timeZone) === day) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** A local day of a period: `[fromMs, toMs)` clipped to the period, and its date. */
export interface LocalDaySpan {
  readonly day: string;
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * The local days `[fromMs, toMs)` touches in the zone, in order, the first and last clipped to it. One offset lookup
 * per day (a report's 400 days take a few ms); a day whose offset changes (DST) gets the exact search instead.
 */
export function localDaySpans(fromMs: number, toMs: number, timeZone: string): LocalDaySpan[] {
  const spans: LocalDaySpan[] = [];
  if (fromMs >= toMs) return spans;
  const first = localTime(fromMs, timeZone);
  // The local date of `start` as the UTC midnight of the same calendar date.
  let date = Date.UTC(first.year, first.month - 1, first.day);
  let offset = offsetMs(fromMs, timeZone);
  for (let start = fromMs; start < toMs; ) {
    let next = date + DAY_MS;
    let boundary = next - offset;
    const offsetThere = offsetMs(boundary, timeZone);
    if (offsetThere !== offset) {
      boundary = nextLocalDayStart(start, timeZone);
      offset = offsetMs(boundary, timeZone);
      const t = localTime(boundary, timeZone);
      next = Date.UTC(t.year, t.month - 1, t.day);
    }
    const end = Math.min(boundary, toMs);
    spans.push({ day: new Date(date).toISOString().slice(0, 10), fromMs: start, toMs: end });
    start = end;
    date = next;
  }
  return spans;
}
