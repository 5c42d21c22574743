// Language-independent parsing of the written forms the front end reads aloud: numbers with Indian or
// Western commas, money amounts (₹, Rs., INR, /-; lakh and crore multipliers), dates and clock times.

/** Largest integer read as words; longer digit strings are read digit by digit (99 lakh crore). */
export const MAX_CARDINAL = 10 ** 14 - 1;

const DIGIT_ZEROS = [0x0966, 0x09e6, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66, 0x0a66] as const;

/**
 * Indian digits (Devanagari ०-९, Bengali ০-৯, Gujarati ૦-૯, Tamil ௦-௯, Telugu ౦-౯, Kannada ೦-೯, and Odia,
 * Malayalam, Gurmukhi) to ASCII. One code point for one, so positions stay valid.
 */
export function foldDigits(text: string): string {
  return text.replace(/[\u0966-\u096f\u09e6-\u09ef\u0a66-\u0a6f\u0ae6-\u0aef\u0b66-\u0b6f\u0be6-\u0bef\u0c66-\u0c6f\u0ce6-\u0cef\u0d66-\u0d6f]/gu, (digit) => {
    const code = digit.codePointAt(0) as number;
    const zero = DIGIT_ZEROS.find((z) => code >= z && code <= z + 9) as number;
    return String(code - zero);
  });
}

export interface ParsedNumber {
  readonly negative: boolean;
  /** Integer digits without separators. */
  readonly integer: string;
  /** Digits after the decimal point ('' when none). */
  readonly fraction: string;
}

const NUMBER = /^([-−])?\s*(\d{1,3}(?:,\d{2,3})+|\d+)(?:\.(\d+))?$/u;

export function parseNumber(text: string): ParsedNumber | null {
  const match = NUMBER.exec(foldDigits(text.trim()));
  if (!match) return null;
  return { negative: match[1] !== undefined, integer: (match[2] as string).replace(/,/g, ''), fraction: match[3] ?? '' };
}

export interface Money {
  readonly rupees: number;
  readonly paise: number;
}

export type Magnitude = 'thousand' | 'lakh' | 'crore' | 'million' | 'billion';
const MAGNITUDE_EXPONENT: Readonly<Record<Magnitude, number>> = { thousand: 3, lakh: 5, crore: 7, million: 6, billion: 9 };

/** Rupees and paise of `integer.fraction × 10^magnitude`, paise rounded half up; null when too large to read. */
export function moneyValue(integer: string, fraction: string, magnitude: Magnitude | undefined): Money | null {
  const exponent = (magnitude ? MAGNITUDE_EXPONENT[magnitude] : 0) + 2;
  const digits = BigInt(`${integer}${fraction}` || '0');
  const scale = exponent - fraction.length;
  let paise: bigint;
  if (scale >= 0) paise = digits * 10n ** BigInt(scale);
  else {
    const divisor = 10n ** BigInt(-scale);
    paise = (digits * 2n + divisor) / (divisor * 2n);
  }
  const rupees = paise / 100n;
  if (rupees > BigInt(MAX_CARDINAL)) return null;
  return { rupees: Number(rupees), paise: Number(paise % 100n) };
}

const CURRENCY_PREFIX = /^(?:₹|rs\.?|inr|रु\.?|रू\.?|ரூ\.?|రూ\.?|ರೂ\.?|રૂ\.?|৳)\s*/iu;
const MAGNITUDE_SUFFIX: ReadonlyArray<readonly [RegExp, Magnitude]> = [
  [/^(?:lakhs?|lacs?|लाख|লাখ|લાખ|லட்சம்|இலட்சம்|లక్షలు|లక్షల|లక్ష|ಲಕ್ಷ)$/iu, 'lakh'],
  [/^(?:crores?|cr|करोड़|करोड|कोटी|কোটি|કરોડ|கோடி|కోట్లు|కోట్ల|కోటి|ಕೋಟಿ)$/iu, 'crore'],
  [/^(?:k|thousand|हज़ार|हजार|হাজার|હજાર|ஆயிரம்|వేలు|వేల|వెయ్యి|ಸಾವಿರ)$/iu, 'thousand'],
  [/^(?:million|mn)$/iu, 'million'],
  [/^(?:billion|bn)$/iu, 'billion'],
];

export function parseMagnitude(word: string): Magnitude | undefined {
  return MAGNITUDE_SUFFIX.find(([pattern]) => pattern.test(word))?.[1];
}

const RUPEES_SUFFIX = /(?:rupees?|रुपये|रुपए)$/iu;
const AMOUNT_PREFIX = /^(\d{1,3}(?:,\d{2,3})+|\d+)(?:\.(\d+))?/u;

