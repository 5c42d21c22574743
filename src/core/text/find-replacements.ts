// Finds the written forms in a text that must be read differently from how they are spelt (numbers, money,
// dates, times, phone numbers, codes and identifiers, fractions, scores, arithmetic, units, abbreviations,
// addresses) and what to say instead. Rules are tried in order at each token start; the first that matches wins.
// Say-as spans are fixed by the author. en-IN sentences in romanized Hindi are read with the Hinglish pack.
// Over 400 lines: one ordered rule list; the order is the meaning (a PIN before a quantity), so it stays in one place.

import { ChainMatchers } from './chain-matchers.js';
import { isHinglishSentence } from './hinglish-context.js';
import { codeWords, isDigitCode, isMixedCode } from './identifier-readings.js';
import { hinglish } from './languages/hinglish.js';
import { LATIN_ADDRESS_WORDS, LATIN_ID_CUES, LATIN_ID_CUES_WITH_MARKER, type LanguagePack, type UnitKey } from './languages/language-pack.js';
import { foldDigits, isValidDate, monthNumber, moneyValue, parseMagnitude, timeFields } from './parse-forms.js';
import { sentenceSpans } from './sentence-ends.js';
import { slashReading } from './slash-numbers.js';
import type { SourceText } from './source-text.js';
import { dateWords, digitNames, forcedWords, groupedDigits, integerWords, numberWords, phoneWords, webWords } from './verbalize.js';
import { alternation, isWordStart, keywordPattern } from './word-patterns.js';

export interface Replacement {
  /** Source character indices, end exclusive. */
  readonly start: number;
  readonly end: number;
  readonly spoken: string;
}

interface Match {
  /** UTF-16 offset just past the match. */
  readonly end: number;
  readonly spoken: string;
}

type Rule = (scan: Scan, i: number) => Match | null;

/** Stands in for say-as content so no rule matches into or across it. */
const FORCED = '\uFFFC';
const AMOUNT = String.raw`(\d{1,3}(?:,\d{2,3})+|\d+)(?:\.(\d+))?`;
const NUM = String.raw`(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?`;
const PERIOD = String.raw`(a\.m\.|p\.m\.|am|pm)(?![A-Za-z])`;
const ENGLISH_MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec';
// Case matters: 4G is a network, 4 g is grams.
const UNIT_PATTERN: ReadonlyArray<readonly [string, UnitKey]> = [
  ['km/h', 'kmph'], ['kmph', 'kmph'], ['km', 'km'], ['KM', 'km'], ['Km', 'km'], ['kg', 'kg'], ['KG', 'kg'], ['Kg', 'kg'],
  ['mg', 'mg'], ['gm', 'g'], ['g', 'g'], ['cm', 'cm'], ['mm', 'mm'], ['ml', 'ml'], ['mL', 'ml'], ['m', 'm'], ['l', 'l'],
  ['L', 'l'], ['GB', 'gb'], ['Gb', 'gb'], ['MB', 'mb'], ['Mbps', 'mbps'], ['mbps', 'mbps'], ['MBPS', 'mbps'],
];
const SENTENCE_STOP = /[!?।॥\n\d]/u;


interface PackPatterns {
  readonly moneyPrefix: RegExp;
  readonly monthFirst: RegExp;
  readonly dayFirst: RegExp;
  readonly nativeOrdinal: RegExp | undefined;
  /** A case ending written onto the digits just read (`-?இல்`, ` இல்`), not followed by more letters. */
  readonly caseSuffix: RegExp | undefined;
  readonly nativeAbbreviation: RegExp | undefined;
  readonly code: RegExp;
  readonly id: RegExp;
  readonly year: RegExp;
  readonly currencyAfter: RegExp;
  readonly months: readonly string[];
  readonly idCue: RegExp;
  readonly address: RegExp;
}

const patternCache = new Map<LanguagePack, PackPatterns>();

