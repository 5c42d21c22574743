// Kannada (kn-IN): number words from CLDR's kn spellout rules, which have the joined forms speakers use:
// tens fuse with units (ಇಪ್ಪತ್ತೊಂದು, ಮೂವತ್ತನಾಲ್ಕು), hundreds combine (ನೂರ ಇಪ್ಪತ್ತು, ಇನ್ನೂರು), and a magnitude
// followed by more takes the genitive (ಸಾವಿರದ, ಲಕ್ಷದ, ಕೋಟಿಯ).

import { clockHour, dayPeriod, LATIN_CODE_KEYWORDS, LATIN_CRICKET_WORDS, LATIN_ID_KEYWORDS, words, type LanguagePack, type UnitKey } from './language-pack.js';

// CLDR common/rbnf/kn.xml %spellout-cardinal 0-19, tens stems and %%unit-suffix.
const BELOW_20 = [
  'ಸೊನ್ನೆ', 'ಒಂದು', 'ಎರಡು', 'ಮೂರು', 'ನಾಲ್ಕು', 'ಐದು', 'ಆರು', 'ಏಳು', 'ಎಂಟು', 'ಒಂಬತ್ತು',
  'ಹತ್ತು', 'ಹನ್ನೊಂದು', 'ಹನ್ನೆರಡು', 'ಹದಿಮೂರು', 'ಹದಿನಾಲ್ಕು', 'ಹದಿನೈದು', 'ಹದಿನಾರು', 'ಹದಿನೇಳು', 'ಹದಿನೆಂಟು', 'ಹತ್ತೊಂಬತ್ತು',
] as const;
const TENS_STEMS = ['', '', 'ಇಪ್ಪತ್ತ', 'ಮೂವತ್ತ', 'ನಲವತ್ತ', 'ಐವತ್ತ', 'ಅರವತ್ತ', 'ಎಪ್ಪತ್ತ', 'ಎಂಬತ್ತ', 'ತೊಂಬತ್ತ'] as const;
const UNIT_SUFFIXES = ['ು', 'ೊಂದು', 'ೆರಡು', 'ಮೂರು', 'ನಾಲ್ಕು', 'ೈದು', 'ಾರು', 'ೇಳು', 'ೆಂಟು', 'ೊಂಬತ್ತು'] as const;
const HUNDRED_STEMS = ['', 'ನೂರ', 'ಇನ್ನೂರ', 'ಮುನ್ನೂರ', 'ನಾನೂರ', 'ಐನೂರ', 'ಆರುನೂರ', 'ಏಳುನೂರ', 'ಎಂಟುನೂರ', 'ಒಂಬೈನೂರ'] as const;

function below100(n: number): string {
  if (n < 20) return BELOW_20[n] as string;
  return `${TENS_STEMS[Math.floor(n / 10)]}${UNIT_SUFFIXES[n % 10]}`;
}

function below1000(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return below100(rest);
  return rest === 0 ? `${HUNDRED_STEMS[hundreds]}ು` : `${HUNDRED_STEMS[hundreds]} ${below100(rest)}`;
}

/** RBNF `<< word[link >>]`: the magnitude, and when a remainder follows, its genitive link then the remainder. */
function withRemainder(head: string, link: string, remainder: number): string {
  return remainder > 0 ? `${head}${link} ${cardinal(remainder)}` : head;
}

function cardinal(n: number): string {
  if (n < 1000) return below1000(n);
  if (n < 100_000) {
    const t = Math.floor(n / 1000);
    return withRemainder(t === 1 ? 'ಸಾವಿರ' : `${below100(t)} ಸಾವಿರ`, 'ದ', n % 1000);
  }
  if (n < 10_000_000) {
    const l = Math.floor(n / 100_000);
    return withRemainder(l === 1 ? 'ಒಂದು ಲಕ್ಷ' : `${below100(l)} ಲಕ್ಷ`, 'ದ', n % 100_000);
  }
  const c = Math.floor(n / 10_000_000);
  return withRemainder(c === 1 ? 'ಒಂದು ಕೋಟಿ' : `${cardinal(c)} ಕೋಟಿ`, 'ಯ', n % 10_000_000);
}

/**
 * CLDR kn %spellout-ordinal: the cardinal's last word + ನೇ (ಒಂದನೇ, ಇಪ್ಪತ್ತೊಂದನೇ, ನೂರನೇ, ಸಾವಿರನೇ, ಕೋಟಿಯನೇ);
 * written with the adjectival ನೆಯ (`15ನೆಯ`), read with it.
 */
function ordinal(n: number, suffix = ''): string {
  const text = cardinal(n);
  const ending = suffix.endsWith('ನೆಯ') ? 'ನೆಯ' : 'ನೇ';
  if (text.endsWith('ು')) return `${text.slice(0, -1)}${ending}`;
  if (/[ಿೆ]$/u.test(text)) return `${text}ಯ${ending}`;
  return `${text}${ending}`;
}

