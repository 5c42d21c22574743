// Tamil (ta-IN): our own number grammar, because CLDR's ta rules read compounds word by word (இருபது மூன்று
// for 23) and misspell 400/800. Within a group below 1000 combining forms fuse by sandhi (இருபத்தொன்று,
// நூற்றிருபது); magnitude groups stay separate words (ஆயிரத்து இருநூற்று முப்பத்து நான்கு).

import { clockHour, dayPeriod, indianGroups, LATIN_CODE_KEYWORDS, LATIN_CRICKET_WORDS, LATIN_ID_KEYWORDS, words, type LanguagePack, type UnitKey } from './language-pack.js';

// 0-19 as in CLDR ta (and the Tamil Nadu school textbooks).
const BELOW_20 = [
  'பூஜ்யம்', 'ஒன்று', 'இரண்டு', 'மூன்று', 'நான்கு', 'ஐந்து', 'ஆறு', 'ஏழு', 'எட்டு', 'ஒன்பது',
  'பத்து', 'பதினொன்று', 'பன்னிரண்டு', 'பதின்மூன்று', 'பதினான்கு', 'பதினைந்து', 'பதினாறு', 'பதினேழு', 'பதினெட்டு', 'பத்தொன்பது',
] as const;
const TENS = ['', '', 'இருபது', 'முப்பது', 'நாற்பது', 'ஐம்பது', 'அறுபது', 'எழுபது', 'எண்பது', 'தொண்ணூறு'] as const;
const TENS_COMBINING = ['', '', 'இருபத்து', 'முப்பத்து', 'நாற்பத்து', 'ஐம்பத்து', 'அறுபத்து', 'எழுபத்து', 'எண்பத்து', 'தொண்ணூற்று'] as const;
const HUNDREDS = ['', 'நூறு', 'இருநூறு', 'முந்நூறு', 'நானூறு', 'ஐநூறு', 'அறுநூறு', 'எழுநூறு', 'எண்ணூறு', 'தொள்ளாயிரம்'] as const;
const HUNDREDS_COMBINING = ['', 'நூற்று', 'இருநூற்று', 'முந்நூற்று', 'நானூற்று', 'ஐநூற்று', 'அறுநூற்று', 'எழுநூற்று', 'எண்ணூற்று', 'தொள்ளாயிரத்து'] as const;

const VOWEL_SIGNS: Readonly<Record<string, string>> = {
  'அ': '', 'ஆ': 'ா', 'இ': 'ி', 'ஈ': 'ீ', 'உ': 'ு', 'ஊ': 'ூ', 'எ': 'ெ', 'ஏ': 'ே', 'ஐ': 'ை', 'ஒ': 'ொ', 'ஓ': 'ோ', 'ஔ': 'ௌ',
};
const U_SIGN = 'ு';
const VIRAMA = '்';

/**
 * Sandhi of two number words. A word ending in the short u (இருபத்து) or a bare consonant (ஆயிரம்) fuses with a
 * following vowel: the u drops and the vowel becomes a sign on the consonant (Nannūl 164, உயிர்வரின் உக்குறள்
 * மெய்விட்டோடும்). After i/e/ai a ய glide comes in (கோடி + ஆவது → கோடியாவது). Consonant-initial words stay apart.
 */
function joinTamil(left: string, right: string): string {
  const sign = VOWEL_SIGNS[right[0] ?? ''];
  if (sign === undefined) return `${left} ${right}`;
  const rest = right.slice(1);
  if (left.endsWith(U_SIGN) || left.endsWith(VIRAMA)) return `${left.slice(0, -1)}${sign}${rest}`;
  if (/[ிீெேை]$/u.test(left)) return `${left}ய${sign}${rest}`;
  return `${left} ${right}`;
}

function below100(n: number): string {
  if (n < 20) return BELOW_20[n] as string;
  const tens = Math.floor(n / 10);
  const unit = n % 10;
  return unit === 0 ? (TENS[tens] as string) : joinTamil(TENS_COMBINING[tens] as string, BELOW_20[unit] as string);
}

function below1000(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return below100(rest);
  return rest === 0 ? (HUNDREDS[hundreds] as string) : joinTamil(HUNDREDS_COMBINING[hundreds] as string, below100(rest));
}

