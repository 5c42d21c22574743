// Indian English (en-IN): CLDR's en_IN spellout rules (lakh and crore, `twenty-one`, no "and"), CLDR en's
// ordinals and year reading (`nineteen ninety-eight`, `two thousand five`, `twenty twenty-six`).

import { clockHour, LATIN_CODE_KEYWORDS, LATIN_CRICKET_WORDS, LATIN_ID_KEYWORDS, words, type LanguagePack, type UnitKey } from './language-pack.js';

const BELOW_20 = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine',
  'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen',
] as const;
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'] as const;

function below100(n: number): string {
  if (n < 20) return BELOW_20[n] as string;
  const unit = n % 10;
  return unit === 0 ? (TENS[n / 10] as string) : `${TENS[Math.floor(n / 10)]}-${BELOW_20[unit]}`;
}

function below1000(n: number): string {
  const hundreds = Math.floor(n / 100);
  return words(hundreds > 0 && `${BELOW_20[hundreds]} hundred`, (n % 100 > 0 || hundreds === 0) && below100(n % 100));
}

// CLDR en_IN %spellout-cardinal: hundred, thousand, lakh, crore.
function cardinal(n: number): string {
  if (n < 1000) return below1000(n);
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor(n / 100_000) % 100;
  const thousand = Math.floor(n / 1000) % 100;
  const rest = n % 1000;
  return words(
    crore > 0 && `${cardinal(crore)} crore`,
    lakh > 0 && `${below100(lakh)} lakh`,
    thousand > 0 && `${below100(thousand)} thousand`,
    rest > 0 && below1000(rest),
  );
}

// CLDR en %spellout-ordinal: only the last word changes.
const IRREGULAR_ORDINALS: Readonly<Record<string, string>> = {
  zero: 'zeroth', one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth',
};