/**
 * Case endings written onto digits (`2024ರಲ್ಲಿ`, `15ರಂದು`, `10ಕ್ಕೆ`, `2024ರ`) stand for the number's own case form,
 * as the ablative below: a final ು drops (ನಾಲ್ಕರಲ್ಲಿ, ಹದಿನೈದರಂದು, ಹತ್ತಕ್ಕೆ); after a final a the augment is ದ
 * (ಸಾವಿರದಲ್ಲಿ, ಸಾವಿರಕ್ಕೆ); after i or e it is ಯ, and the dative is ಗೆ (ಕೋಟಿಯಲ್ಲಿ, ಕೋಟಿಗೆ, ರೂಪಾಯಿಗೆ).
 */
function withCaseSuffix(spoken: string, suffix: string): string | undefined {
  const augmented = suffix.startsWith('ರ');
  if (spoken.endsWith('ು')) return `${spoken.slice(0, -1)}${suffix}`;
  if (/[ಿೆೇ]$/u.test(spoken)) return augmented ? `${spoken}ಯ${suffix.slice(1)}` : `${spoken}ಗೆ`;
  // A final consonant with its inherent a (ಸಾವಿರ, ಲಕ್ಷ, ನಿಮಿಷ); other endings (a virama, a long vowel) are left as written.
  if (/[\u0C95-\u0CB9]$/u.test(spoken)) return augmented ? `${spoken}ದ${suffix.slice(1)}` : `${spoken}${suffix}`;
  return undefined;
}

/** "From X": numbers take the ablative with the -ar- augment (ಹತ್ತರಿಂದ, ಸಾವಿರದಿಂದ, ಕೋಟಿಯಿಂದ). */
function ablative(text: string): string {
  if (text.endsWith('ು')) return `${text.slice(0, -1)}ರಿಂದ`;
  if (/[ಿೆ]$/u.test(text)) return `${text}ಯಿಂದ`;
  return `${text}ದಿಂದ`;
}

// CLDR 48 kn dayPeriods (format, wide) with CLDR's dayPeriodRules for kn.
const DAY_PERIODS = [[0, 'ರಾತ್ರಿ'], [6, 'ಬೆಳಗ್ಗೆ'], [12, 'ಮಧ್ಯಾಹ್ನ'], [18, 'ಸಂಜೆ'], [21, 'ರಾತ್ರಿ']] as const;

function time(hour24: number, minute: number, withPeriod: boolean): string {
  const hour = withPeriod ? clockHour(hour24) : hour24;
  const clock = words(`${cardinal(hour)} ಗಂಟೆ`, minute > 0 && `${cardinal(minute)} ನಿಮಿಷ`);
  return words(withPeriod && dayPeriod(DAY_PERIODS, hour24), clock);
}

const MONTHS = ['ಜನವರಿ', 'ಫೆಬ್ರವರಿ', 'ಮಾರ್ಚ್', 'ಏಪ್ರಿಲ್', 'ಮೇ', 'ಜೂನ್', 'ಜುಲೈ', 'ಆಗಸ್ಟ್', 'ಸೆಪ್ಟೆಂಬರ್', 'ಅಕ್ಟೋಬರ್', 'ನವೆಂಬರ್', 'ಡಿಸೆಂಬರ್'];

const UNITS: Record<UnitKey, string> = {
  km: 'ಕಿಲೋಮೀಟರ್', kg: 'ಕಿಲೋಗ್ರಾಂ', g: 'ಗ್ರಾಂ', mg: 'ಮಿಲಿಗ್ರಾಂ', m: 'ಮೀಟರ್', cm: 'ಸೆಂಟಿಮೀಟರ್', mm: 'ಮಿಲಿಮೀಟರ್',
  l: 'ಲೀಟರ್', ml: 'ಮಿಲಿಲೀಟರ್', kmph: 'ಕಿಲೋಮೀಟರ್ ವೇಗ', gb: 'ಜಿಬಿ', mb: 'ಎಂಬಿ', mbps: 'ಎಂಬಿಪಿಎಸ್',
};

/** Kannada: ಅರ್ಧ, ಕಾಲು, ಮುಕ್ಕಾಲು; n½ as the number's final ು lengthened + ವರೆ (ಒಂದೂವರೆ, ಎರಡೂವರೆ). Others: not vouched for. */
function fraction(whole: number, numerator: number, denominator: number): string | undefined {
  const quarters = denominator === 4 ? numerator : denominator === 2 ? numerator * 2 : undefined;
  if (quarters === undefined) return undefined;
  if (whole === 0) return quarters === 2 ? 'ಅರ್ಧ' : quarters === 1 ? 'ಕಾಲು' : 'ಮುಕ್ಕಾಲು';
  return quarters === 2 ? `${cardinal(whole).replace(/ು$/u, 'ೂ')}ವರೆ` : undefined;
}