/** The adjectival one before a noun: ஒன்று → ஒரு (ஒரு லட்சம், இருபத்தொரு ரூபாய்). */
function attributiveOne(text: string): string {
  return text.replace(/ஒன்று$/u, 'ஒரு').replace(/ொன்று$/u, 'ொரு');
}

/** Before ஆயிரம் a final one becomes ஓர் (இருபத்தோராயிரம்); 1000 itself is just ஆயிரம். */
function thousands(t: number): string {
  if (t === 1) return 'ஆயிரம்';
  const multiplier = t % 10 === 1 && t !== 11 ? below100(t).replace(/ஒன்று$/u, 'ஓர்').replace(/ொன்று$/u, 'ோர்') : below100(t);
  return joinTamil(multiplier, 'ஆயிரம்');
}

/** ஆயிரம் → ஆயிரத்து, லட்சம் → லட்சத்து, கோடி → கோடியே: the forms a magnitude takes when more follows. */
function combining(group: string): string {
  if (group.endsWith('ம்')) return `${group.slice(0, -2)}த்து`;
  if (group.endsWith('கோடி')) return `${group}யே`;
  return group;
}

function cardinal(n: number): string {
  if (n < 1000) return below1000(n);
  const g = indianGroups(n);
  const groups: string[] = [];
  if (g.crore > 0) groups.push(`${g.crore === 1 ? 'ஒரு' : attributiveOne(cardinal(g.crore))} கோடி`);
  if (g.lakh > 0) groups.push(`${g.lakh === 1 ? 'ஒரு' : attributiveOne(below100(g.lakh))} லட்சம்`);
  if (g.thousand > 0) groups.push(thousands(g.thousand));
  const below = g.hundred * 100 + g.rest;
  if (below > 0) groups.push(below1000(below));
  let text = groups[groups.length - 1] as string;
  // Magnitude groups stay separate words (ஒரு லட்சத்து இருபத்தைந்தாயிரம்), as in the Tamil Nadu textbooks.
  for (let i = groups.length - 2; i >= 0; i--) text = `${combining(groups[i] as string)} ${text}`;
  return text;
}

const attributive = (n: number): string => attributiveOne(cardinal(n));

/**
 * CLDR ta %spellout-ordinal: முதலாவது, then the cardinal + ஆவது, or the adjectival ஆம் when that (or its short
 * written form ம்) was written. The ending fuses by joinTamil's sandhi: the final u goes (நாற்பத்தேழாம், நூறாவது),
 * a final ம் takes the vowel (ஆயிரமாவது; NeMo's Tamil ITN table lists the oblique ஆயிரத்தாவது, which Tamil also
 * writes), கோடி takes the glide ய (கோடியாவது). The first of a month is ஒன்றாம் தேதி, not முதலாம்.
 */
function ordinal(n: number, suffix: string, following = ''): string {
  const ending = /^-?(?:ஆம்|ம்)$/u.test(suffix) ? 'ஆம்' : 'ஆவது';
  if (n === 1 && ending === 'ஆம்' && /^\s*தேதி/u.test(following)) return 'ஒன்றாம்';
  if (n === 1) return ending === 'ஆம்' ? 'முதலாம்' : 'முதலாவது';
  return joinTamil(cardinal(n), ending);
}

const FRONT_VOWEL_SIGN = /[ிீெேை]$/u;
const TAMIL_LETTER = /[\u0B80-\u0BFF]$/u;

/**
 * A case ending on the last word of a reading, by the sandhi Tamil writes (Nannūl 164 for the final u; the oblique
 * அத்து of words in ம், as in ஆயிரத்தில்; glides ய after i, e, ai and வ after the long vowels). Written `2024ல்`
 * stands for the locative இல். Vowel endings: the final u drops (நான்கில், பத்தை, ஐந்தால்), ம் becomes த்த
 * (ஆயிரத்தில், சதவீதத்தை), another consonant takes the vowel (ரூபாயில்), i/e/ai add ய (கோடியில்), a long vowel
 * adds வ (கிலோவில்). The dative க்கு: after u and i/e/ai as it is (பத்துக்கு, கோடிக்கு), ம் → த்துக்கு
 * (ஆயிரத்துக்கு), ய் as it is (ரூபாய்க்கு), another consonant → உக்கு (மீட்டருக்கு), a long vowel → வுக்கு.
 */
