// What the text front end needs to know about one language to read numbers, money, dates, times and symbols
// aloud: its number grammar (as functions) and its word lists. One file per language implements it.

import type { LanguageCode } from '../../../languages.js';

const UNIT_KEYS = ['km', 'kg', 'g', 'mg', 'm', 'cm', 'mm', 'l', 'ml', 'kmph', 'gb', 'mb', 'mbps'] as const;
export type UnitKey = (typeof UNIT_KEYS)[number];

export interface LanguagePack {
  readonly code: LanguageCode;
  /** Names of 0-9, for digit-by-digit reading (phone numbers, OTPs, decimals). */
  readonly digitNames: readonly string[];
  /** Cardinal words in the Indian system (lakh, crore); `n` is a safe non-negative integer. */
  cardinal(n: number): string;
  /** The form a number takes before a noun (Telugu `ఒక రూపాయి`, `వందల`; Tamil `ஒரு`); most languages: cardinal. */
  attributive(n: number): string;
  /**
   * Ordinal words; `suffix` is what followed the digits (`st`, `ला`, `ম`, ``) and can select a gender or a form;
   * `following` is the text after the suffix (Tamil says ஒன்றாம் தேதி, not முதலாம், for the first of a month).
   */
  ordinal(n: number, suffix: string, following?: string): string;
  /** Native ordinal suffixes written right after digits (Latin st/nd/rd/th are always recognised). */
  readonly ordinalSuffixes: readonly string[];
  /** Of those, the ones also written after a space (`1947 ஆம் ஆண்டு`, `15 वाँ`): none that is a word of its own. */
  readonly spacedOrdinalSuffixes?: readonly string[];
  /**
   * Suffixes that make an ordinal only after certain numbers (Marathi ला after 1: पहिला; after 5 it is the case
   * ending, पाचला). Absent: the suffix fits every number.
   */
  readonly ordinalSuffixNumbers?: Readonly<Record<string, readonly number[]>>;
  /**
   * Case endings and postpositions written onto digits (Tamil `2024இல்`, Telugu `15న`, Gujarati `2024માં`), alone
   * or after a hyphen. The number is read in its full (not attributive) form and `withCaseSuffix` fuses the ending.
   */
  readonly caseSuffixes?: readonly string[];
  /** Of those, the ones also written after a space (Tamil `2024 இல்`). */
  readonly spacedCaseSuffixes?: readonly string[];
  /** `spoken` (a reading ending in a word of the language) with `suffix` fused onto its last word; undefined: cannot. */
  withCaseSuffix?(spoken: string, suffix: string): string | undefined;
  /** A year as people say years (English `nineteen ninety-eight`, Hindi `उन्नीस सौ अट्ठानबे`). */
  year(n: number): string;
  readonly pointWord: string;
  readonly minusWord: string;
  readonly plusWord: string;
  percent(amount: string): string;
  range(from: string, to: string): string;
  /** Rupees and paise in the language's order and forms; either may be 0 (not both). */
  money(rupees: number, paise: number): string;
  /** `hour24` 0-23; `withPeriod` adds the time of day (morning, evening) or AM/PM in English. */
  time(hour24: number, minute: number, withPeriod: boolean): string;
  /** Month names, January first (CLDR format-wide names). */
  readonly months: readonly string[];
  date(day: number, month: number, year: number | undefined): string;
  /** Titles and `No.` before a number, keyed by the lower-case Latin abbreviation without its period. */
  readonly titles: Readonly<Record<'dr' | 'mr' | 'mrs' | 'ms' | 'prof' | 'no', string>>;
  /** Native-script abbreviations written with a period (`डॉ.`), keyed with the period. */
  readonly nativeAbbreviations: Readonly<Record<string, string>>;
  unit(key: UnitKey, amount: number): string;
  readonly symbols: Readonly<{ and: string; at: string; dot: string; slash: string; dash: string; underscore: string; percent: string }>;
  /** Words before (or after) a digit string that make it a code read digit by digit (OTP, PIN). */
  readonly codeKeywords: readonly string[];
  /** Words before a long digit string that make it an identifier (account, order, phone number). */
  readonly idKeywords: readonly string[];
  /** Words after a number that name money: the number then takes the attributive form. */
  readonly currencyWords: readonly string[];
  /** Words near a 4-digit number that make it a year. */
  readonly yearKeywords: readonly string[];
  /** Magnitude words after an amount (`₹2 लाख`): multiply rather than read them separately. */
  readonly magnitudeWords: Readonly<{ thousand: readonly string[]; lakh: readonly string[]; crore: readonly string[] }>;
  /** True when a number followed by a word of the language's own script takes the attributive form. */
  readonly attributiveBeforeWords: boolean;
  /**
   * A fraction as the language says it: `whole` units and `numerator`/`denominator` (0 < numerator < denominator ≤ 16;
   * `whole` 0 for a bare fraction; `standalone`: no word follows, English `one half`). Undefined: the language has no
   * reading we can vouch for, and the numbers are read with the slash between them.
   */
  fraction?(whole: number, numerator: number, denominator: number, standalone?: boolean): string | undefined;
  /**
   * A fraction before a unit or measure noun, the whole phrase (English `half a cup`, `three quarters of a kilogram`,
   * `two and a half kilograms`). Absent: the fraction words, then the unit.
   */
  fractionOf?(whole: number, numerator: number, denominator: number, singular: string, plural: string): string | undefined;
  /** Measure nouns written after a fraction that take `fractionOf` (`3/4 cup`), singular, lower case. */
  readonly fractionNouns?: readonly string[];
  /** A cricket score `runs/wickets` (`287/4`) as the language's reports say it: English `287 for 4`, Tamil `4 விக்கெட் இழப்புக்கு 287 ரன்கள்`. */
  score?(runs: number, wickets: number): string;
  /** Words of `5 + 3 = 8`; absent: arithmetic is left as written. */
  readonly arithmetic?: Readonly<{ plus: string; minus: string; times: string; dividedBy: string; equals: string }>;
  /** Native words right before a number that make it an identifier whatever its length (`गाड़ी संख्या 12951`). */
  readonly idCues?: readonly string[];
  /** Native words of addresses (road, nagar, district) that make a six-digit number after them a PIN code. */
  readonly addressWords?: readonly string[];
  /** Words near `a/b` that make it a cricket score (overs, runs, wickets). */
  readonly cricketWords?: readonly string[];
  /** Team names in the language's script that make the `a/b` right after them a score (`भारत 287/4`). */
  readonly cricketTeams?: readonly string[];
  /** Words before `a/b` that make it a ratio: neither a fraction nor a score. */
  readonly ratioWords?: readonly string[];
  /** A ratio `a/b` read aloud (English `three to two`); absent: read as the slash between numbers. */
  ratio?(from: string, to: string): string;
  /** What the slash between two numbers is called when nothing else reads it (Hindi बटा); default `symbols.slash`. */
  readonly numberSlash?: string;
}

