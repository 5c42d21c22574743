// Marathi (mr-IN): number words and ordinals from CLDR's mr spellout rules (full 1-99 table, शंभर / एकशे /
// दोनशे hundreds), years in hundreds (`एकोणीसशे`), the clock in वाजता/वाजून, day periods from CLDR mr.

import { clockHour, dayPeriod, groupedCardinal, hundredsYear, joinedCaseSuffix, LATIN_CODE_KEYWORDS, LATIN_CRICKET_WORDS, LATIN_ID_KEYWORDS, suffixesFor, words, quarterFraction, type LanguagePack, type UnitKey } from './language-pack.js';

// CLDR common/rbnf/mr.xml %spellout-cardinal 0-99.
const BELOW_100 = [
  'शून्य', 'एक', 'दोन', 'तीन', 'चार', 'पाच', 'सहा', 'सात', 'आठ', 'नऊ',
  'दहा', 'अकरा', 'बारा', 'तेरा', 'चौदा', 'पंधरा', 'सोळा', 'सतरा', 'अठरा', 'एकोणीस',
  'वीस', 'एकवीस', 'बावीस', 'तेवीस', 'चोवीस', 'पंचवीस', 'सव्वीस', 'सत्तावीस', 'अठ्ठावीस', 'एकोणतीस',
  'तीस', 'एकतीस', 'बत्तीस', 'तेहतीस', 'चौतीस', 'पस्तीस', 'छत्तीस', 'सदतीस', 'अडतीस', 'एकोणचाळीस',
  'चाळीस', 'एक्केचाळीस', 'बेचाळीस', 'त्रेचाळीस', 'चव्वेचाळीस', 'पंचेचाळीस', 'सेहेचाळीस', 'सत्तेचाळीस', 'अठ्ठेचाळीस', 'एकोणपन्नास',
  'पन्नास', 'एक्कावन्न', 'बावन्न', 'त्रेपन्न', 'चौपन्न', 'पंचावन्न', 'छप्पन्न', 'सत्तावन्न', 'अठ्ठावन्न', 'एकोणसाठ',
  'साठ', 'एकसष्ट', 'बासष्ट', 'त्रेसष्ट', 'चौसष्ट', 'पासष्ट', 'सहासष्ट', 'सदुसष्ट', 'अडुसष्ट', 'एकोणसत्तर',
  'सत्तर', 'एकाहत्तर', 'बाहत्तर', 'त्र्याहत्तर', 'चौर्याहत्तर', 'पंच्याहत्तर', 'शहात्तर', 'सत्त्याहत्तर', 'अठ्ठ्याहत्तर', 'एकोणऐंशी',
  'ऐंशी', 'एक्क्याऐंशी', 'ब्याऐंशी', 'त्र्याऐंशी', 'चौर्याऐंशी', 'पंच्याऐंशी', 'शहाऐंशी', 'सत्त्याऐंशी', 'अठ्ठ्याऐंशी', 'एकोणनव्वद',
  'नव्वद', 'एक्याण्णव', 'ब्याण्णव', 'त्र्याण्णव', 'चौर्याण्णव', 'पंच्याण्णव', 'शहाण्णव', 'सत्त्याण्णव', 'अठ्ठ्याण्णव', 'नव्व्याण्णव',
] as const;
// CLDR mr: 100 शंभर, 101-199 एकशे …, 200 दोनशे …
const HUNDREDS = ['', 'एकशे', 'दोनशे', 'तीनशे', 'चारशे', 'पाचशे', 'सहाशे', 'सातशे', 'आठशे', 'नऊशे'] as const;

const below100 = (n: number): string => BELOW_100[n] as string;

const cardinal = groupedCardinal(below100, { crore: 'कोटी', lakh: 'लाख', thousand: 'हजार' }, (hundred, rest) =>
  hundred === 1 && rest === 0 ? 'शंभर' : (HUNDREDS[hundred] as string),
);

