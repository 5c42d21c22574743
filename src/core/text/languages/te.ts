// Telugu (te-IN): number words from CLDR's te spellout rules (వంద / నూట, `N వందల`, వెయ్యి / `N వేల`, ఒక లక్ష,
// ఒక కోటి), plus the distinction CLDR leaves out: a bare plural stands alone (రెండు వేలు) and the oblique
// goes before a noun (రెండు వేల రూపాయలు, ఒక రూపాయి), as in Krishnamurti & Gwynn, A Grammar of Modern Telugu §9.

import { clockHour, dayPeriod, indianGroups, LATIN_CODE_KEYWORDS, LATIN_CRICKET_WORDS, LATIN_ID_KEYWORDS, words, type LanguagePack, type UnitKey } from './language-pack.js';

// CLDR common/rbnf/te.xml %spellout-cardinal 0-19 and the tens.
const BELOW_20 = [
  'సున్నా', 'ఒకటి', 'రెండు', 'మూడు', 'నాలుగు', 'ఐదు', 'ఆరు', 'ఏడు', 'ఎనిమిది', 'తొమ్మిది',
  'పది', 'పదకొండు', 'పన్నెండు', 'పదమూడు', 'పద్నాలుగు', 'పదిహేను', 'పదహారు', 'పదిహేడు', 'పద్దెనిమిది', 'పంతొమ్మిది',
] as const;
const TENS = ['', '', 'ఇరవై', 'ముప్పై', 'నలభై', 'యాభై', 'అరవై', 'డెబ్బై', 'ఎనభై', 'తొంభై'] as const;

type Form = 'standalone' | 'attributive';

function below100(n: number, form: Form = 'standalone'): string {
  const text = n < 20 ? (BELOW_20[n] as string) : words(TENS[Math.floor(n / 10)], n % 10 > 0 && BELOW_20[n % 10]);
  // ఒకటి is the counting form; before a noun (or a magnitude) one is ఒక.
  return form === 'attributive' ? text.replace(/ఒకటి$/u, 'ఒక') : text;
}

/** A magnitude with its plural: `followed` (more words, or a noun) takes the oblique వందల / వేల / లక్షల / కోట్ల. */
function magnitude(count: string, plural: string, oblique: string, followed: boolean): string {
  return `${count} ${followed ? oblique : plural}`;
}

function cardinalForm(n: number, form: Form): string {
  if (n < 100) return below100(n, form);
  const g = indianGroups(n);
  const below = g.hundred * 100 + g.rest;
  const parts: string[] = [];
  // Everything after a group counts as "followed"; the last group is followed only before a noun.
  const followedAfter = (remaining: number): boolean => remaining > 0 || form === 'attributive';
  if (g.crore > 0) {
    const remaining = n % 10_000_000;
    parts.push(g.crore === 1 ? 'ఒక కోటి' : magnitude(cardinalForm(g.crore, 'attributive'), 'కోట్లు', 'కోట్ల', followedAfter(remaining)));
  }
  if (g.lakh > 0) {
    const remaining = n % 100_000;
    parts.push(g.lakh === 1 ? 'ఒక లక్ష' : magnitude(below100(g.lakh, 'attributive'), 'లక్షలు', 'లక్షల', followedAfter(remaining)));
  }
  if (g.thousand > 0) {
    parts.push(g.thousand === 1 ? 'వెయ్యి' : magnitude(below100(g.thousand, 'attributive'), 'వేలు', 'వేల', followedAfter(below)));
  }
  if (g.hundred > 0) {
    // CLDR te: 100 వంద, 101-199 నూట …, 200 రెండు వందలు, 201 రెండు వందల …
    if (g.hundred === 1) parts.push(g.rest > 0 ? 'నూట' : 'వంద');
    else parts.push(magnitude(BELOW_20[g.hundred] as string, 'వందలు', 'వందల', followedAfter(g.rest)));
  }
  if (g.rest > 0) parts.push(below100(g.rest, form));
  return parts.join(' ');
}

const cardinal = (n: number): string => cardinalForm(n, 'standalone');
const attributive = (n: number): string => cardinalForm(n, 'attributive');

