// Bengali (bn-IN): number words and ordinals from CLDR's bn spellout rules (full 1-99 table, joined
// hundreds `একশো`), years in hundreds (`উনিশশো`), the clock in -টা/বেজে, day periods from CLDR bn.

import { clockHour, dayPeriod, groupedCardinal, hundredsYear, LATIN_CODE_KEYWORDS, LATIN_CRICKET_WORDS, LATIN_ID_KEYWORDS, suffixesFor, words, quarterFraction, type LanguagePack, type UnitKey } from './language-pack.js';

// CLDR common/rbnf/bn.xml %spellout-cardinal 0-99.
const BELOW_100 = [
  'শূন্য', 'এক', 'দুই', 'তিন', 'চার', 'পাঁচ', 'ছয়', 'সাত', 'আট', 'নয়',
  'দশ', 'এগারো', 'বারো', 'তেরো', 'চৌদ্দ', 'পনেরো', 'ষোলো', 'সতেরো', 'আঠারো', 'উনিশ',
  'কুড়ি', 'একুশ', 'বাইশ', 'তেইশ', 'চব্বিশ', 'পঁচিশ', 'ছাব্বিশ', 'সাতাশ', 'আঠাশ', 'উনত্রিশ',
  'ত্রিশ', 'একত্রিশ', 'বত্রিশ', 'তেত্রিশ', 'চৌত্রিশ', 'পঁয়ত্রিশ', 'ছত্রিশ', 'সাঁইত্রিশ', 'আটত্রিশ', 'উনচল্লিশ',
  'চল্লিশ', 'একচল্লিশ', 'বিয়াল্লিশ', 'তেতাল্লিশ', 'চুয়াল্লিশ', 'পঁয়তাল্লিশ', 'ছেচল্লিশ', 'সাতচল্লিশ', 'আটচল্লিশ', 'উনপঞ্চাশ',
  'পঞ্চাশ', 'একান্ন', 'বায়ান্ন', 'তিপান্ন', 'চুয়ান্ন', 'পঞ্চান্ন', 'ছাপান্ন', 'সাতান্ন', 'আটান্ন', 'উনষাট',
  'ষাট', 'একষট্টি', 'বাষট্টি', 'তেষট্টি', 'চৌষট্টি', 'পঁয়ষট্টি', 'ছেষট্টি', 'সাতষট্টি', 'আটষট্টি', 'উনসত্তর',
  'সত্তর', 'একাত্তর', 'বাহাত্তর', 'তিয়াত্তর', 'চুয়াত্তর', 'পঁচাত্তর', 'ছিয়াত্তর', 'সাতাত্তর', 'আটাত্তর', 'উনআশি',
  'আশি', 'একাশি', 'বিরাশি', 'তিরাশি', 'চুরাশি', 'পঁচাশি', 'ছিয়াশি', 'সাতাশি', 'অষ্টআশি', 'উননব্বই',
  'নব্বই', 'একানব্বই', 'বিরানব্বই', 'তিরানব্বই', 'চুরানব্বই', 'পঁচানব্বই', 'ছিয়ানব্বই', 'সাতানব্বই', 'আটানব্বই', 'নিরানব্বই',
] as const;

const below100 = (n: number): string => BELOW_100[n] as string;
const hundreds = (n: number): string => `${below100(n)}শো`;

const cardinal = groupedCardinal(below100, { crore: 'কোটি', lakh: 'লাখ', thousand: 'হাজার' }, hundreds);

// CLDR bn %spellout-ordinal: 1-10 listed (Sanskrit forms), then cardinal + তম.
const FIRST_TEN = ['শূন্যতম', 'প্রথম', 'দ্বিতীয়', 'তৃতীয়', 'চতুর্থ', 'পঞ্চম', 'ষষ্ঠ', 'সপ্তম', 'অষ্টম', 'নবম', 'দশম'];

/**
 * The days of the month have their own ordinals (তারিখ): ১লা পয়লা, ২রা দোসরা, ৩রা তেসরা, ৪ঠা চৌঠা, then the
 * cardinal + ই for 5-18 (পাঁচই, পনেরোই) and, for 19-31, the cardinal's final শ takes এ (উনিশে, একুশে, বিশে).
 */