/** `joined` right after the digits (or after a hyphen, when listed so), `spaced` also after one space. */
function suffixPattern(joined: readonly string[], spaced: readonly string[], hyphen: boolean): string {
  const alternatives = [`${hyphen ? '-?' : ''}(${alternation(joined)})`];
  if (spaced.length > 0) alternatives.push(String.raw`\s(${alternation(spaced)})`);
  return `(?:${alternatives.join('|')})(?![\\p{L}\\p{M}])`;
}

function patternsFor(pack: LanguagePack): PackPatterns {
  const cached = patternCache.get(pack);
  if (cached) return cached;
  const magnitudes = [...pack.magnitudeWords.thousand, ...pack.magnitudeWords.lakh, ...pack.magnitudeWords.crore,
    'lakhs', 'lakh', 'lacs', 'lac', 'crores', 'crore', 'cr', 'k', 'thousand', 'million', 'mn', 'billion', 'bn'];
  const months = `${ENGLISH_MONTHS}|${alternation(pack.months)}`;
  const patterns: PackPatterns = {
    moneyPrefix: new RegExp(
      String.raw`(?:₹|Rs\.?|RS\.?|rs\.?|INR|रु\.?|रू\.?|ரூ\.?|రూ\.?|ರೂ\.?|રૂ\.?)\s?${AMOUNT}(?:\s?(${alternation(magnitudes)})(?![\p{L}\p{M}]))?(?:\s?\/-)?`,
      'uy',
    ),
    dayFirst: new RegExp(String.raw`(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+(${months})\.?(?:,?\s+(\d{4}))?(?![\p{L}\p{M}\d])`, 'iuy'),
    monthFirst: new RegExp(String.raw`(${months})\.?\s+(?:(\d{1,2})(?:st|nd|rd|th)?(?![\d:])(?:,?\s+(\d{4}))?|(\d{4}))(?![\p{L}\p{M}\d])`, 'iuy'),
    nativeOrdinal: pack.ordinalSuffixes.length > 0 ? new RegExp(String.raw`(\d{1,3}(?:,\d{2,3})+|\d+)${suffixPattern(pack.ordinalSuffixes, pack.spacedOrdinalSuffixes ?? [], false)}`, 'uy') : undefined,
    caseSuffix: pack.caseSuffixes && pack.withCaseSuffix ? new RegExp(suffixPattern(pack.caseSuffixes, pack.spacedCaseSuffixes ?? [], true), 'uy') : undefined,
    nativeAbbreviation: Object.keys(pack.nativeAbbreviations).length > 0 ? new RegExp(`(?:${alternation(Object.keys(pack.nativeAbbreviations))})`, 'uy') : undefined,
    code: keywordPattern(pack.codeKeywords),
    id: keywordPattern(pack.idKeywords),
    year: keywordPattern(pack.yearKeywords),
    currencyAfter: new RegExp(`^\\s?(?:${alternation([...pack.currencyWords, ...magnitudes])})(?![\\p{L}\\p{M}])`, 'iu'),
    months: pack.months,
    idCue: idCuePattern([...LATIN_ID_CUES, ...(pack.idCues ?? [])]),
    address: keywordPattern([...LATIN_ADDRESS_WORDS, ...(pack.addressWords ?? [])]),
  };
  patternCache.set(pack, patterns);
  return patterns;
}

class Scan {
  constructor(
    readonly s: string,
    readonly pack: LanguagePack,
    readonly patterns: PackPatterns,
    /** Shared by the en-IN and Hinglish scans of one text: what was learnt about a chain holds for both. */
    readonly chains: ChainMatchers,
  ) {}

  match(pattern: RegExp, i: number): RegExpExecArray | null {
    pattern.lastIndex = i;
    return pattern.exec(this.s);
  }

  /** Text before `i` in the same sentence, after the last digit (a keyword belongs to the nearest number). */
  before(i: number, length: number): string {
    const window = this.s.slice(Math.max(0, i - length), i);
    let cut = 0;
    for (let k = 0; k < window.length; k++) if (SENTENCE_STOP.test(window[k] as string)) cut = k + 1;
    return window.slice(cut);
  }