// CLDR mr %spellout-ordinal-{masculine,feminine,neuter}: 1-10 listed, then cardinal + वा/वी/वे, with a linking
// ा for the ranges CLDR lists (19-49, 51-78, 89 and up, except exactly 1e7 and 1e8).
const FIRST_TEN: Record<'m' | 'f' | 'n', readonly string[]> = {
  m: ['शून्यवा', 'पहिला', 'दुसरा', 'तिसरा', 'चौथा', 'पाचवा', 'सहावा', 'सातवा', 'आठवा', 'नववा', 'दहावा'],
  f: ['शून्यवी', 'पहिली', 'दुसरी', 'तिसरी', 'चौथी', 'पाचवी', 'सहावी', 'सातवी', 'आठवी', 'नववी', 'दहावी'],
  n: ['शून्यवे', 'पहिले', 'दुसरे', 'तिसरे', 'चौथे', 'पाचवे', 'सहावे', 'सातवे', 'आठवे', 'नववे', 'दहावे'],
};

function linkingAa(n: number): boolean {
  if (n === 10_000_000 || n === 100_000_000) return false;
  return (n >= 19 && n <= 49) || (n >= 51 && n <= 78) || n >= 89;
}

function ordinal(n: number, suffix: string): string {
  const form = /^(ली|री|थी|वी)$/u.test(suffix) ? 'f' : /^(ले|रे|थे|वे)$/u.test(suffix) ? 'n' : 'm';
  const listed = FIRST_TEN[form][n];
  if (listed) return listed;
  const ending = form === 'f' ? 'वी' : form === 'n' ? 'वे' : 'वा';
  return `${cardinal(n)}${linkingAa(n) ? 'ा' : ''}${ending}`;
}

/** 1100-1999 as hundreds (एकोणीसशे अठ्ठ्याण्णव), the way Marathi reads years; later years as cardinals. */
const year = hundredsYear(below100, (n) => `${below100(n)}शे`, cardinal);

// CLDR 48 mr dayPeriods with its dayPeriodRules, in the locative (सकाळी, "in the morning") that times take.
const DAY_PERIODS = [[0, 'रात्री'], [4, 'पहाटे'], [6, 'सकाळी'], [12, 'दुपारी'], [16, 'संध्याकाळी'], [21, 'रात्री']] as const;

function time(hour24: number, minute: number, withPeriod: boolean): string {
  const hour = withPeriod ? clockHour(hour24) : hour24;
  const clock =
    minute === 0 ? `${cardinal(hour)} वाजता` : `${cardinal(hour)} वाजून ${cardinal(minute)} ${minute === 1 ? 'मिनिट' : 'मिनिटे'}`;
  return words(withPeriod && dayPeriod(DAY_PERIODS, hour24), clock);
}

const MONTHS = ['जानेवारी', 'फेब्रुवारी', 'मार्च', 'एप्रिल', 'मे', 'जून', 'जुलै', 'ऑगस्ट', 'सप्टेंबर', 'ऑक्टोबर', 'नोव्हेंबर', 'डिसेंबर'];

const UNITS: Record<UnitKey, string> = {
  km: 'किलोमीटर', kg: 'किलोग्रॅम', g: 'ग्रॅम', mg: 'मिलिग्रॅम', m: 'मीटर', cm: 'सेंटिमीटर', mm: 'मिलिमीटर',
  l: 'लिटर', ml: 'मिलिलिटर', kmph: 'किलोमीटर प्रति तास', gb: 'जीबी', mb: 'एमबी', mbps: 'एमबीपीएस',
};

const QUARTERS = { half: 'अर्धा', quarter: 'पाव', threeQuarters: 'पाऊण', oneAndHalf: 'दीड', twoAndHalf: 'अडीच', plusHalf: 'साडे', plusQuarter: 'सव्वा', minusQuarter: 'पावणे' };

/** Marathi's अपूर्णांक words (Damle): अर्धा, पाव, पाऊण; दीड, अडीच, साडे n, सव्वा n, पावणे n+1; others `n बटे d`. */
function fraction(whole: number, numerator: number, denominator: number): string | undefined {
  return quarterFraction(QUARTERS, cardinal, whole, numerator, denominator) ?? (whole === 0 ? `${cardinal(numerator)} बटे ${cardinal(denominator)}` : undefined);
}