function ordinal(n: number): string {
  const text = cardinal(n);
  const match = /^(.*?)([a-z]+)$/u.exec(text);
  if (!match) return text;
  const [, head = '', last = ''] = match;
  const fixed = IRREGULAR_ORDINALS[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return `${head}${fixed}`;
}

/** CLDR en %spellout-numbering-year: split into two pairs unless the last three digits are below ten. */
function year(n: number): string {
  if (n < 1000 || n > 9999 || n % 1000 < 10) return cardinal(n);
  const tail = n % 100;
  const second = tail === 0 ? 'hundred' : tail < 10 ? `oh-${BELOW_20[tail]}` : below100(tail);
  return `${below100(Math.floor(n / 100))} ${second}`;
}

/** `ten thirty`, `ten oh five`, `ten o'clock`; with a period `five PM` (eSpeak spells AM and PM as letters). */
function time(hour24: number, minute: number, withPeriod: boolean): string {
  const hour = withPeriod ? clockHour(hour24) : hour24;
  const minutes = minute === 0 ? (withPeriod ? '' : "o'clock") : minute < 10 ? `oh ${BELOW_20[minute]}` : below100(minute);
  return words(cardinal(hour), minutes, withPeriod && (hour24 < 12 ? 'AM' : 'PM'));
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const UNITS: Record<UnitKey, readonly [string, string]> = {
  km: ['kilometre', 'kilometres'], kg: ['kilogram', 'kilograms'], g: ['gram', 'grams'], mg: ['milligram', 'milligrams'],
  m: ['metre', 'metres'], cm: ['centimetre', 'centimetres'], mm: ['millimetre', 'millimetres'], l: ['litre', 'litres'],
  ml: ['millilitre', 'millilitres'], kmph: ['kilometre per hour', 'kilometres per hour'], gb: ['gigabyte', 'gigabytes'],
  mb: ['megabyte', 'megabytes'], mbps: ['megabit per second', 'megabits per second'],
};

/**
 * `one quarter`, `three quarters`, `two thirds`, `five eighths`; mixed `two and a half`, `one and three quarters`.
 * A half alone is `one half`; before a word, `half` (`half price`, `half of it`).
 */
function fraction(whole: number, numerator: number, denominator: number, standalone = false): string {
  const name = denominator === 2 ? 'half' : denominator === 4 ? 'quarter' : ordinal(denominator);
  const plural = denominator === 2 ? 'halves' : `${name}s`;
  const part = numerator === 1 ? (whole > 0 || denominator === 2 ? `a ${name}` : `one ${name}`) : `${cardinal(numerator)} ${plural}`;
  if (whole === 0) return denominator === 2 && numerator === 1 ? (standalone ? 'one half' : 'half') : part;
  return `${cardinal(whole)} and ${part}`;
}

/** `an` before a vowel sound: the measure nouns that take it begin with a vowel letter, or are `hour`. */
const article = (noun: string): string => (/^(?:[aeio]|hour)/iu.test(noun) ? 'an' : 'a');

/** `half a cup`, `three quarters of a kilogram`, `one third of an hour`; with a whole number, `two and a half kilograms`. */
function fractionOf(whole: number, numerator: number, denominator: number, singular: string, plural: string): string {
  if (whole > 0) return `${fraction(whole, numerator, denominator)} ${plural}`;
  if (numerator === 1 && denominator === 2) return `half ${article(singular)} ${singular}`;
  return `${fraction(0, numerator, denominator)} of ${article(singular)} ${singular}`;
}

/** Measure nouns a fraction is read before with `of a` (Oxford: `three quarters of a cup`). */
const FRACTION_NOUNS = [
  'cup', 'glass', 'bowl', 'spoon', 'teaspoon', 'tablespoon', 'litre', 'liter', 'kilo', 'kilogram', 'gram', 'metre', 'meter',
  'kilometre', 'kilometer', 'mile', 'inch', 'foot', 'yard', 'acre', 'hour', 'day', 'week', 'month', 'year', 'dozen',
  'pound', 'ounce', 'piece', 'plate', 'packet', 'bottle', 'tin',
];

/**
 * A score as Indian commentary says it (ICC scorecards write runs/wickets): hundreds in pairs, `two eighty-seven for
 * four` (`one hundred five for three`: below ten the hundred stays), ten wickets `all out`.
 */
function score(runs: number, wickets: number): string {
  const rest = runs % 100;
  const said = runs >= 100 && rest >= 10 ? `${BELOW_20[Math.floor(runs / 100)]} ${below100(rest)}` : cardinal(runs);
  return wickets === 10 ? `${said} all out` : `${said} for ${cardinal(wickets)}`;
}

export const english: LanguagePack = {
  code: 'en-IN',
  digitNames: BELOW_20.slice(0, 10),
  cardinal,
  attributive: cardinal,
  ordinal,
  ordinalSuffixes: [],
  year,
  pointWord: 'point',
  minusWord: 'minus',
  plusWord: 'plus',
  percent: (amount) => `${amount} percent`,
  range: (from, to) => `${from} to ${to}`,
  money: (rupees, paise) => {
    const rupeePart = (rupees > 0 || paise === 0) && `${cardinal(rupees)} ${rupees === 1 ? 'rupee' : 'rupees'}`;
    const paisePart = paise > 0 && `${cardinal(paise)} ${paise === 1 ? 'paisa' : 'paise'}`;
    return rupeePart && paisePart ? `${rupeePart} and ${paisePart}` : words(rupeePart, paisePart);
  },
  time,
  months: MONTHS,
  date: (day, month, y) => words(ordinal(day), MONTHS[month - 1], y !== undefined && year(y)),
  titles: { dr: 'Doctor', mr: 'Mister', mrs: 'Missus', ms: 'Miss', prof: 'Professor', no: 'number' },
  nativeAbbreviations: {},
  unit: (key, amount) => UNITS[key][amount === 1 ? 0 : 1],
  symbols: { and: 'and', at: 'at', dot: 'dot', slash: 'slash', dash: 'dash', underscore: 'underscore', percent: 'percent' },
  codeKeywords: LATIN_CODE_KEYWORDS,
  idKeywords: LATIN_ID_KEYWORDS,
  currencyWords: ['rupees', 'rupee', 'paise', 'paisa'],
  yearKeywords: ['in', 'since', 'year', 'until', 'till', 'by'],
  magnitudeWords: { thousand: ['thousand'], lakh: ['lakh', 'lakhs', 'lac', 'lacs'], crore: ['crore', 'crores'] },
  attributiveBeforeWords: false,
  fraction,
  fractionOf,
  fractionNouns: FRACTION_NOUNS,
  score,
  arithmetic: { plus: 'plus', minus: 'minus', times: 'times', dividedBy: 'divided by', equals: 'equals' },
  cricketWords: LATIN_CRICKET_WORDS,
  ratioWords: ['ratio', 'ratios', 'proportion'],
  ratio: (from, to) => `${from} to ${to}`,
};
