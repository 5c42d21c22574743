// Hindi (hi-IN): number words from CLDR's hi spellout rules (1-99 are irregular, so a full table), with
// years read in hundreds (`उन्नीस सौ अट्ठानबे`) and the clock in बजे/बजकर, day periods from CLDR hi.

import { clockHour, dayPeriod, groupedCardinal, hundredsYear, LATIN_CODE_KEYWORDS, LATIN_ID_KEYWORDS, quarterFraction, suffixesFor, words, type LanguagePack, type UnitKey } from './language-pack.js';

// CLDR 48 common/rbnf/hi.xml %spellout-cardinal 0-99.
const BELOW_100 = [
  'शून्य', 'एक', 'दो', 'तीन', 'चार', 'पाँच', 'छह', 'सात', 'आठ', 'नौ',
  'दस', 'ग्यारह', 'बारह', 'तेरह', 'चौदह', 'पन्द्रह', 'सोलह', 'सत्रह', 'अठारह', 'उन्नीस',
  'बीस', 'इक्कीस', 'बाईस', 'तेईस', 'चौबीस', 'पच्चीस', 'छब्बीस', 'सत्ताईस', 'अट्ठाईस', 'उनतीस',
  'तीस', 'इकतीस', 'बत्तीस', 'तैंतीस', 'चौंतीस', 'पैंतीस', 'छत्तीस', 'सैंतीस', 'अड़तीस', 'उनतालीस',
  'चालीस', 'इकतालीस', 'बयालीस', 'तैंतालीस', 'चौवालीस', 'पैंतालीस', 'छियालीस', 'सैंतालीस', 'अड़तालीस', 'उनचास',
  'पचास', 'इक्यावन', 'बावन', 'तिरेपन', 'चौवन', 'पचपन', 'छप्पन', 'सत्तावन', 'अट्ठावन', 'उनसठ',
  'साठ', 'इकसठ', 'बासठ', 'तिरेसठ', 'चौंसठ', 'पैंसठ', 'छियासठ', 'सड़सठ', 'अड़सठ', 'उनहत्तर',
  'सत्तर', 'इकहत्तर', 'बहत्तर', 'तिहत्तर', 'चौहत्तर', 'पचहत्तर', 'छिहत्तर', 'सतहत्तर', 'अठहत्तर', 'उनासी',
  'अस्सी', 'इक्यासी', 'बयासी', 'तिरासी', 'चौरासी', 'पचासी', 'छियासी', 'सत्तासी', 'अट्ठासी', 'नवासी',
  'नब्बे', 'इक्यानबे', 'बानबे', 'तिरानबे', 'चौरानबे', 'पंचानबे', 'छियानबे', 'सत्तानबे', 'अट्ठानबे', 'निन्यानबे',
] as const;

const below100 = (n: number): string => BELOW_100[n] as string;
const hundreds = (n: number): string => `${below100(n)} सौ`;

const cardinal = groupedCardinal(below100, { crore: 'करोड़', lakh: 'लाख', thousand: 'हज़ार' }, hundreds);

// CLDR hi %spellout-ordinal-*: irregular 1-4 and 6, then cardinal + वाँ / वीं / वें.
const IRREGULAR_ORDINALS: Record<'m' | 'f' | 'o', Record<number, string>> = {
  m: { 1: 'पहला', 2: 'दूसरा', 3: 'तीसरा', 4: 'चौथा', 6: 'छठा' },
  f: { 1: 'पहली', 2: 'दूसरी', 3: 'तीसरी', 4: 'चौथी', 6: 'छठी' },
  o: { 1: 'पहले', 2: 'दूसरे', 3: 'तीसरे', 4: 'चौथे', 6: 'छठे' },
};
const FEMININE_SUFFIXES = new Set(['ली', 'री', 'थी', 'ठी', 'वीं', 'वी']);
const OBLIQUE_SUFFIXES = new Set(['ले', 'रे', 'थे', 'ठे', 'वें', 'वे']);