function withCaseSuffix(spoken: string, written: string): string | undefined {
  const cut = spoken.lastIndexOf(' ') + 1;
  const [head, word] = [spoken.slice(0, cut), spoken.slice(cut)];
  if (!TAMIL_LETTER.test(word)) return undefined;
  const suffix = written === 'ல்' ? 'இல்' : written === 'லிருந்து' ? 'இலிருந்து' : written;
  const sign = VOWEL_SIGNS[suffix[0] ?? ''];
  let fused: string;
  if (sign !== undefined) {
    const rest = suffix.slice(1);
    if (word.endsWith(U_SIGN)) fused = `${word.slice(0, -1)}${sign}${rest}`;
    else if (word.endsWith('ம்')) fused = `${word.slice(0, -2)}த்த${sign}${rest}`;
    else if (word.endsWith(VIRAMA)) fused = `${word.slice(0, -1)}${sign}${rest}`;
    else if (FRONT_VOWEL_SIGN.test(word)) fused = `${word}ய${sign}${rest}`;
    else fused = `${word}வ${sign}${rest}`;
  } else if (word.endsWith(U_SIGN) || FRONT_VOWEL_SIGN.test(word) || word.endsWith('ய்')) fused = `${word}${suffix}`;
  else if (word.endsWith('ம்')) fused = `${word.slice(0, -2)}த்து${suffix}`;
  else if (word.endsWith(VIRAMA)) fused = `${word.slice(0, -1)}${U_SIGN}${suffix}`;
  else fused = `${word}வு${suffix}`;
  return `${head}${fused}`;
}

// CLDR 48 ta dayPeriods (format, wide) with CLDR's dayPeriodRules for ta.
const DAY_PERIODS = [
  [0, 'இரவு'], [3, 'அதிகாலை'], [5, 'காலை'], [12, 'நண்பகல்'], [13, 'மதியம்'], [14, 'பிற்பகல்'], [16, 'மாலை'], [18, 'அந்தி மாலை'], [21, 'இரவு'],
] as const;

function time(hour24: number, minute: number, withPeriod: boolean): string {
  const hour = withPeriod ? clockHour(hour24) : hour24;
  const clock = words(`${attributive(hour)} மணி`, minute > 0 && `${attributive(minute)} நிமிடம்`);
  return words(withPeriod && dayPeriod(DAY_PERIODS, hour24), clock);
}

const MONTHS = ['ஜனவரி', 'பிப்ரவரி', 'மார்ச்', 'ஏப்ரல்', 'மே', 'ஜூன்', 'ஜூலை', 'ஆகஸ்ட்', 'செப்டம்பர்', 'அக்டோபர்', 'நவம்பர்', 'டிசம்பர்'];

const UNITS: Record<UnitKey, string> = {
  km: 'கிலோமீட்டர்', kg: 'கிலோகிராம்', g: 'கிராம்', mg: 'மில்லிகிராம்', m: 'மீட்டர்', cm: 'சென்டிமீட்டர்', mm: 'மில்லிமீட்டர்',
  l: 'லிட்டர்', ml: 'மில்லிலிட்டர்', kmph: 'கிலோமீட்டர் வேகம்', gb: 'ஜிபி', mb: 'எம்பி', mbps: 'எம்பிபிஎஸ்',
};

/** Tamil: அரை, கால், முக்கால்; ஒன்றரை, இரண்டே கால், இரண்டே முக்கால் (the number's final உ joins); others `d-இல் n`. */
function fraction(whole: number, numerator: number, denominator: number): string | undefined {
  const stem = (n: number): string => cardinal(n).replace(/ு$/u, '');
  const quarters = denominator === 4 ? numerator : denominator === 2 ? numerator * 2 : undefined;
  if (quarters !== undefined) {
    const part = quarters === 2 ? 'அரை' : quarters === 1 ? 'கால்' : 'முக்கால்';
    if (whole === 0) return part;
    return quarters === 2 ? `${stem(whole)}ரை` : `${stem(whole)}ே ${part}`;
  }
  return whole === 0 ? `${stem(denominator)}ில் ${cardinal(numerator)}` : undefined;
}