  /** The text around [start, end) within its sentence, digits included (`287/4 after 50 overs`). */
  clause(start: number, end: number, length: number): string {
    const before = this.s.slice(Math.max(0, start - length), start).split(/[.!?।\n]/u).pop() ?? '';
    const after = this.s.slice(end, end + length).split(/[.!?।\n]/u)[0] ?? '';
    return `${before} ${after}`;
  }

  after(end: number, length: number): string {
    const window = this.s.slice(end, end + length);
    const stop = window.search(SENTENCE_STOP);
    return stop < 0 ? window : window.slice(0, stop);
  }

  unitAt(position: number): { end: number; key: UnitKey } | null {
    const m = this.match(UNIT_AFTER, position);
    return m ? { end: position + m[0].length, key: UNIT_PATTERN.find(([text]) => text === m[1])?.[1] as UnitKey } : null;
  }

  /** A case ending of the language written onto the digits that end at `end` (`2024இல்`, `15న`). */
  caseSuffixAt(end: number): RegExpExecArray | null {
    return this.patterns.caseSuffix ? this.match(this.patterns.caseSuffix, end) : null;
  }
}

const rx = (source: string, flags = 'uy'): RegExp => new RegExp(source, flags);
const EMAIL = rx(String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`);
const URL_PATTERN = rx(String.raw`(?:https?:\/\/|www\.)[^\s<>"'\uFFFC]+`, 'iuy');
// A bare domain (`example.com/help`): ChainMatchers.domainEnd.
const MONEY_SUFFIX = rx(String.raw`${AMOUNT}\s?\/-`);
const DATE_ISO = rx(String.raw`(\d{4})-(\d{1,2})-(\d{1,2})(?![\d-])`);
const DATE_NUMERIC = rx(String.raw`(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/.-]\d)`);
const TIME = rx(String.raw`(\d{1,2})([:.])(\d{2})(?!\d)(?:\s?${PERIOD})?`, 'iuy');
const HOUR_PERIOD = rx(String.raw`(\d{1,2})\s?${PERIOD}`, 'iuy');
const PHONE_INTERNATIONAL = rx(String.raw`\+\d{1,3}(?:[\s-]?\d){7,13}(?!\d)`);
const PHONE_MOBILE = rx(String.raw`0?[6-9]\d{4}[\s-]?\d{5}(?!\d)`);
const PHONE_TOLL_FREE = rx(String.raw`1800[\s-]?\d{3}[\s-]?\d{3,4}(?!\d)`);
const PHONE_LANDLINE = rx(String.raw`0\d{2,4}[\s-]\d{3,4}[\s-]?\d{3,4}(?!\d)`);
const ORDINAL_LATIN = rx(String.raw`(\d+)(st|nd|rd|th)(?![A-Za-z])`, 'iuy');
// Not followed by more of a number (`[\d.,]*[-–]?\d`, written so that it reads no further than the first digit).
const RANGE = rx(String.raw`(${NUM})\s?[-–]\s?(${NUM})(\s?%)?(?![.,]*[-–]?\d)`);
const NEGATIVE = rx(String.raw`[-−](${NUM})(\s?%)?`);
const PERCENT = rx(String.raw`(${NUM})\s?%`);
const UNIT = rx(String.raw`(${NUM})\s?(${alternation(UNIT_PATTERN.map(([text]) => text))})(?![\p{L}\p{N}])`);
const UNIT_AFTER = rx(String.raw`\s?(${alternation(UNIT_PATTERN.map(([text]) => text))})(?![\p{L}\p{N}])`);
const NUMBER = rx(AMOUNT);
const TITLE = rx(String.raw`(Dr|Mr|Mrs|Ms|Prof|DR|MR|MRS)(?:\.|(?=\s))(?=\s*\p{L})`);
const NUMBER_ABBREVIATION = rx(String.raw`(?:No\.?|NO\.?|no\.)(?=\s?\d)`);
/** A UPI id (VPA): `name@bank`, no dot after the @ (an e-mail address has one, and is matched first). */
const UPI_ID = rx(String.raw`[A-Za-z0-9][A-Za-z0-9._-]*@[A-Za-z][A-Za-z0-9]+(?![A-Za-z0-9.@])`);
/** An Indian vehicle registration written in groups: state, RTO district, series, number (MoRTH format). */
const VEHICLE_REGISTRATION = rx(String.raw`[A-Z]{2}[\s-]\d{1,2}[\s-][A-Z]{1,3}[\s-]\d{1,4}(?![A-Za-z0-9])`);
// A masked card or account number (`XXXX1234`, `xx 4321`, `****1234`; only the digits are read): ChainMatchers.maskedDigits.
/** A token of letters and digits, hyphens between parts: `6E-2134`, `AB12CD34`, `HDFC0001234`, `COVID-19`. */
const CODE_TOKEN = rx(String.raw`[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?![A-Za-z0-9@])`);
// Hyphen-joined digit groups (`4521-873`, `1234-5678-9012`): ChainMatchers.digitGroupsEnd.
// Fractions, scores and other numbers joined by a slash: slash-numbers.ts.
// `5 + 3 = 8`, `12 × 4 = 48`: operands and operators, then `=` and the result (without `=` it may be a range):
// ChainMatchers.arithmeticEnd.
/** Indian PIN codes: six digits, the first 1-8 (India Post's postal regions), never ending 000 (no office is 000). */
const PIN_CODE = /^[1-8]\d{2}(?!000)\d{3}$/u;

const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', ')', ']', "'", '"']);