function ordinal(n: number, suffix: string): string {
  const form = FEMININE_SUFFIXES.has(suffix) ? 'f' : OBLIQUE_SUFFIXES.has(suffix) ? 'o' : 'm';
  const irregular = IRREGULAR_ORDINALS[form][n];
  if (irregular) return irregular;
  // CLDR writes the feminine ending वी; standard orthography (and every grammar) writes वीं.
  return `${cardinal(n)}${form === 'f' ? 'वीं' : form === 'o' ? 'वें' : 'वाँ'}`;
}

/** 1100-1999 in hundreds, as Hindi reads years (सन् उन्नीस सौ सैंतालीस); later years as cardinals. */
const year = hundredsYear(below100, hundreds, cardinal);

// CLDR 48 hi dayPeriods (format, wide) with CLDR's dayPeriodRules for hi.
const DAY_PERIODS = [[0, 'रात'], [4, 'सुबह'], [12, 'दोपहर'], [16, 'शाम'], [20, 'रात']] as const;

function time(hour24: number, minute: number, withPeriod: boolean): string {
  const hour = withPeriod ? clockHour(hour24) : hour24;
  const clock = minute === 0 ? `${cardinal(hour)} बजे` : `${cardinal(hour)} बजकर ${cardinal(minute)} मिनट`;
  return words(withPeriod && dayPeriod(DAY_PERIODS, hour24), clock);
}

const MONTHS = ['जनवरी', 'फ़रवरी', 'मार्च', 'अप्रैल', 'मई', 'जून', 'जुलाई', 'अगस्त', 'सितंबर', 'अक्टूबर', 'नवंबर', 'दिसंबर'];

const UNITS: Record<UnitKey, string> = {
  km: 'किलोमीटर', kg: 'किलोग्राम', g: 'ग्राम', mg: 'मिलीग्राम', m: 'मीटर', cm: 'सेंटीमीटर', mm: 'मिलीमीटर',
  l: 'लीटर', ml: 'मिलीलीटर', kmph: 'किलोमीटर प्रति घंटा', gb: 'जीबी', mb: 'एमबी', mbps: 'एमबीपीएस',
};

/** McGregor's fraction words: आधा, पौन, एक चौथाई, तिहाई; डेढ़, ढाई, साढ़े n, सवा n, पौने n+1; others `n बटा d`. */
const QUARTERS = { half: 'आधा', quarter: 'एक चौथाई', threeQuarters: 'पौन', oneAndHalf: 'डेढ़', twoAndHalf: 'ढाई', plusHalf: 'साढ़े', plusQuarter: 'सवा', minusQuarter: 'पौने' };

function fraction(whole: number, numerator: number, denominator: number): string {
  const quarter = quarterFraction(QUARTERS, cardinal, whole, numerator, denominator);
  if (quarter !== undefined) return quarter;
  if (denominator === 3 && whole === 0) return `${cardinal(numerator)} तिहाई`;
  return words(whole > 0 && `${cardinal(whole)} पूर्ण`, `${cardinal(numerator)} बटा ${cardinal(denominator)}`);
}