const DAY_ORDINALS: Readonly<Record<number, string>> = { 1: 'পয়লা', 2: 'দোসরা', 3: 'তেসরা', 4: 'চৌঠা', 20: 'বিশে' };

function ordinal(n: number, suffix: string): string {
  if (suffix === 'লা' || suffix === 'রা' || suffix === 'ঠা' || suffix === 'শে') return DAY_ORDINALS[n] ?? `${cardinal(n)}ে`;
  if (suffix === 'ই') return `${cardinal(n)}ই`;
  return FIRST_TEN[n] ?? `${cardinal(n)}তম`;
}

const SIGN_FINAL = /[\u09BE-\u09CC\u09D7]$/u;
const VOWEL_FINAL = /[\u0985-\u0994]$/u;

/**
 * Case endings and classifiers written onto digits: the locative এ/তে (`২০২৪-এ` চব্বিশে, `২০১৫-এ` পনেরোতে), the
 * genitive এর/র (একাত্তরের, পনেরোর), the classifiers টি, টা, জন (পাঁচটি, দশটা, তিনজন; two is দু: দুটি, দুটো, দুজন).
 */
function withCaseSuffix(spoken: string, suffix: string): string | undefined {
  const cut = spoken.lastIndexOf(' ') + 1;
  const [head, word] = [spoken.slice(0, cut), spoken.slice(cut)];
  if (!/[\u0980-\u09FF]$/u.test(word)) return undefined;
  const ending = VOWEL_FINAL.test(word) ? 'vowel' : SIGN_FINAL.test(word) ? 'sign' : 'consonant';
  let fused: string;
  if (suffix === 'এ' || suffix === 'তে') fused = ending === 'consonant' ? `${word}ে` : ending === 'vowel' ? `${word}য়ে` : `${word}তে`;
  else if (suffix === 'এর' || suffix === 'র') fused = ending === 'consonant' ? `${word}ের` : ending === 'vowel' ? `${word}য়ের` : `${word}র`;
  else if (word === 'দুই') fused = suffix === 'টা' ? 'দুটো' : `দু${suffix}`;
  else fused = `${word}${suffix}`;
  return `${head}${fused}`;
}

const year = hundredsYear(below100, hundreds, cardinal);

// CLDR 48 bn dayPeriods (format, abbreviated) with CLDR's dayPeriodRules for bn.
const DAY_PERIODS = [[0, 'রাত্রি'], [4, 'ভোর'], [6, 'সকাল'], [12, 'দুপুর'], [16, 'বিকাল'], [18, 'সন্ধ্যা'], [20, 'রাত্রি']] as const;

/** Clock hours take the classifier -টা (দশটা); minutes follow বেজে ("having struck"). */
function time(hour24: number, minute: number, withPeriod: boolean): string {
  const hour = withPeriod ? clockHour(hour24) : hour24;
  const clock = minute === 0 ? `${cardinal(hour)}টা` : `${cardinal(hour)}টা বেজে ${cardinal(minute)} মিনিট`;
  return words(withPeriod && dayPeriod(DAY_PERIODS, hour24), clock);
}

const MONTHS = ['জানুয়ারি', 'ফেব্রুয়ারি', 'মার্চ', 'এপ্রিল', 'মে', 'জুন', 'জুলাই', 'আগস্ট', 'সেপ্টেম্বর', 'অক্টোবর', 'নভেম্বর', 'ডিসেম্বর'];

const UNITS: Record<UnitKey, string> = {
  km: 'কিলোমিটার', kg: 'কিলোগ্রাম', g: 'গ্রাম', mg: 'মিলিগ্রাম', m: 'মিটার', cm: 'সেন্টিমিটার', mm: 'মিলিমিটার',
  l: 'লিটার', ml: 'মিলিলিটার', kmph: 'কিলোমিটার প্রতি ঘণ্টা', gb: 'জিবি', mb: 'এমবি', mbps: 'এমবিপিএস',
};

const QUARTERS = { half: 'আধা', quarter: 'এক চতুর্থাংশ', threeQuarters: 'তিন চতুর্থাংশ', oneAndHalf: 'দেড়', twoAndHalf: 'আড়াই', plusHalf: 'সাড়ে', plusQuarter: 'সোয়া', minusQuarter: 'পৌনে' };