/** The digit groups of the Indian system; `crore` is unbounded (read recursively: `सौ करोड़`). */
export interface IndianGroups {
  readonly crore: number;
  readonly lakh: number;
  readonly thousand: number;
  readonly hundred: number;
  readonly rest: number;
}

export function indianGroups(n: number): IndianGroups {
  return {
    crore: Math.floor(n / 10_000_000),
    lakh: Math.floor(n / 100_000) % 100,
    thousand: Math.floor(n / 1000) % 100,
    hundred: Math.floor(n / 100) % 10,
    rest: n % 100,
  };
}

/**
 * Cardinal words from a 0-99 table and the Indian groups, the way Hindi, Marathi, Gujarati and Bengali compose
 * them: `<crore> करोड़ <lakh> लाख <thousand> हज़ार <hundreds> <rest>`, crore read recursively.
 */
export function groupedCardinal(
  below100: (n: number) => string,
  names: Readonly<{ crore: string; lakh: string; thousand: string }>,
  hundreds: (hundred: number, rest: number) => string,
): (n: number) => string {
  const cardinal = (n: number): string => {
    if (n < 100) return below100(n);
    const g = indianGroups(n);
    return words(
      g.crore > 0 && `${cardinal(g.crore)} ${names.crore}`,
      g.lakh > 0 && `${below100(g.lakh)} ${names.lakh}`,
      g.thousand > 0 && `${below100(g.thousand)} ${names.thousand}`,
      g.hundred > 0 && hundreds(g.hundred, g.rest),
      g.rest > 0 && below100(g.rest),
    );
  };
  return cardinal;
}