/** Without its closing punctuation (`[.,;:!?)\]'"]+$`, by a loop: the regex would retry every run of marks inside). */
function trimTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

const rules: readonly Rule[] = [
  (scan, i) => {
    if (i > 0 && /[A-Za-z0-9._%+-]/u.test(scan.s[i - 1] as string)) return null;
    const m = scan.match(EMAIL, i);
    return m ? { end: i + m[0].length, spoken: webWords(m[0], scan.pack) } : null;
  },
  (scan, i) => {
    if (i > 0 && /[A-Za-z0-9._@-]/u.test(scan.s[i - 1] as string)) return null;
    const m = scan.match(UPI_ID, i);
    return m ? { end: i + m[0].length, spoken: webWords(m[0], scan.pack) } : null;
  },
  (scan, i) => {
    if (!isWordStart(scan.s, i)) return null;
    const vehicle = scan.match(VEHICLE_REGISTRATION, i);
    if (vehicle) return { end: i + vehicle[0].length, spoken: codeWords(vehicle[0], scan.pack) };
    const masked = scan.chains.maskedDigits(i);
    return masked ? { end: masked.end, spoken: digitNames(masked.digits, scan.pack) } : null;
  },
  (scan, i) => {
    if (!isWordStart(scan.s, i)) return null;
    const url = scan.match(URL_PATTERN, i);
    const end = url ? i + url[0].length : scan.chains.domainEnd(i);
    if (end < 0) return null;
    const text = trimTrailingPunctuation(scan.s.slice(i, end));
    return { end: i + text.length, spoken: webWords(text, scan.pack) };
  },
  (scan, i) => {
    if (!isWordStart(scan.s, i)) return null;
    const m = scan.match(scan.patterns.moneyPrefix, i);
    if (!m) return null;
    const money = moneyValue((m[1] as string).replace(/,/g, ''), m[2] ?? '', m[3] === undefined ? undefined : parseMagnitude(m[3]));
    return money ? { end: i + m[0].length, spoken: scan.pack.money(money.rupees, money.paise) } : null;
  },
  (scan, i) => {
    const m = scan.match(MONEY_SUFFIX, i);
    const money = m && moneyValue((m[1] as string).replace(/,/g, ''), m[2] ?? '', undefined);
    return m && money ? { end: i + m[0].length, spoken: scan.pack.money(money.rupees, money.paise) } : null;
  },
  (scan, i) => {
    const m = scan.match(DATE_ISO, i);
    if (!m) return null;
    const [day, month, year] = [Number(m[3]), Number(m[2]), Number(m[1])];
    return isValidDate(day, month) ? { end: i + m[0].length, spoken: scan.pack.date(day, month, year) } : null;
  },
  (scan, i) => {
    const m = scan.match(DATE_NUMERIC, i);
    if (!m) return null;
    const [day, month] = [Number(m[1]), Number(m[3])];
    const year = (m[4] as string).length === 2 ? 2000 + Number(m[4]) : Number(m[4]);
    return isValidDate(day, month) ? { end: i + m[0].length, spoken: scan.pack.date(day, month, year) } : null;
  },
  (scan, i) => {
    const m = scan.match(scan.patterns.dayFirst, i);
    if (!m) return null;
    const day = Number(m[1]);
    const month = monthNumber(m[2] as string, scan.patterns.months);
    return isValidDate(day, month) ? { end: i + m[0].length, spoken: dateWords(day, month, m[3] === undefined ? undefined : Number(m[3]), scan.pack) } : null;
  },
  (scan, i) => {
    if (!isWordStart(scan.s, i)) return null;
    const m = scan.match(scan.patterns.monthFirst, i);
    if (!m) return null;
    const month = monthNumber(m[1] as string, scan.patterns.months);
    const day = m[2] === undefined ? undefined : Number(m[2]);
    const year = m[3] ?? m[4];
    return isValidDate(day, month) ? { end: i + m[0].length, spoken: dateWords(day, month, year === undefined ? undefined : Number(year), scan.pack) } : null;
  },
  (scan, i) => {
    const m = scan.match(TIME, i);
    // 10.30 is a decimal unless AM/PM follows; 10:30 is always a time.
    if (!m || (m[2] === '.' && m[4] === undefined)) return null;
    const time = timeFields(m[1] as string, m[3], m[4]);
    return time ? { end: i + m[0].length, spoken: withoutEcho(scan.pack.time(time.hour24, time.minute, time.withPeriod), scan.s, i + m[0].length) } : null;
  },
  (scan, i) => {
    const m = scan.match(HOUR_PERIOD, i);
    const time = m && timeFields(m[1] as string, undefined, m[2]);
    return m && time ? { end: i + m[0].length, spoken: scan.pack.time(time.hour24, time.minute, true) } : null;
  },
  (scan, i) => {
    if (!isWordStart(scan.s, i)) return null;
    const m = scan.match(PHONE_INTERNATIONAL, i) ?? scan.match(PHONE_MOBILE, i) ?? scan.match(PHONE_TOLL_FREE, i) ?? scan.match(PHONE_LANDLINE, i);
    return m ? { end: i + m[0].length, spoken: phoneWords(m[0], scan.pack) } : null;
  },
  (scan, i) => {
    const words = scan.pack.arithmetic;
    if (!words || (i > 0 && /[\d.,/]/u.test(scan.s[i - 1] as string))) return null;
    const end = scan.chains.arithmeticEnd(i);
    if (end < 0) return null;
    const spoken = scan.s.slice(i, end).split(/\s*([+×*÷−=-]|x(?=\s))\s*/u).filter((part) => part !== '').map((part) => {
      switch (part) {
        case '+': return words.plus;
        case '-': case '−': return words.minus;
        case '×': case '*': case 'x': return words.times;
        case '÷': return words.dividedBy;
        case '=': return words.equals;
        default: return numberWords(part, scan.pack);
      }
    });
    return { end, spoken: spoken.join(' ') };
  },
  (scan, i) => {
    if (!isWordStart(scan.s, i) || (i > 0 && /[.,/]/u.test(scan.s[i - 1] as string))) return null;
    return slashReading(scan, i);
  },
  (scan, i) => {
    if (!isWordStart(scan.s, i)) return null;
    const end = scan.chains.digitGroupsEnd(i);
    if (end < 0) return null;
    const code = scan.s.slice(i, end);
    if (!isDigitCode(code.split('-')) && !idCueBefore(scan, i)) return null;
    return { end, spoken: codeWords(code, scan.pack) };
  },
  (scan, i) => {
    const m = scan.match(ORDINAL_LATIN, i) ?? (scan.patterns.nativeOrdinal ? scan.match(scan.patterns.nativeOrdinal, i) : null);
    const digits = m && (m[1] as string).replace(/,/gu, '');
    if (!m || !digits || digits.length > 9) return null;
    const n = Number(digits);
    const suffix = (m[2] ?? m[3]) as string;
    // `५ला` is "to five" (पाचला), not an ordinal: ला makes one only of 1 (पहिला).
    const fits = scan.pack.ordinalSuffixNumbers?.[suffix];
    if (fits && !fits.includes(n)) return null;
    const end = i + m[0].length;
    return { end, spoken: scan.pack.ordinal(n, suffix, scan.s.slice(end, end + 12)) };
  },
  (scan, i) => {
    if (i > 0 && /[\d.,–-]/u.test(scan.s[i - 1] as string)) return null;
    const m = scan.match(RANGE, i);
    if (!m || /^0\d/u.test(m[1] as string) || (m[1] as string).replace(/\D/gu, '').length > 7 || (m[2] as string).replace(/\D/gu, '').length > 7) return null;
    const range = scan.pack.range(numberWords(m[1] as string, scan.pack), numberWords(m[2] as string, scan.pack));
    return { end: i + m[0].length, spoken: m[3] ? scan.pack.percent(range) : range };
  },
  (scan, i) => {
    if (i > 0 && !/[\s(:=]/u.test(scan.s[i - 1] as string)) return null;
    const m = scan.match(NEGATIVE, i);
    if (!m) return null;
    const words = `${scan.pack.minusWord} ${numberWords(m[1] as string, scan.pack)}`;
    return { end: i + m[0].length, spoken: m[2] ? scan.pack.percent(words) : words };
  },
  (scan, i) => {
    const m = scan.match(PERCENT, i);
    return m ? { end: i + m[0].length, spoken: scan.pack.percent(numberWords(m[1] as string, scan.pack)) } : null;
  },
  (scan, i) => {
    const m = scan.match(UNIT, i);
    if (!m) return null;
    const key = UNIT_PATTERN.find(([text]) => text === m[2])?.[1] as UnitKey;
    const amount = Number((m[1] as string).replace(/,/g, ''));
    return { end: i + m[0].length, spoken: `${numberWords(m[1] as string, scan.pack, true)} ${scan.pack.unit(key, amount)}` };
  },
  (scan, i) => {
    if (i > 0 && /[A-Za-z0-9@._-]/u.test(scan.s[i - 1] as string)) return null;
    const m = scan.match(CODE_TOKEN, i);
    if (!m || !isMixedCode(m[0])) return null;
    return { end: i + m[0].length, spoken: codeWords(m[0], scan.pack) };
  },
  plainNumber,
  (scan, i) => {
    if (!isWordStart(scan.s, i)) return null;
    const m = scan.match(NUMBER_ABBREVIATION, i) ?? scan.match(TITLE, i);
    if (!m) return null;
    const key = (m[1] ?? 'no').toLowerCase() as keyof LanguagePack['titles'];
    return { end: i + m[0].length, spoken: scan.pack.titles[key] };
  },
  (scan, i) => {
    const pattern = scan.patterns.nativeAbbreviation;
    if (!pattern || !isWordStart(scan.s, i)) return null;
    const m = scan.match(pattern, i);
    return m ? { end: i + m[0].length, spoken: scan.pack.nativeAbbreviations[m[0]] as string } : null;
  },
  (scan, i) => {
    const ch = scan.s[i];
    if (ch === '&') return { end: i + 1, spoken: scan.pack.symbols.and };
    if (ch === '%') return { end: i + 1, spoken: scan.pack.symbols.percent };
    return null;
  },
];

/** A bare number: a code or identifier digit by digit, a year, or a quantity (before a noun in its attributive form). */
function plainNumber(scan: Scan, i: number): Match | null {
  if (i > 0 && /\d/u.test(scan.s[i - 1] as string)) return null;
  const m = scan.match(NUMBER, i);
  if (!m) return null;
  const end = i + m[0].length;
  const integer = (m[1] as string).replace(/,/g, '');
  const { pack, patterns } = scan;
  if (m[2] !== undefined) return { end, spoken: numberWords(m[0], pack) };
  const next = scan.s.slice(end, end + 40);
  const beforeMoney = patterns.currencyAfter.test(next);
  // A case ending on the digits (`1க்கு`) takes the full form (ஒன்றுக்கு), not the one before a noun (ஒரு).
  const attributive = beforeMoney || (pack.attributiveBeforeWords && /^\s?[\p{L}]/u.test(next) && !/^\s?[A-Za-z]/u.test(next) && !scan.caseSuffixAt(end));
  if (m[1]?.includes(',')) return { end, spoken: integerWords(integer, pack, attributive) };
  const attachedToLetters = (i > 0 && /[A-Za-z]/u.test(scan.s[i - 1] as string)) || /^[A-Za-z]/u.test(next);
  if (attachedToLetters) return { end, spoken: integer.length >= 3 ? groupedDigits(integer, pack) : pack.cardinal(Number(integer)) };
  if (integer.length > 1 && integer.startsWith('0')) return { end, spoken: groupedDigits(integer, pack) };
  if (!beforeMoney) {
    const codeNear = patterns.code.test(scan.before(i, 30)) || patterns.code.test(scan.after(end, 25));
    if (integer.length >= 3 && codeNear) return { end, spoken: groupedDigits(integer, pack) };
    if (integer.length >= 3 && idCueBefore(scan, i)) return { end, spoken: groupedDigits(integer, pack) };
    if (PIN_CODE.test(integer) && addressBefore(scan, i) && /^\s*(?:[,.;)\]]|$)/u.test(scan.after(end, 3))) {
      return { end, spoken: groupedDigits(integer, pack) };
    }
    if (integer.length >= 6 && patterns.id.test(scan.before(i, 24))) return { end, spoken: groupedDigits(integer, pack) };
    if (integer.length >= 7) return { end, spoken: groupedDigits(integer, pack) };
    const value = Number(integer);
    if (integer.length === 4 && value >= 1000 && value <= 2999 && (patterns.year.test(scan.before(i, 14)) || patterns.year.test(scan.after(end, 14)))) {
      return { end, spoken: pack.year(value) };
    }
  }
  return { end, spoken: integerWords(integer, pack, attributive) };
}