export const hindi: LanguagePack = {
  code: 'hi-IN',
  digitNames: BELOW_100.slice(0, 10),
  cardinal,
  attributive: cardinal,
  ordinal,
  ordinalSuffixes: ['वाँ', 'वां', 'वीं', 'वें', 'वी', 'वे', 'ला', 'ली', 'ले', 'रा', 'री', 'रे', 'था', 'थी', 'थे', 'ठा', 'ठी', 'ठे'],
  // Not वी, वे (वे is "they") nor ला, था, थे (words of their own: `वे 5 थे`).
  spacedOrdinalSuffixes: ['वाँ', 'वां', 'वीं', 'वें'],
  // पहला, दूसरा, तीसरा, चौथा, छठा: each ending belongs to its numbers.
  ordinalSuffixNumbers: {
    ...suffixesFor(['ला', 'ली', 'ले'], [1]),
    ...suffixesFor(['रा', 'री', 'रे'], [2, 3]),
    ...suffixesFor(['था', 'थी', 'थे'], [4]),
    ...suffixesFor(['ठा', 'ठी', 'ठे'], [6]),
  },
  year,
  pointWord: 'दशमलव',
  minusWord: 'ऋण',
  plusWord: 'प्लस',
  percent: (amount) => `${amount} प्रतिशत`,
  range: (from, to) => `${from} से ${to}`,
  money: (rupees, paise) =>
    words(
      (rupees > 0 || paise === 0) && `${cardinal(rupees)} ${rupees === 1 ? 'रुपया' : 'रुपये'}`,
      paise > 0 && `${cardinal(paise)} ${paise === 1 ? 'पैसा' : 'पैसे'}`,
    ),
  time,
  months: MONTHS,
  date: (day, month, y) => words(cardinal(day), MONTHS[month - 1], y !== undefined && year(y)),
  titles: { dr: 'डॉक्टर', mr: 'मिस्टर', mrs: 'मिसेज़', ms: 'मिस', prof: 'प्रोफ़ेसर', no: 'नंबर' },
  nativeAbbreviations: { 'डॉ.': 'डॉक्टर', 'रु.': 'रुपये' },
  unit: (key) => UNITS[key],
  symbols: { and: 'और', at: 'एट', dot: 'डॉट', slash: 'स्लैश', dash: 'डैश', underscore: 'अंडरस्कोर', percent: 'प्रतिशत' },
  codeKeywords: [...LATIN_CODE_KEYWORDS, 'ओटीपी', 'पिन', 'कोड', 'पासवर्ड'],
  idKeywords: [...LATIN_ID_KEYWORDS, 'खाता', 'खाते', 'ऑर्डर', 'आर्डर', 'नंबर', 'संख्या', 'क्रमांक', 'टिकट', 'मोबाइल', 'फ़ोन', 'फोन'],
  currencyWords: ['रुपये', 'रुपए', 'रुपया', 'पैसे', 'rupees', 'rupee'],
  yearKeywords: ['सन्', 'सन', 'वर्ष', 'साल', 'ईस्वी'],
  magnitudeWords: { thousand: ['हज़ार', 'हजार'], lakh: ['लाख'], crore: ['करोड़', 'करोड'] },
  attributiveBeforeWords: false,
  addressWords: ['पता', 'रोड', 'मार्ग', 'नगर', 'कॉलोनी', 'सेक्टर', 'गली', 'मोहल्ला', 'गाँव', 'तहसील', 'ज़िला', 'जिला', 'पूर्व', 'पश्चिम', 'उत्तर', 'दक्षिण'],
  fraction,
  score: (runs, wickets) => `${cardinal(runs)} पर ${cardinal(wickets)}`,
  idCues: ['गाड़ी संख्या', 'गाड़ी नंबर', 'ट्रेन संख्या', 'ट्रेन नंबर', 'ट्रेन', 'फ्लाइट', 'फ़्लाइट', 'उड़ान', 'पीएनआर', 'आईएफएससी'],
  arithmetic: { plus: 'धन', minus: 'ऋण', times: 'गुणा', dividedBy: 'भाग', equals: 'बराबर' },
  cricketWords: ['ओवर', 'रन', 'विकेट', 'स्कोर', 'पारी', 'over', 'overs', 'runs', 'wickets', 'score'],
  cricketTeams: ['भारत', 'इंडिया', 'ऑस्ट्रेलिया', 'इंग्लैंड', 'पाकिस्तान', 'श्रीलंका'],
  ratioWords: ['अनुपात'],
  // `मकान नंबर 12/4`, `287/4`: Hindi reads the slash between numbers बटा, as in its fractions (तीन बटा आठ).
  numberSlash: 'बटा',
};