/** CLDR te %spellout-ordinal: మొదటి, then the last word takes -వ (రెండవ, పదవ, ఇరవయ్యవ, ఇరవై ఒకటవ, వందవ). */
function ordinal(n: number): string {
  if (n === 1) return 'మొదటి';
  const text = cardinal(n);
  if (text.endsWith('ై')) return `${text.slice(0, -1)}య్యవ`;
  if (/[ుి]$/u.test(text)) return `${text.slice(0, -1)}వ`;
  return `${text}వ`;
}

/**
 * Case endings written onto digits join the number (`2024లో` … నాలుగులో, `15న` పదిహేనున, `10కి` పదికి); a plural
 * in -లు takes its oblique -ల first (`2000లో` రెండు వేలలో, రూపాయలకి), and a noun in -ం takes -ాని- before కి/కు
 * (శాతానికి): the oblique stems of Krishnamurti & Gwynn.
 */
function withCaseSuffix(spoken: string, suffix: string): string | undefined {
  if (!/[\u0C00-\u0C7F]$/u.test(spoken)) return undefined;
  if (spoken.endsWith('లు')) return `${spoken.slice(0, -1)}${suffix}`;
  if (spoken.endsWith('ం') && (suffix === 'కి' || suffix === 'కు')) return `${spoken.slice(0, -1)}ానికి`;
  return `${spoken}${suffix}`;
}

// CLDR 48 te dayPeriods (format, wide) with CLDR's dayPeriodRules for te.
const DAY_PERIODS = [[0, 'రాత్రి'], [6, 'ఉదయం'], [12, 'మధ్యాహ్నం'], [18, 'సాయంత్రం'], [21, 'రాత్రి']] as const;

/** One o'clock is ఒంటి గంట; other hours are N గంటలు, or N గంటల M నిమిషాలు with minutes. */
function time(hour24: number, minute: number, withPeriod: boolean): string {
  const hour = withPeriod ? clockHour(hour24) : hour24;
  const hours = hour === 1 ? 'ఒంటి గంట' : `${cardinal(hour)} ${minute > 0 ? 'గంటల' : 'గంటలు'}`;
  const minutes = minute === 0 ? undefined : minute === 1 ? 'ఒక నిమిషం' : `${cardinal(minute)} నిమిషాలు`;
  return words(withPeriod && dayPeriod(DAY_PERIODS, hour24), hours, minutes);
}

function money(rupees: number, paise: number): string {
  const rupeeWord = rupees === 1 ? 'రూపాయి' : paise > 0 ? 'రూపాయల' : 'రూపాయలు';
  return words(
    (rupees > 0 || paise === 0) && `${attributive(rupees)} ${rupeeWord}`,
    paise > 0 && `${attributive(paise)} ${paise === 1 ? 'పైసా' : 'పైసలు'}`,
  );
}

const MONTHS = ['జనవరి', 'ఫిబ్రవరి', 'మార్చి', 'ఏప్రిల్', 'మే', 'జూన్', 'జులై', 'ఆగస్టు', 'సెప్టెంబర్', 'అక్టోబర్', 'నవంబర్', 'డిసెంబర్'];

const UNITS: Record<UnitKey, string> = {
  km: 'కిలోమీటర్లు', kg: 'కిలోగ్రాములు', g: 'గ్రాములు', mg: 'మిల్లీగ్రాములు', m: 'మీటర్లు', cm: 'సెంటీమీటర్లు', mm: 'మిల్లీమీటర్లు',
  l: 'లీటర్లు', ml: 'మిల్లీలీటర్లు', kmph: 'కిలోమీటర్ల వేగం', gb: 'జీబీ', mb: 'ఎంబీ', mbps: 'ఎంబీపీఎస్',
};

/**
 * Telugu: అర, పావు, ముప్పావు; n½ as the number + న్నర (ఒకటిన్నర, రెండున్నర), n¼ as the number + ంపావు
 * (మూడుంపావు), n¾ as "a quarter short of n + 1" (పావు తక్కువ నాలుగు). Thirds, eighths and the rest: not vouched for.
 */