/** A reading of digits (or a percent) followed by a case ending written onto them: the ending fused with its last word. */
function withCaseSuffix(scan: Scan, matched: Match): Match {
  if (!/[\d%]/u.test(scan.s[matched.end - 1] as string) || !scan.pack.withCaseSuffix) return matched;
  const suffix = scan.caseSuffixAt(matched.end);
  const fused = suffix && scan.pack.withCaseSuffix(matched.spoken, (suffix[1] ?? suffix[2]) as string);
  return fused ? { end: matched.end + (suffix as RegExpExecArray)[0].length, spoken: fused } : matched;
}

/** `5:30 baje`, `5:30 बजे`: the clock word the text already says is not said twice. */
function withoutEcho(spoken: string, s: string, end: number): string {
  const last = /(\S+)$/u.exec(spoken)?.[1];
  if (!last) return spoken;
  const next = /^\s*([\p{L}\p{M}]+)/u.exec(s.slice(end, end + 20))?.[1];
  return next !== undefined && next.toLowerCase() === last.toLowerCase() ? spoken.slice(0, -last.length).trimEnd() : spoken;
}

/** A strong cue (`Flight`, `गाड़ी संख्या`) or a marked one (`Order No.`, `Booking ID:`), maybe a short carrier code, then the number. */
function idCuePattern(cues: readonly string[]): RegExp {
  return new RegExp(
    String.raw`(?:^|[^\p{L}\p{M}])(?:(?:${alternation(cues)})(?:\s*(?:no\.?|number|id|#|:))*|(?:${alternation(LATIN_ID_CUES_WITH_MARKER)})(?:\s+(?:no\.?|number|id)|\s*#|\s*:)(?:\s*[:#])?)\s*(?:[A-Z0-9]{1,3}[\s-])?$`,
    'iu',
  );
}

