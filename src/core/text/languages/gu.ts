// Gujarati (gu-IN): number words and ordinals from CLDR's gu spellout rules (full 1-99 table, `N સો`
// hundreds), years in hundreds, the clock in વાગ્યે/વાગીને, day periods from CLDR gu.

import { clockHour, dayPeriod, groupedCardinal, hundredsYear, joinedCaseSuffix, LATIN_CODE_KEYWORDS, LATIN_CRICKET_WORDS, LATIN_ID_KEYWORDS, suffixesFor, words, quarterFraction, type LanguagePack, type UnitKey } from './language-pack.js';

// CLDR 48 common/rbnf/gu.xml %spellout-cardinal 0-99.
const BELOW_100 = [
  'શૂન્ય', 'એક', 'બે', 'ત્રણ', 'ચાર', 'પાંચ', 'છ', 'સાત', 'આઠ', 'નવ',
  'દસ', 'અગિયાર', 'બાર', 'તેર', 'ચૌદ', 'પંદર', 'સોળ', 'સત્તર', 'અઢાર', 'ઓગણીસ',
  'વીસ', 'એકવીસ', 'બાવીસ', 'તેવીસ', 'ચોવીસ', 'પચ્ચીસ', 'છવીસ', 'સત્તાવીસ', 'અઠ્ઠાવીસ', 'ઓગણત્રીસ',
  'ત્રીસ', 'એકત્રીસ', 'બત્રીસ', 'તેત્રીસ', 'ચોત્રીસ', 'પાંત્રીસ', 'છત્રીસ', 'સડત્રીસ', 'અડત્રીસ', 'ઓગણચાલીસ',
  'ચાલીસ', 'એકતાલીસ', 'બેતાલીસ', 'ત્રેતાલીસ', 'ચુંમાલીસ', 'પિસ્તાલીસ', 'છેતાલીસ', 'સુડતાલીસ', 'અડતાલીસ', 'ઓગણપચાસ',
  'પચાસ', 'એકાવન', 'બાવન', 'ત્રેપન', 'ચોપન', 'પંચાવન', 'છપ્પન', 'સત્તાવન', 'અઠ્ઠાવન', 'ઓગણસાઠ',
  'સાઈઠ', 'એકસઠ', 'બાસઠ', 'ત્રેસઠ', 'ચોસઠ', 'પાંસઠ', 'છાસઠ', 'સડસઠ', 'અડસઠ', 'અગણોસિત્તેર',
  'સિત્તેર', 'એકોતેર', 'બોતેર', 'તોતેર', 'ચુમોતેર', 'પંચોતેર', 'છોતેર', 'સિત્યોતેર', 'ઇઠ્યોતેર', 'ઓગણાએંસી',
  'એંસી', 'એક્યાસી', 'બ્યાસી', 'ત્યાસી', 'ચોર્યાસી', 'પંચાસી', 'છ્યાસી', 'સિત્યાસી', 'ઈઠ્યાસી', 'નેવ્યાસી',
  'નેવું', 'એકાણું', 'બાણું', 'ત્રાણું', 'ચોરાણું', 'પંચાણું', 'છન્નું', 'સત્તાણું', 'અઠ્ઠાણું', 'નવ્વાણું',
] as const;

const below100 = (n: number): string => BELOW_100[n] as string;
const hundreds = (n: number): string => `${below100(n)} સો`;

// CLDR gu spells crore કરોડ઼ with a stray nukta under ડ; Gujarati writes કરોડ (pinned by a test).
const cardinal = groupedCardinal(below100, { crore: 'કરોડ', lakh: 'લાખ', thousand: 'હજાર' }, hundreds);