/** `₹1,250.50`, `Rs. 500`, `INR 2 lakh`, `500/-`, `1250.5` (a bare amount counts as rupees). */
export function parseMoney(text: string): Money | null {
  let rest = foldDigits(text.trim()).replace(CURRENCY_PREFIX, '');
  // `\s*\/-$` and `\s*(?:rupees?|…)$` without the leading `\s*`, which a regex retries from every space of a run.
  if (rest.endsWith('/-')) rest = rest.slice(0, -2).trimEnd();
  const rupees = RUPEES_SUFFIX.exec(rest);
  if (rupees) rest = rest.slice(0, rupees.index).trimEnd();
  // `^AMOUNT(?:\s*(\S+))?$` in two steps: when the longest amount leaves more than one word, so does every
  // shorter one, and the one regex would try them all.
  const amount = AMOUNT_PREFIX.exec(rest);
  const word = amount && /^(?:\s*(\S+))?$/u.exec(rest.slice(amount[0].length));
  if (!amount || !word) return null;
  const magnitude = word[1] === undefined ? undefined : parseMagnitude(word[1]);
  if (word[1] !== undefined && magnitude === undefined) return null;
  return moneyValue((amount[1] as string).replace(/,/g, ''), amount[2] ?? '', magnitude);
}

export interface ParsedDate {
  readonly day: number | undefined;
  readonly month: number | undefined;
  readonly year: number | undefined;
}

export const ENGLISH_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'] as const;

/** Month number from an English name or abbreviation (`Nov`, `Sept`) or one of `extraNames` (native names, January first). */
export function monthNumber(word: string, extraNames: readonly string[] = []): number | undefined {
  const lower = word.toLowerCase().replace(/\.$/u, '');
  const english = ENGLISH_MONTHS.findIndex((name) => lower.length >= 3 && (name === lower || (name.startsWith(lower) && (lower.length === 3 || lower === 'sept'))));
  if (english >= 0) return english + 1;
  const native = extraNames.indexOf(word);
  return native >= 0 ? (native % 12) + 1 : undefined;
}

export function isValidDate(day: number | undefined, month: number | undefined): boolean {
  if (month !== undefined && (month < 1 || month > 12)) return false;
  if (day === undefined) return true;
  const daysIn = month === undefined ? 31 : [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
  return day >= 1 && day <= daysIn;
}

export type DateFormat = 'dmy' | 'mdy' | 'ymd' | 'dm' | 'md' | 'my' | 'y';
export const DATE_FORMATS: readonly DateFormat[] = ['dmy', 'mdy', 'ymd', 'dm', 'md', 'my', 'y'];

/** A date in the field order of `format` (default day-month-year), separated by / - . or spaces; months may be names. */
export function parseDate(text: string, format: DateFormat = 'dmy', monthNames: readonly string[] = []): ParsedDate | null {
  const fields = foldDigits(text.trim()).replace(/(\d)(?:st|nd|rd|th)\b/giu, '$1').split(/[\s/.,-]+/u).filter((f) => f !== '');
  if (fields.length !== format.length) return null;
  let day: number | undefined;
  let month: number | undefined;
  let year: number | undefined;
  for (const [index, key] of [...format].entries()) {
    const field = fields[index] as string;
    if (key === 'm') {
      month = /^\d{1,2}$/u.test(field) ? Number(field) : monthNumber(field, monthNames);
      if (month === undefined) return null;
    } else if (!/^\d+$/u.test(field)) return null;
    else if (key === 'd') day = Number(field);
    else year = field.length === 2 ? 2000 + Number(field) : Number(field);
  }
  if (year !== undefined && (year < 1 || year > 9999)) return null;
  return isValidDate(day, month) ? { day, month, year } : null;
}

export interface ParsedTime {
  readonly hour24: number;
  readonly minute: number;
  /** An AM/PM was written (or the hour is past noon or midnight): say the time of day. */
  readonly withPeriod: boolean;
}

/** `10:30`, `10:30 AM`, `5 PM`, `10.30 pm`; the period may be AM, PM, a.m., p.m. in any case. */
export function parseTime(text: string): ParsedTime | null {
  const match = /^(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?$/iu.exec(foldDigits(text.trim()));
  if (!match) return null;
  return timeFields(match[1] as string, match[2], match[3]);
}

export function timeFields(hourText: string, minuteText: string | undefined, periodText: string | undefined): ParsedTime | null {
  const hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (minute > 59) return null;
  if (periodText === undefined) {
    if (minuteText === undefined || hour > 23) return null;
    return { hour24: hour, minute, withPeriod: hour > 12 || hour === 0 };
  }
  if (hour < 1 || hour > 12) return null;
  const pm = /^p/iu.test(periodText);
  return { hour24: (hour % 12) + (pm ? 12 : 0), minute, withPeriod: true };
}