/** Years 1100-1999 read in hundreds (`hundreds(19)` then the last two digits, as `उन्नीस सौ सैंतालीस`); others as cardinals. */
export function hundredsYear(below100: (n: number) => string, hundreds: (n: number) => string, cardinal: (n: number) => string): (n: number) => string {
  return (n) => (n >= 1100 && n <= 1999 ? words(hundreds(Math.floor(n / 100)), n % 100 > 0 && below100(n % 100)) : cardinal(n));
}

/** Hour 0-23 to 1-12 for clock readings. */
export function clockHour(hour24: number): number {
  return hour24 % 12 === 0 ? 12 : hour24 % 12;
}

/** Picks the entry whose start hour is the last at or before `hour24` (tables start at 0). */
export function dayPeriod(table: ReadonlyArray<readonly [number, string]>, hour24: number): string {
  let word = table[0]?.[1] ?? '';
  for (const [from, name] of table) if (hour24 >= from) word = name;
  return word;
}

/** The words of the quarter system North Indian languages count in: ½ ¼ ¾ alone, 1½ 2½, and n½ n¼ n¾. */
export interface QuarterWords {
  readonly half: string;
  readonly quarter: string;
  readonly threeQuarters: string;
  readonly oneAndHalf: string;
  readonly twoAndHalf: string;
  /** Before n: n½ (साढ़े). */
  readonly plusHalf: string;
  /** Before n: n¼ (सवा). */
  readonly plusQuarter: string;
  /** Before n + 1: n¾ (पौने). */
  readonly minusQuarter: string;
}

/** Halves and quarters in the quarter system (`डेढ़`, `ढाई`, `साढ़े तीन`, `सवा दो`, `पौने चार`); undefined for others. */
export function quarterFraction(w: QuarterWords, cardinal: (n: number) => string, whole: number, numerator: number, denominator: number): string | undefined {
  const quarters = denominator === 4 ? numerator : denominator === 2 ? numerator * 2 : undefined;
  if (quarters === undefined) return undefined;
  if (whole === 0) return quarters === 2 ? w.half : quarters === 1 ? w.quarter : w.threeQuarters;
  if (quarters === 2) return whole === 1 ? w.oneAndHalf : whole === 2 ? w.twoAndHalf : `${w.plusHalf} ${cardinal(whole)}`;
  // `सवा किलो`, `सवा घंटा`: one and a quarter is said without the one.
  if (quarters === 1) return whole === 1 ? w.plusQuarter : `${w.plusQuarter} ${cardinal(whole)}`;
  return `${w.minusQuarter} ${cardinal(whole + 1)}`;
}

/**
 * Case endings written onto digits that join the number's last word as they are written (Marathi `५ला` पाचला,
 * Gujarati `2024માં` … ચોવીસમાં): only onto a word of the language's script (`script` matches its last letter).
 */
export function joinedCaseSuffix(script: RegExp): (spoken: string, suffix: string) => string | undefined {
  return (spoken, suffix) => (script.test(spoken) ? `${spoken}${suffix}` : undefined);
}