// CLDR gu %spellout-ordinal-masculine / -feminine: 1-6 listed, then cardinal + મું / મી. CLDR's "masculine" is
// the neuter -ું form; the written ending picks the gender (`15મો` પંદરમો, `15મી` પંદરમી, `15મું` પંદરમું).
const FIRST_SIX: Record<'m' | 'n' | 'f', readonly string[]> = {
  m: ['શૂન્યમો', 'પહેલો', 'બીજો', 'ત્રીજો', 'ચોથો', 'પાંચમો', 'છઠ્ઠો'],
  n: ['શૂન્યમું', 'પ્રથમ', 'બીજું', 'ત્રીજું', 'ચોથું', 'પાંચમું', 'છઠ્ઠું'],
  // CLDR has પેહલી for 1, a misspelling of પહેલી.
  f: ['શૂન્યમી', 'પહેલી', 'બીજી', 'ત્રીજી', 'ચોથી', 'પાંચમી', 'છઠ્ઠી'],
};
const ENDINGS = { m: 'મો', n: 'મું', f: 'મી' } as const;

function ordinal(n: number, suffix: string): string {
  const form = suffix.endsWith('ો') ? 'm' : suffix.endsWith('ી') ? 'f' : 'n';
  return FIRST_SIX[form][n] ?? `${cardinal(n)}${ENDINGS[form]}`;
}

const year = hundredsYear(below100, hundreds, cardinal);

// CLDR 48 gu dayPeriods (format, wide: already locative) with CLDR's dayPeriodRules for gu.
const DAY_PERIODS = [[0, 'રાત્રે'], [4, 'સવારે'], [12, 'બપોરે'], [16, 'સાંજે'], [20, 'રાત્રે']] as const;

function time(hour24: number, minute: number, withPeriod: boolean): string {
  const hour = withPeriod ? clockHour(hour24) : hour24;
  const clock = minute === 0 ? `${cardinal(hour)} વાગ્યે` : `${cardinal(hour)} વાગીને ${cardinal(minute)} મિનિટ`;
  return words(withPeriod && dayPeriod(DAY_PERIODS, hour24), clock);
}

const MONTHS = ['જાન્યુઆરી', 'ફેબ્રુઆરી', 'માર્ચ', 'એપ્રિલ', 'મે', 'જૂન', 'જુલાઈ', 'ઑગસ્ટ', 'સપ્ટેમ્બર', 'ઑક્ટોબર', 'નવેમ્બર', 'ડિસેમ્બર'];

const UNITS: Record<UnitKey, string> = {
  km: 'કિલોમીટર', kg: 'કિલોગ્રામ', g: 'ગ્રામ', mg: 'મિલિગ્રામ', m: 'મીટર', cm: 'સેન્ટિમીટર', mm: 'મિલિમીટર',
  l: 'લિટર', ml: 'મિલિલિટર', kmph: 'કિલોમીટર પ્રતિ કલાક', gb: 'જીબી', mb: 'એમબી', mbps: 'એમબીપીએસ',
};

const QUARTERS = { half: 'અડધું', quarter: 'પા', threeQuarters: 'પોણું', oneAndHalf: 'દોઢ', twoAndHalf: 'અઢી', plusHalf: 'સાડા', plusQuarter: 'સવા', minusQuarter: 'પોણા' };

/** Gujarati's quarter words: અડધું, પા, પોણું; દોઢ, અઢી, સાડા n, સવા n, પોણા n+1 (thirds and the rest: not vouched for). */
function fraction(whole: number, numerator: number, denominator: number): string | undefined {
  return quarterFraction(QUARTERS, cardinal, whole, numerator, denominator);
}