/** Bengali: আধা, চতুর্থাংশ; দেড়, আড়াই, সাড়ে n, সোয়া n, পৌনে n+1; others `d ভাগের n` (four parts' three). */
function fraction(whole: number, numerator: number, denominator: number): string | undefined {
  return quarterFraction(QUARTERS, cardinal, whole, numerator, denominator) ?? (whole === 0 ? `${cardinal(denominator)} ভাগের ${cardinal(numerator)}` : undefined);
}

export const bengali: LanguagePack = {
  code: 'bn-IN',
  digitNames: BELOW_100.slice(0, 10),
  cardinal,
  attributive: cardinal,
  ordinal,
  // য় is written both precomposed (U+09DF) and as য + nukta; both are listed.
  ordinalSuffixes: ['ম', 'য়', 'য়', 'র্থ', 'ষ্ঠ', 'তম', 'লা', 'রা', 'ঠা', 'ই', 'শে'],
  spacedOrdinalSuffixes: ['তম'],
  // The days' ১লা … ৩১শে: each ending belongs to its numbers (`১৫শে` is no day).
  ordinalSuffixNumbers: {
    ...suffixesFor(['লা'], [1]),
    ...suffixesFor(['রা'], [2, 3]),
    ...suffixesFor(['ঠা'], [4]),
    ...suffixesFor(['ই'], [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]),
    ...suffixesFor(['শে'], [19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]),
  },
  caseSuffixes: ['এ', 'তে', 'এর', 'র', 'টি', 'টা', 'জন'],
  withCaseSuffix,
  year,
  pointWord: 'দশমিক',
  minusWord: 'ঋণ',
  plusWord: 'প্লাস',
  percent: (amount) => `${amount} শতাংশ`,
  range: (from, to) => `${from} থেকে ${to}`,
  money: (rupees, paise) => words((rupees > 0 || paise === 0) && `${cardinal(rupees)} টাকা`, paise > 0 && `${cardinal(paise)} পয়সা`),
  time,
  months: MONTHS,
  date: (day, month, y) => words(cardinal(day), MONTHS[month - 1], y !== undefined && year(y)),
  titles: { dr: 'ডক্টর', mr: 'মিস্টার', mrs: 'মিসেস', ms: 'মিস', prof: 'প্রফেসর', no: 'নম্বর' },
  nativeAbbreviations: {},
  unit: (key) => UNITS[key],
  symbols: { and: 'এবং', at: 'অ্যাট', dot: 'ডট', slash: 'স্ল্যাশ', dash: 'ড্যাশ', underscore: 'আন্ডারস্কোর', percent: 'শতাংশ' },
  codeKeywords: [...LATIN_CODE_KEYWORDS, 'ওটিপি', 'পিন', 'কোড', 'পাসওয়ার্ড'],
  idKeywords: [...LATIN_ID_KEYWORDS, 'অ্যাকাউন্ট', 'অর্ডার', 'নম্বর', 'নং', 'মোবাইল', 'ফোন', 'টিকিট'],
  currencyWords: ['টাকা', 'পয়সা', 'rupees', 'rupee'],
  yearKeywords: ['সাল', 'সালে', 'বছর', 'খ্রিস্টাব্দ', 'খ্রিস্টাব্দে'],
  magnitudeWords: { thousand: ['হাজার'], lakh: ['লাখ'], crore: ['কোটি'] },
  attributiveBeforeWords: false,
  addressWords: ['ঠিকানা', 'রোড', 'সড়ক', 'নগর', 'পাড়া', 'লেন', 'গ্রাম', 'জেলা', 'পূর্ব', 'পশ্চিম'],
  fraction,
  score: (runs, wickets) => `${cardinal(wickets)} উইকেটে ${cardinal(runs)} রান`,
  cricketWords: [...LATIN_CRICKET_WORDS, 'ওভার', 'ওভারে', 'রান', 'উইকেট', 'স্কোর'],
  arithmetic: { plus: 'যোগ', minus: 'বিয়োগ', times: 'গুণ', dividedBy: 'ভাগ', equals: 'সমান' },
  idCues: ['ট্রেন', 'ফ্লাইট', 'পিএনআর'],
  cricketTeams: ['ভারত', 'ইন্ডিয়া', 'অস্ট্রেলিয়া', 'ইংল্যান্ড', 'পাকিস্তান', 'বাংলাদেশ'],
  ratioWords: ['অনুপাত', 'অনুপাতে'],
};