export const tamil: LanguagePack = {
  code: 'ta-IN',
  digitNames: BELOW_20.slice(0, 10),
  cardinal,
  attributive,
  ordinal,
  ordinalSuffixes: ['ஆவது', 'வது', 'ஆம்', 'ம்', '-ஆவது', '-வது', '-ஆம்', '-ம்'],
  // Tamil Wikipedia's style, `1947 ஆம் ஆண்டு`: the ending after a space is still the number's.
  spacedOrdinalSuffixes: ['ஆவது', 'வது', 'ஆம்', 'ம்'],
  caseSuffixes: ['இல்', 'ல்', 'இலிருந்து', 'லிருந்து', 'ஐ', 'ஆல்', 'க்கு', 'உடன்', 'இன்', 'ஆக'],
  spacedCaseSuffixes: ['இல்'],
  withCaseSuffix,
  year: cardinal,
  pointWord: 'புள்ளி',
  minusWord: 'எதிர்ம',
  plusWord: 'பிளஸ்',
  // A range reads X முதல் Y வரை; the percent word goes before வரை (பத்து முதல் பதினைந்து சதவீதம் வரை).
  percent: (amount) => (amount.endsWith(' வரை') ? `${amount.slice(0, -4)} சதவீதம் வரை` : `${amount} சதவீதம்`),
  range: (from, to) => `${from} முதல் ${to} வரை`,
  money: (rupees, paise) =>
    words((rupees > 0 || paise === 0) && `${attributive(rupees)} ரூபாய்`, paise > 0 && `${attributive(paise)} பைசா`),
  time,
  months: MONTHS,
  date: (day, month, y) => words(cardinal(day), MONTHS[month - 1], y !== undefined && cardinal(y)),
  titles: { dr: 'டாக்டர்', mr: 'மிஸ்டர்', mrs: 'மிஸஸ்', ms: 'மிஸ்', prof: 'பேராசிரியர்', no: 'எண்' },
  nativeAbbreviations: { 'ரூ.': 'ரூபாய்' },
  unit: (key) => UNITS[key],
  symbols: { and: 'மற்றும்', at: 'அட்', dot: 'டாட்', slash: 'ஸ்லாஷ்', dash: 'டேஷ்', underscore: 'அண்டர்ஸ்கோர்', percent: 'சதவீதம்' },
  codeKeywords: [...LATIN_CODE_KEYWORDS, 'ஓடிபி', 'பின்', 'குறியீடு', 'கடவுச்சொல்'],
  idKeywords: [...LATIN_ID_KEYWORDS, 'கணக்கு', 'ஆர்டர்', 'எண்', 'மொபைல்', 'தொலைபேசி', 'டிக்கெட்'],
  currencyWords: ['ரூபாய்', 'பைசா', 'rupees', 'rupee'],
  yearKeywords: ['ஆண்டு', 'ஆண்டில்', 'வருடம்'],
  magnitudeWords: { thousand: ['ஆயிரம்'], lakh: ['லட்சம்', 'இலட்சம்'], crore: ['கோடி'] },
  attributiveBeforeWords: true,
  addressWords: ['முகவரி', 'சாலை', 'தெரு', 'நகர்', 'காலனி', 'கிராமம்', 'மாவட்டம்', 'கிழக்கு', 'மேற்கு'],
  fraction,
  score: (runs, wickets) => `${cardinal(wickets)} விக்கெட் இழப்புக்கு ${cardinal(runs)} ரன்கள்`,
  cricketWords: [...LATIN_CRICKET_WORDS, 'ஓவர்', 'ஓவர்களில்', 'ஓவரில்', 'ரன்', 'ரன்கள்', 'விக்கெட்', 'ஸ்கோர்'],
  arithmetic: { plus: 'கூட்டல்', minus: 'கழித்தல்', times: 'பெருக்கல்', dividedBy: 'வகுத்தல்', equals: 'சமம்' },
  idCues: ['ரயில் எண்', 'ரயில்', 'விமானம்', 'பிஎன்ஆர்'],
  cricketTeams: ['இந்தியா', 'ஆஸ்திரேலியா', 'இங்கிலாந்து', 'பாகிஸ்தான்', 'இலங்கை'],
  ratioWords: ['விகிதம்', 'விகிதத்தில்'],
};