export const gujarati: LanguagePack = {
  code: 'gu-IN',
  digitNames: BELOW_100.slice(0, 10),
  cardinal,
  attributive: cardinal,
  ordinal,
  ordinalSuffixes: ['લો', 'લું', 'લી', 'જો', 'જું', 'જી', 'થો', 'થું', 'થી', 'ઠ્ઠો', 'ઠ્ઠું', 'ઠ્ઠી', 'મો', 'મું', 'મી'],
  // Not મી after a space: `5 મી.` is five metres.
  spacedOrdinalSuffixes: ['મો', 'મું'],
  // પહેલો, બીજો, ત્રીજો, ચોથો, છઠ્ઠો; after other numbers થી is "from" (`10થી` દસથી).
  ordinalSuffixNumbers: {
    ...suffixesFor(['લો', 'લું', 'લી'], [1]),
    ...suffixesFor(['જો', 'જું', 'જી'], [2, 3]),
    ...suffixesFor(['થો', 'થું', 'થી'], [4]),
    ...suffixesFor(['ઠ્ઠો', 'ઠ્ઠું', 'ઠ્ઠી'], [6]),
  },
  caseSuffixes: ['માં', 'થી', 'નો', 'ની', 'નું', 'ના', 'ને', 'સુધી'],
  withCaseSuffix: joinedCaseSuffix(/[\u0A80-\u0AFF]$/u),
  year,
  pointWord: 'દશાંશ',
  minusWord: 'નકારાત્મક',
  plusWord: 'પ્લસ',
  percent: (amount) => `${amount} ટકા`,
  range: (from, to) => `${from} થી ${to}`,
  money: (rupees, paise) =>
    words(
      (rupees > 0 || paise === 0) && `${cardinal(rupees)} ${rupees === 1 ? 'રૂપિયો' : 'રૂપિયા'}`,
      paise > 0 && `${cardinal(paise)} ${paise === 1 ? 'પૈસો' : 'પૈસા'}`,
    ),
  time,
  months: MONTHS,
  date: (day, month, y) => words(cardinal(day), MONTHS[month - 1], y !== undefined && year(y)),
  titles: { dr: 'ડૉક્ટર', mr: 'મિસ્ટર', mrs: 'મિસિસ', ms: 'મિસ', prof: 'પ્રોફેસર', no: 'નંબર' },
  nativeAbbreviations: { 'ડૉ.': 'ડૉક્ટર', 'રૂ.': 'રૂપિયા' },
  unit: (key) => UNITS[key],
  symbols: { and: 'અને', at: 'એટ', dot: 'ડોટ', slash: 'સ્લેશ', dash: 'ડેશ', underscore: 'અન્ડરસ્કોર', percent: 'ટકા' },
  codeKeywords: [...LATIN_CODE_KEYWORDS, 'ઓટીપી', 'પિન', 'કોડ', 'પાસવર્ડ'],
  idKeywords: [...LATIN_ID_KEYWORDS, 'ખાતા', 'ખાતું', 'ઓર્ડર', 'નંબર', 'ક્રમાંક', 'મોબાઇલ', 'ફોન', 'ટિકિટ'],
  currencyWords: ['રૂપિયા', 'રૂપિયો', 'પૈસા', 'rupees', 'rupee'],
  yearKeywords: ['સન', 'વર્ષ', 'સાલ'],
  magnitudeWords: { thousand: ['હજાર'], lakh: ['લાખ'], crore: ['કરોડ'] },
  attributiveBeforeWords: false,
  addressWords: ['સરનામું', 'રોડ', 'માર્ગ', 'નગર', 'સોસાયટી', 'ગામ', 'તાલુકો', 'જિલ્લો', 'પૂર્વ', 'પશ્ચિમ'],
  fraction,
  score: (runs, wickets) => `${cardinal(wickets)} વિકેટે ${cardinal(runs)} રન`,
  cricketWords: [...LATIN_CRICKET_WORDS, 'ઓવર', 'ઓવરમાં', 'રન', 'વિકેટ', 'સ્કોર'],
  arithmetic: { plus: 'વત્તા', minus: 'ઓછા', times: 'ગુણ્યા', dividedBy: 'ભાગ્યા', equals: 'બરાબર' },
  idCues: ['ગાડી નંબર', 'ટ્રેન', 'ફ્લાઇટ', 'પીએનઆર'],
  cricketTeams: ['ભારત', 'ઇન્ડિયા', 'ઓસ્ટ્રેલિયા', 'ઇંગ્લેન્ડ', 'પાકિસ્તાન'],
  ratioWords: ['ગુણોત્તર', 'પ્રમાણ'],
};