/** `ordinalSuffixNumbers` entries: each suffix of `suffixes` makes an ordinal of `numbers` only. */
export function suffixesFor(suffixes: readonly string[], numbers: readonly number[]): Record<string, readonly number[]> {
  return Object.fromEntries(suffixes.map((suffix) => [suffix, numbers]));
}

/** Joins non-empty parts with single spaces. */
export function words(...parts: ReadonlyArray<string | undefined | false>): string {
  return parts.filter((part): part is string => typeof part === 'string' && part !== '').join(' ');
}

/** Latin keywords shared by every language: Indian texts write OTP, PIN, account and order in English. */
export const LATIN_CODE_KEYWORDS = [
  'otp', 'pin', 'cvv', 'code', 'passcode', 'password', 'mpin', 'upi pin', 'pincode', 'pin code', 'postal code', 'zip code',
  'card ending', 'ending with', 'ending in', 'last 4 digits', 'last four digits',
] as const;

/**
 * Latin words that make the number right after them an identifier read digit by digit, whatever its length
 * (`Flight 2134`, `Train 12951`, `PNR 4521873690`); `Order`, `Booking`, `Ticket` and the like only with a marker
 * (`Order No. 4521`, `Booking ID: 4521`, `Ticket #452`), since alone they are also verbs (`order 100 pieces`).
 */
export const LATIN_ID_CUES = ['flight', 'train', 'pnr', 'utr', 'ifsc', 'vehicle', 'gaadi'] as const;
export const LATIN_ID_CUES_WITH_MARKER = [
  'order', 'booking', 'ticket', 'policy', 'consumer', 'invoice', 'bill', 'complaint', 'reference', 'ref', 'registration',
  'customer', 'account', 'a/c', 'transaction', 'txn', 'request', 'case', 'application', 'awb', 'tracking', 'shipment',
] as const;

/** Latin words of Indian addresses: a six-digit number after one of them, ending its clause, is a PIN code. */
// Not `main`, `near`, `post`, `city`, `floor` and the like: common English words would make amounts in ordinary
// sentences PIN codes. An address written with commas (`Flat 4, Kothrud, Pune 411038`) needs no address word.
export const LATIN_ADDRESS_WORDS = [
  'address', 'road', 'rd', 'street', 'marg', 'nagar', 'colony', 'sector', 'lane', 'layout', 'opp', 'village', 'taluka',
  'tehsil', 'district', 'dist', 'east', 'west', 'society', 'apartments', 'chowk', 'bazar', 'bazaar', 'pincode',
] as const;

/** Cricket words that make `287/4` a score (overs, runs, wickets). */
export const LATIN_CRICKET_WORDS = ['over', 'overs', 'run', 'runs', 'wicket', 'wickets', 'innings', 'score', 'batting', 'bowling', 'all out', 'target'] as const;
/** Teams' scorecard codes (ICC, IPL), written in capitals right before a score (`IND 287/4`). */
export const CRICKET_TEAM_CODES = [
  'IND', 'AUS', 'ENG', 'PAK', 'SL', 'SA', 'RSA', 'NZ', 'WI', 'BAN', 'AFG', 'ZIM', 'IRE', 'NED', 'SCO', 'UAE', 'NEP',
  'CSK', 'MI', 'RCB', 'KKR', 'SRH', 'DC', 'PBKS', 'RR', 'LSG', 'GT',
] as const;
/** Test-playing countries' English names, right before a score (`India 287/4`, `India were 287/4`). */
export const LATIN_CRICKET_TEAMS = [
  'india', 'australia', 'england', 'pakistan', 'sri lanka', 'south africa', 'new zealand', 'west indies', 'bangladesh',
  'afghanistan', 'zimbabwe', 'ireland',
] as const;
export const LATIN_ID_KEYWORDS = [
  'account', 'a/c', 'acct', 'order', 'ref', 'reference', 'txn', 'transaction', 'utr', 'ticket', 'pnr', 'booking',
  'customer id', 'id', 'number', 'no', 'mobile', 'phone', 'contact', 'aadhaar', 'policy', 'complaint',
] as const;