export const marathi: LanguagePack = {
  code: 'mr-IN',
  digitNames: BELOW_100.slice(0, 10),
  cardinal,
  attributive: cardinal,
  ordinal,
  ordinalSuffixes: ['ला', 'ली', 'ले', 'रा', 'री', 'रे', 'था', 'थी', 'थे', 'वा', 'वी', 'वे'],
  // पहिला, दुसरा, तिसरा, चौथा; after other numbers ला, ने … are case endings (`५ला` पाचला, "at five").
  // None is taken after a space: वा is also "or" (`५ वा ६`).
  ordinalSuffixNumbers: {
    ...suffixesFor(['ला', 'ली', 'ले'], [1]),
    ...suffixesFor(['रा', 'री', 'रे'], [2, 3]),
    ...suffixesFor(['था', 'थी', 'थे'], [4]),
  },
  caseSuffixes: ['ला', 'ना', 'चा', 'ची', 'चे', 'च्या', 'मध्ये', 'पर्यंत', 'पासून', 'ने', 'वर'],
  withCaseSuffix: joinedCaseSuffix(/[\u0900-\u097F]$/u),
  year,
  pointWord: 'दशांश',
  minusWord: 'उणे',
  plusWord: 'प्लस',
  percent: (amount) => `${amount} टक्के`,
  range: (from, to) => `${from} ते ${to}`,
  money: (rupees, paise) =>
    words(
      (rupees > 0 || paise === 0) && `${cardinal(rupees)} ${rupees === 1 ? 'रुपया' : 'रुपये'}`,
      paise > 0 && `${cardinal(paise)} ${paise === 1 ? 'पैसा' : 'पैसे'}`,
    ),
  time,
  months: MONTHS,
  date: (day, month, y) => words(cardinal(day), MONTHS[month - 1], y !== undefined && year(y)),
  titles: { dr: 'डॉक्टर', mr: 'मिस्टर', mrs: 'मिसेस', ms: 'मिस', prof: 'प्रोफेसर', no: 'क्रमांक' },
  nativeAbbreviations: { 'डॉ.': 'डॉक्टर', 'रु.': 'रुपये' },
  unit: (key) => UNITS[key],
  symbols: { and: 'आणि', at: 'ॲट', dot: 'डॉट', slash: 'स्लॅश', dash: 'डॅश', underscore: 'अंडरस्कोर', percent: 'टक्के' },
  codeKeywords: [...LATIN_CODE_KEYWORDS, 'ओटीपी', 'पिन', 'कोड', 'पासवर्ड'],
  idKeywords: [...LATIN_ID_KEYWORDS, 'खाते', 'खात्याचा', 'ऑर्डर', 'क्रमांक', 'नंबर', 'मोबाईल', 'मोबाइल', 'फोन', 'तिकीट'],
  currencyWords: ['रुपये', 'रुपया', 'पैसे', 'rupees', 'rupee'],
  yearKeywords: ['सन', 'वर्ष', 'साली', 'साल'],
  magnitudeWords: { thousand: ['हजार'], lakh: ['लाख'], crore: ['कोटी'] },
  attributiveBeforeWords: false,
  addressWords: ['पत्ता', 'रस्ता', 'मार्ग', 'नगर', 'पेठ', 'कॉलनी', 'सेक्टर', 'गाव', 'तालुका', 'जिल्हा', 'पूर्व', 'पश्चिम'],
  fraction,
  score: (runs, wickets) => `${wickets === 0 ? 'बिनबाद' : `${cardinal(wickets)} बाद`} ${cardinal(runs)}`,
  cricketWords: [...LATIN_CRICKET_WORDS, 'षटके', 'षटकांत', 'षटकात', 'धावा', 'विकेट', 'गडी', 'धावसंख्या'],
  arithmetic: { plus: 'अधिक', minus: 'वजा', times: 'गुणिले', dividedBy: 'भागिले', equals: 'बरोबर' },
  idCues: ['गाडी क्रमांक', 'गाडी नंबर', 'ट्रेन', 'फ्लाइट', 'पीएनआर'],
  cricketTeams: ['भारत', 'इंडिया', 'ऑस्ट्रेलिया', 'इंग्लंड', 'पाकिस्तान'],
  ratioWords: ['गुणोत्तर', 'प्रमाण', 'अनुपात'],
  // Marathi reads the slash between numbers बटे, as in its fractions (एक बटे तीन).
  numberSlash: 'बटे',
};
