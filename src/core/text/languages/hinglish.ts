// Hinglish: Hindi read from romanized text, for en-IN sentences written in romanized Hindi (`Aapka bill ₹500 hai`,
// `Kal 6 baje aana`). Not a service language: the en-IN front end switches to it sentence by sentence
// (hinglish-context.ts), and the en-IN voice speaks the words. Numbers are CLDR's hi spellout (hi.ts) in the
// romanizations SMS and chat Hinglish use; the clock is `baje`/`bajkar … minute`, years in hundreds as in Hindi;
// Latin ordinals (`1st`), percent, GB and the like stay English, as Hinglish speakers say them.

import { english } from './en.js';
import { clockHour, dayPeriod, groupedCardinal, hundredsYear, LATIN_CRICKET_WORDS, quarterFraction, words, type LanguagePack } from './language-pack.js';

// CLDR 48 common/rbnf/hi.xml %spellout-cardinal 0-99, romanized.
const BELOW_100 = [
  'shunya', 'ek', 'do', 'teen', 'chaar', 'paanch', 'chhah', 'saat', 'aath', 'nau',
  'das', 'gyaarah', 'baarah', 'terah', 'chaudah', 'pandrah', 'solah', 'satrah', 'athaarah', 'unnees',
  'bees', 'ikkees', 'baaees', 'teis', 'chaubees', 'pachchees', 'chhabbees', 'sattaais', 'atthaais', 'untees',
  'tees', 'iktees', 'battees', 'taintees', 'chauntees', 'paintees', 'chhattees', 'saintees', 'adtees', 'untaalees',
  'chaalees', 'iktaalees', 'bayaalees', 'taintaalees', 'chauvaalees', 'paintaalees', 'chhiyaalees', 'saintaalees', 'adtaalees', 'unchaas',
  'pachaas', 'ikyaavan', 'baavan', 'tirpan', 'chauvan', 'pachpan', 'chhappan', 'sattaavan', 'atthaavan', 'unsath',
  'saath', 'iksath', 'baasath', 'tirsath', 'chaunsath', 'painsath', 'chhiyaasath', 'sadsath', 'adsath', 'unhattar',
  'sattar', 'ikhattar', 'bahattar', 'tihattar', 'chauhattar', 'pachhattar', 'chhihattar', 'sathattar', 'athhattar', 'unaasi',
  'assi', 'ikyaasi', 'bayaasi', 'tiraasi', 'chauraasi', 'pachaasi', 'chhiyaasi', 'sattaasi', 'atthaasi', 'navaasi',
  'nabbe', 'ikyaanave', 'baanave', 'tiraanave', 'chauraanave', 'pachaanave', 'chhiyaanave', 'sattaanave', 'atthaanave', 'ninyaanave',
] as const;

const below100 = (n: number): string => BELOW_100[n] as string;
const hundreds = (n: number): string => `${below100(n)} sau`;
const cardinal = groupedCardinal(below100, { crore: 'crore', lakh: 'lakh', thousand: 'hazaar' }, hundreds);
const year = hundredsYear(below100, hundreds, cardinal);

// CLDR hi dayPeriods, romanized.
const DAY_PERIODS = [[0, 'raat'], [4, 'subah'], [12, 'dopahar'], [16, 'shaam'], [20, 'raat']] as const;

/** The quarter hours as Hindi says them (`saadhe paanch baje`, `sawa do`, `paune teen`, `dedh`, `dhaai`); others `bajkar … minute`. */
function time(hour24: number, minute: number, withPeriod: boolean): string {
  const hour = withPeriod ? clockHour(hour24) : hour24;
  const next = hour === 12 ? 1 : hour + 1;
  let clock: string;
  if (minute === 0) clock = `${cardinal(hour)} baje`;
  else if (minute === 30 && hour === 1) clock = 'dedh baje';
  else if (minute === 30 && hour === 2) clock = 'dhaai baje';
  else if (minute === 30) clock = `saadhe ${cardinal(hour)} baje`;
  else if (minute === 15) clock = `sawa ${cardinal(hour)} baje`;
  else if (minute === 45) clock = `paune ${cardinal(next)} baje`;
  else clock = `${cardinal(hour)} bajkar ${cardinal(minute)} minute`;
  return words(withPeriod && dayPeriod(DAY_PERIODS, hour24), clock);
}

/** Hindi's fraction words (McGregor), romanized: aadha, paun, paune, sawa, saadhe, dedh, dhaai; others `n bata d`. */
const QUARTERS = { half: 'aadha', quarter: 'ek chauthai', threeQuarters: 'paun', oneAndHalf: 'dedh', twoAndHalf: 'dhaai', plusHalf: 'saadhe', plusQuarter: 'sawa', minusQuarter: 'paune' };

function fraction(whole: number, numerator: number, denominator: number): string {
  const quarter = quarterFraction(QUARTERS, cardinal, whole, numerator, denominator);
  if (quarter !== undefined) return quarter;
  if (denominator === 3 && whole === 0) return `${cardinal(numerator)} tihaai`;
  return words(whole > 0 && `${cardinal(whole)} poora`, `${cardinal(numerator)} bata ${cardinal(denominator)}`);
}

export const hinglish: LanguagePack = {
  ...english,
  digitNames: BELOW_100.slice(0, 10),
  cardinal,
  attributive: cardinal,
  year,
  range: (from, to) => `${from} se ${to}`,
  money: (rupees, paise) =>
    words(
      (rupees > 0 || paise === 0) && `${cardinal(rupees)} ${rupees === 1 ? 'rupaya' : 'rupaye'}`,
      paise > 0 && `${cardinal(paise)} paise`,
    ),
  time,
  date: (day, month, y) => words(cardinal(day), english.months[month - 1], y !== undefined && year(y)),
  unit: (key, amount) => (key === 'gb' || key === 'mb' ? key.toUpperCase() : key === 'mbps' ? 'Mbps' : english.unit(key, amount)),
  currencyWords: ['rupaye', 'rupaiye', 'rupay', 'rupaya', 'rupees', 'rupee', 'paise', 'paisa'],
  yearKeywords: ['mein', 'me', 'san', 'saal', 'varsh', 'tak', 'se', ...english.yearKeywords],
  magnitudeWords: { thousand: ['hazaar', 'hazar', 'thousand'], lakh: ['lakh', 'lac'], crore: ['crore', 'karod'] },
  fraction,
  // English's `of a cup` and `three to two` are English grammar; Hinglish says `aadha kilo`, `teen bata do`.
  fractionOf: undefined,
  fractionNouns: [],
  ratio: undefined,
  numberSlash: 'bata',
  score: (runs, wickets) => `${cardinal(runs)} pe ${cardinal(wickets)}`,
  cricketWords: [...LATIN_CRICKET_WORDS, 'ran', 'wicket', 'over'],
  arithmetic: { plus: 'plus', minus: 'minus', times: 'guna', dividedBy: 'bhaag', equals: 'barabar' },
};
