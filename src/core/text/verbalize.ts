// Turns parsed written forms into words of one language: numbers (cardinal, decimal, negative), digit strings
// with grouping pauses, phone numbers, money, dates, times, e-mail and web addresses, and say-as spans.

import type { LanguagePack } from './languages/language-pack.js';
import { ALL_MONTH_NAMES } from './languages/index.js';
import { foldDigits, MAX_CARDINAL, parseDate, parseMoney, parseNumber, parseTime, type DateFormat, type Money, type ParsedNumber } from './parse-forms.js';
import type { ForcedSpan } from './source-text.js';

/** Group separator in digit strings: eSpeak (and every engine we know) pauses briefly at a comma. */
export const GROUP_PAUSE = ', ';

export function digitNames(digits: string, pack: LanguagePack): string {
  return [...digits].map((digit) => pack.digitNames[Number(digit)] ?? digit).join(' ');
}

/**
 * Digit by digit with pauses between groups, the way people read codes: up to 4 digits in one breath, 5-6 as
 * 3 + rest (OTP 482 913), 10 as 5 + 5 (mobile numbers), longer ones in fours (account numbers).
 */
export function groupedDigits(digits: string, pack: LanguagePack): string {
  return digitGroups(digits).map((group) => digitNames(group, pack)).join(GROUP_PAUSE);
}

export function digitGroups(digits: string): string[] {
  const n = digits.length;
  if (n <= 4) return [digits];
  if (n <= 6) return [digits.slice(0, 3), digits.slice(3)];
  if (n === 10) return [digits.slice(0, 5), digits.slice(5)];
  const groups: string[] = [];
  for (let i = 0; i < n; i += 4) groups.push(digits.slice(i, i + 4));
  // A lone last digit joins the group before it.
  if (groups.length > 1 && (groups[groups.length - 1] as string).length === 1) {
    const last = groups.pop() as string;
    groups[groups.length - 1] += last;
  }
  return groups;
}

/** Integer digits as words, or digit by digit when too long to read as a quantity. */
export function integerWords(integer: string, pack: LanguagePack, attributive = false): string {
  const value = Number(integer);
  if (integer.length > 14 || value > MAX_CARDINAL) return groupedDigits(integer, pack);
  return attributive ? pack.attributive(value) : pack.cardinal(value);
}

/** CLDR's `x.x` rule in every locale: the integer, the point word, then the fraction digit by digit. */
function parsedNumberWords(number: ParsedNumber, pack: LanguagePack, attributive = false): string {
  const whole = number.fraction === ''
    ? integerWords(number.integer, pack, attributive)
    : `${integerWords(number.integer, pack)} ${pack.pointWord} ${digitNames(number.fraction, pack)}`;
  return number.negative ? `${pack.minusWord} ${whole}` : whole;
}

export function numberWords(text: string, pack: LanguagePack, attributive = false): string {
  const number = parseNumber(text);
  return number ? parsedNumberWords(number, pack, attributive) : text;
}

function moneyWords(money: Money, pack: LanguagePack): string {
  return pack.money(money.rupees, money.paise);
}

/** Phone numbers digit by digit, one pause per written group; a 10-digit group splits 5 + 5; + is read. */
export function phoneWords(text: string, pack: LanguagePack): string {
  const folded = foldDigits(text.trim());
  const plus = folded.startsWith('+');
  let groups = folded.replace(/^\+/u, '').split(/[^\d]+/u).filter((group) => group !== '');
  // +919876543210 written without spaces: the country code 91 then the 10-digit number.
  if (plus && groups.length === 1 && (groups[0] as string).length === 12 && groups[0]?.startsWith('91')) {
    groups = ['91', (groups[0] as string).slice(2)];
  }
  const spoken = groups.flatMap((group, index) => {
    if (group.length === 11 && group.startsWith('0') && !(plus && index === 0)) return ['0', ...digitGroups(group.slice(1))];
    return group.length > 5 ? digitGroups(group) : [group];
  });
  const words = spoken.map((group) => digitNames(group, pack)).join(GROUP_PAUSE);
  return plus ? `${pack.plusWord} ${words}` : words;
}

/** E-mail and web addresses: letters stay (the engine reads Latin words), digits are named, symbols spoken. */
export function webWords(text: string, pack: LanguagePack): string {
  const { symbols } = pack;
  let bare = text.replace(/^https?:\/\//iu, '');
  // Trailing slashes by a loop: `\/+$` would retry every run of slashes inside the address.
  while (bare.endsWith('/')) bare = bare.slice(0, -1);
  const parts = bare.split(/([.@_\-/+])/u).filter((part) => part !== '');
  return parts
    .map((part) => {
      switch (part) {
        case '.': return symbols.dot;
        case '@': return symbols.at;
        case '_': return symbols.underscore;
        case '-': return symbols.dash;
        case '/': return symbols.slash;
        case '+': return pack.plusWord;
        default: return part.replace(/\d+/gu, (digits) => ` ${digitNames(digits, pack)} `).replace(/[^\p{L}\p{N}\s]/gu, ' ').trim();
      }
    })
    .filter((word) => word !== '')
    .join(' ');
}

/** The reading of a `<say-as>` or `<sub>` span (its content was validated when the SSML was parsed). */
export function forcedWords(span: ForcedSpan, content: string, pack: LanguagePack): string {
  switch (span.interpretAs) {
    case 'alias':
      return span.alias ?? content;
    case 'digits':
      return foldDigits(content).split(/[^\d]+/u).filter((g) => g !== '').map((g) => digitNames(g, pack)).join(GROUP_PAUSE);
    case 'characters':
      return [...foldDigits(content)].filter((ch) => !/\s/u.test(ch)).map((ch) => (/\d/u.test(ch) ? pack.digitNames[Number(ch)] : ch)).join(' ');
    case 'cardinal':
      return numberWords(content, pack);
    case 'ordinal':
      return pack.ordinal(Number(foldDigits(content.trim())), '');
    case 'telephone':
      return phoneWords(content, pack);
    case 'currency': {
      const money = parseMoney(content);
      return money ? moneyWords(money, pack) : content;
    }
    case 'time': {
      const time = parseTime(content);
      return time ? pack.time(time.hour24, time.minute, time.withPeriod) : content;
    }
    case 'date': {
      const format = (span.format ?? 'dmy') as DateFormat;
      const date = parseDate(content, format, ALL_MONTH_NAMES);
      if (!date) return content;
      return dateWords(date.day, date.month, date.year, pack);
    }
  }
}

/** Whatever fields a date has: day month year, month year, or a year alone. */
export function dateWords(day: number | undefined, month: number | undefined, year: number | undefined, pack: LanguagePack): string {
  if (month === undefined) return year === undefined ? '' : pack.year(year);
  if (day === undefined) return [pack.months[month - 1], year === undefined ? '' : pack.year(year)].join(' ').trim();
  return pack.date(day, month, year);
}