function fraction(whole: number, numerator: number, denominator: number): string | undefined {
  const quarters = denominator === 4 ? numerator : denominator === 2 ? numerator * 2 : undefined;
  if (quarters === undefined) return undefined;
  if (whole === 0) return quarters === 2 ? 'అర' : quarters === 1 ? 'పావు' : 'ముప్పావు';
  if (quarters === 2) return `${cardinal(whole)}న్నర`;
  if (quarters === 1) return `${cardinal(whole)}ంపావు`;
  return `పావు తక్కువ ${cardinal(whole + 1)}`;
}

export const telugu: LanguagePack = {
  code: 'te-IN',
  digitNames: BELOW_20.slice(0, 10),
  cardinal,
  attributive,
  ordinal,
  ordinalSuffixes: ['వ', '-వ'],
  spacedOrdinalSuffixes: ['వ'],
  caseSuffixes: ['లో', 'న', 'కి', 'కు', 'తో', 'నుంచి', 'నుండి', 'వరకు'],
  withCaseSuffix,
  year: cardinal,
  pointWord: 'దశాంశం',
  minusWord: 'ఋణ',
  plusWord: 'ప్లస్',
  percent: (amount) => `${amount} శాతం`,
  range: (from, to) => `${from} నుండి ${to}`,
  money,
  time,
  months: MONTHS,
  date: (day, month, y) => words(cardinal(day), MONTHS[month - 1], y !== undefined && cardinal(y)),
  titles: { dr: 'డాక్టర్', mr: 'మిస్టర్', mrs: 'మిసెస్', ms: 'మిస్', prof: 'ప్రొఫెసర్', no: 'నంబర్' },
  nativeAbbreviations: { 'డా.': 'డాక్టర్', 'రూ.': 'రూపాయలు' },
  unit: (key) => UNITS[key],
  symbols: { and: 'మరియు', at: 'ఎట్', dot: 'డాట్', slash: 'స్లాష్', dash: 'డాష్', underscore: 'అండర్‌స్కోర్', percent: 'శాతం' },
  codeKeywords: [...LATIN_CODE_KEYWORDS, 'ఓటీపీ', 'ఓటిపి', 'పిన్', 'కోడ్', 'పాస్‌వర్డ్'],
  idKeywords: [...LATIN_ID_KEYWORDS, 'ఖాతా', 'ఆర్డర్', 'నంబర్', 'సంఖ్య', 'మొబైల్', 'ఫోన్', 'టికెట్'],
  currencyWords: ['రూపాయలు', 'రూపాయి', 'రూపాయల', 'పైసలు', 'rupees', 'rupee'],
  yearKeywords: ['సంవత్సరం', 'సంవత్సరంలో'],
  magnitudeWords: { thousand: ['వేలు', 'వేల', 'వెయ్యి'], lakh: ['లక్షలు', 'లక్షల', 'లక్ష'], crore: ['కోట్లు', 'కోట్ల', 'కోటి'] },
  attributiveBeforeWords: true,
  addressWords: ['చిరునామా', 'రోడ్డు', 'వీధి', 'నగర్', 'కాలనీ', 'గ్రామం', 'జిల్లా', 'తూర్పు', 'పశ్చిమ'],
  fraction,
  // Telugu names the signs in English (Telugu Wikipedia, తీసివేత: `మైనస్ (–) గుర్తు`), as this pack's plusWord does.
  arithmetic: { plus: 'ప్లస్', minus: 'మైనస్', times: 'ఇంటూ', dividedBy: 'డివైడెడ్ బై', equals: 'ఈక్వల్స్' },
  score: (runs, wickets) => `${cardinal(wickets)} వికెట్ల నష్టానికి ${cardinal(runs)} పరుగులు`,
  cricketWords: [...LATIN_CRICKET_WORDS, 'ఓవర్లు', 'ఓవర్లలో', 'పరుగులు', 'వికెట్లు', 'వికెట్', 'స్కోరు'],
  idCues: ['రైలు నంబర్', 'రైలు', 'ఫ్లైట్', 'పీఎన్ఆర్'],
  cricketTeams: ['భారత్', 'భారత', 'ఇండియా', 'ఆస్ట్రేలియా', 'ఇంగ్లాండ్', 'పాకిస్తాన్'],
  ratioWords: ['నిష్పత్తి', 'నిష్పత్తిలో'],
};