/** `Flight 2134`, `Train 12951`, `Order No. 4521`, `Booking ID: 4521`: an identifier whatever its length. */
function idCueBefore(scan: Scan, i: number): boolean {
  return scan.patterns.idCue.test(scan.before(i, 32));
}

/**
 * An address ends here: an address word earlier in the clause (`Andheri East, Mumbai 400069`, `MG Road, Pune 411001`,
 * `गांधी नगर, भोपाल 462001`), or a capitalised place name right before the number after a comma (`Flat 4, Pune 411001`).
 */
function addressBefore(scan: Scan, i: number): boolean {
  const clause = scan.s.slice(Math.max(0, i - 80), i).split(/[.!?।\n]/u).pop() ?? '';
  return scan.patterns.address.test(clause) || /,[^,]*\p{Lu}[\p{Ll}]+[\s,–-]+$/u.test(clause);
}

/** The replacements of `source` read in `pack`'s language, sorted and non-overlapping, in source character indices. */
export function findReplacements(source: SourceText, pack: LanguagePack): Replacement[] {
  const { chars, forced } = source;
  const units = chars.map((ch) => foldDigits(ch));
  for (const span of forced) for (let k = span.start; k < span.end; k++) units[k] = FORCED;
  // UTF-16 offset → source character index (characters outside the BMP take two units).
  const offsets: number[] = [];
  const indexAt = new Int32Array(units.reduce((n, unit) => n + unit.length, 0) + 1);
  let offset = 0;
  units.forEach((unit, index) => {
    offsets.push(offset);
    for (let k = 0; k < unit.length; k++) indexAt[offset + k] = index;
    offset += unit.length;
  });
  indexAt[offset] = units.length;
  const s = units.join('');
  const chains = new ChainMatchers(s);
  const scan = new Scan(s, pack, patternsFor(pack), chains);
  // en-IN: sentences in romanized Hindi are read with the Hinglish pack (spans in UTF-16 offsets of `s`, in order).
  const hinglishScan = pack.code === 'en-IN' ? new Scan(s, hinglish, patternsFor(hinglish), chains) : undefined;
  const hinglishSpans = hinglishScan
    ? sentenceSpans(chars)
        .filter((span) => isHinglishSentence(chars.slice(span.start, span.end).join('')))
        .map((span) => ({ start: offsets[span.start] as number, end: span.end < offsets.length ? (offsets[span.end] as number) : s.length }))
    : [];
  let nextSpan = 0;
  // `i` only grows, so the spans are walked once.
  const scanAt = (i: number): Scan => {
    while (nextSpan < hinglishSpans.length && (hinglishSpans[nextSpan] as { end: number }).end <= i) nextSpan++;
    const span = hinglishSpans[nextSpan];
    return hinglishScan && span !== undefined && i >= span.start ? hinglishScan : scan;
  };
  const found: Replacement[] = forced.map((span) => ({
    start: span.start,
    end: span.end,
    spoken: forcedWords(span, chars.slice(span.start, span.end).join(''), pack),
  }));
  let i = 0;
  while (i < s.length) {
    const ch = s[i] as string;
    const candidate = /[\d+₹&%\p{L}½¼¾⅓⅔⅛⅜⅝⅞-]|−/u.test(ch) && (/[\d&%½¼¾⅓⅔⅛⅜⅝⅞]/u.test(ch) || isWordStart(s, i) || /[+₹]/u.test(ch));
    let matched: Match | null = null;
    if (candidate) {
      const here = scanAt(i);
      for (const rule of rules) {
        matched = rule(here, i);
        if (matched) break;
      }
    }
    if (matched && matched.end > i) {
      matched = withCaseSuffix(scanAt(i), matched);
      found.push({ start: indexAt[i] as number, end: indexAt[matched.end] as number, spoken: matched.spoken });
      i = matched.end;
    } else {
      const code = s.charCodeAt(i);
      i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