export const kannada: LanguagePack = {
  code: 'kn-IN',
  digitNames: BELOW_20.slice(0, 10),
  cardinal,
  attributive: cardinal,
  ordinal,
  ordinalSuffixes: ['ನೇ', '-ನೇ', 'ನೆಯ'],
  spacedOrdinalSuffixes: ['ನೇ', 'ನೆಯ'],
  caseSuffixes: ['ರಲ್ಲಿ', 'ರಂದು', 'ರಿಂದ', 'ರವರೆಗೆ', 'ರ', 'ಕ್ಕೆ'],
  withCaseSuffix,
  year: cardinal,
  pointWord: 'ದಶಮಾಂಶ',
  minusWord: 'ಋಣ',
  plusWord: 'ಪ್ಲಸ್',
  // Kannada puts ಶೇಕಡಾ ("per hundred") before the number.
  percent: (amount) => `ಶೇಕಡಾ ${amount}`,
  range: (from, to) => `${ablative(from)} ${to}`,
  money: (rupees, paise) => words((rupees > 0 || paise === 0) && `${cardinal(rupees)} ರೂಪಾಯಿ`, paise > 0 && `${cardinal(paise)} ಪೈಸೆ`),
  time,
  months: MONTHS,
  date: (day, month, y) => words(cardinal(day), MONTHS[month - 1], y !== undefined && cardinal(y)),
  titles: { dr: 'ಡಾಕ್ಟರ್', mr: 'ಮಿಸ್ಟರ್', mrs: 'ಮಿಸೆಸ್', ms: 'ಮಿಸ್', prof: 'ಪ್ರೊಫೆಸರ್', no: 'ಸಂಖ್ಯೆ' },
  nativeAbbreviations: { 'ಡಾ.': 'ಡಾಕ್ಟರ್', 'ರೂ.': 'ರೂಪಾಯಿ' },
  unit: (key) => UNITS[key],
  symbols: { and: 'ಮತ್ತು', at: 'ಅಟ್', dot: 'ಡಾಟ್', slash: 'ಸ್ಲ್ಯಾಶ್', dash: 'ಡ್ಯಾಶ್', underscore: 'ಅಂಡರ್‌ಸ್ಕೋರ್', percent: 'ಶೇಕಡಾ' },
  codeKeywords: [...LATIN_CODE_KEYWORDS, 'ಒಟಿಪಿ', 'ಓಟಿಪಿ', 'ಪಿನ್', 'ಕೋಡ್', 'ಪಾಸ್‌ವರ್ಡ್'],
  idKeywords: [...LATIN_ID_KEYWORDS, 'ಖಾತೆ', 'ಆರ್ಡರ್', 'ಸಂಖ್ಯೆ', 'ನಂಬರ್', 'ಮೊಬೈಲ್', 'ಫೋನ್', 'ಟಿಕೆಟ್'],
  currencyWords: ['ರೂಪಾಯಿ', 'ರೂಪಾಯಿಗಳು', 'ಪೈಸೆ', 'rupees', 'rupee'],
  yearKeywords: ['ಇಸವಿ', 'ವರ್ಷ', 'ವರ್ಷದಲ್ಲಿ'],
  magnitudeWords: { thousand: ['ಸಾವಿರ'], lakh: ['ಲಕ್ಷ'], crore: ['ಕೋಟಿ'] },
  attributiveBeforeWords: false,
  addressWords: ['ವಿಳಾಸ', 'ರಸ್ತೆ', 'ಬೀದಿ', 'ನಗರ', 'ಬಡಾವಣೆ', 'ಗ್ರಾಮ', 'ಜಿಲ್ಲೆ', 'ಪೂರ್ವ', 'ಪಶ್ಚಿಮ'],
  fraction,
  // The signs' English names, as this pack's plusWord reads `+`; Kannada's school words (ಸಂಕಲನ, ವ್ಯವಕಲನ) name operations.
  arithmetic: { plus: 'ಪ್ಲಸ್', minus: 'ಮೈನಸ್', times: 'ಇಂಟು', dividedBy: 'ಡಿವೈಡೆಡ್ ಬೈ', equals: 'ಈಕ್ವಲ್ಸ್' },
  score: (runs, wickets) => `${cardinal(wickets)} ವಿಕೆಟ್ ನಷ್ಟಕ್ಕೆ ${cardinal(runs)} ರನ್`,
  cricketWords: [...LATIN_CRICKET_WORDS, 'ಓವರ್', 'ಓವರ್‌ಗಳಲ್ಲಿ', 'ರನ್', 'ವಿಕೆಟ್', 'ಸ್ಕೋರ್'],
  idCues: ['ರೈಲು ಸಂಖ್ಯೆ', 'ರೈಲು', 'ಫ್ಲೈಟ್', 'ಪಿಎನ್ಆರ್'],
  cricketTeams: ['ಭಾರತ', 'ಇಂಡಿಯಾ', 'ಆಸ್ಟ್ರೇಲಿಯಾ', 'ಇಂಗ್ಲೆಂಡ್', 'ಪಾಕಿಸ್ತಾನ'],
  ratioWords: ['ಅನುಪಾತ', 'ಅನುಪಾತದಲ್ಲಿ'],
};
