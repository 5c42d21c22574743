// Numbers joined by a slash, read by what they are: a vulgar or written fraction (`½`, `3/4 cup`, `2 1/2`), a day
// and month (`15/08`), the idiom `24/7`, a ratio, a cricket score (`IND 287/4`, `287/4 in 50 overs`), and otherwise
// both numbers with the slash said between them. A slash is never left for the engine to name (or skip). Dates with
// a year (`15/08/2024`) and longer slash runs (`12/4/2020`) are not pairs: the date rule and the plain numbers read them.

import { CRICKET_TEAM_CODES, LATIN_CRICKET_TEAMS, type LanguagePack, type UnitKey } from './languages/language-pack.js';
import { isValidDate } from './parse-forms.js';
import { groupedDigits, integerWords } from './verbalize.js';
import { alternation, keywordPattern } from './word-patterns.js';

/** What the slash readings need of the scan they run in. */
export interface SlashScan {
  readonly s: string;
  readonly pack: LanguagePack;
  /** Text before `i` in the same sentence, after the last digit. */
  before(i: number, length: number): string;
  /** The text around [start, end) within its sentence. */
  clause(start: number, end: number, length: number): string;
  /** A unit symbol at `position`, after at most one space (`kg`, ` km`). */
  unitAt(position: number): { readonly end: number; readonly key: UnitKey } | null;
}

export interface SlashMatch {
  readonly end: number;
  readonly spoken: string;
}

const VULGAR: Readonly<Record<string, readonly [number, number]>> = { '½': [1, 2], '¼': [1, 4], '¾': [3, 4], '⅓': [1, 3], '⅔': [2, 3], '⅛': [1, 8], '⅜': [3, 8], '⅝': [5, 8], '⅞': [7, 8] };
const VULGAR_FRACTION = /(?:(\d{1,3})\s?)?([½¼¾⅓⅔⅛⅜⅝⅞])/uy;
/** `2 1/2`: a whole number, one space, a proper fraction. */
const MIXED_FRACTION = /(\d{1,3})\s(\d{1,2})\/(\d{1,2})(?![\d/])/uy;
/** Two numbers and one slash, not part of a longer slash run (`12/4/2020`) nor of a decimal (`1/2.5`). */
const PAIR = /(\d{1,7})\/(\d{1,7})(?![\d/]|[.,]\d)/uy;
/** `3/4th`, `1/3rd`: the denominator's ordinal ending, written but not said. */
const ORDINAL_DENOMINATOR = /(?:rd|th)s?(?![A-Za-z])/uy;
const GLUED_LETTER = /[\p{L}\p{M}]/u;
/** `H.No. 1/2`, `Plot 3/4`: in an address a slash joins house and plot numbers. */
const HOUSE_NUMBER_BEFORE = /(?:no\.?|#|plot|flat|house|door|block|ward|gali|h\.\s?no\.?)\s*$/iu;
/** Nothing but closing punctuation until the sentence ends: the fraction is said as a number (`one half`). */
const STANDALONE_AFTER = /^\s*(?:[,.;:!?)\]।॥]|$)/u;
const MAX_DENOMINATOR = 16;
const MAX_WICKETS = 10;
/** Words between a team's name and its score (`India were 287/4`). */
const TEAM_VERBS = ['were', 'are', 'was', 'is', 'at', 'on', 'reached', 'made', 'scored', 'posted', 'finished on', 'ended on'];

interface SlashPatterns {
  readonly cricket: RegExp | undefined;
  /** A team's code (`IND`, case as written) or name right before the score, maybe with `:` or a verb between. */
  readonly teamCode: RegExp;
  readonly teamName: RegExp;
  readonly ratio: RegExp | undefined;
  readonly noun: RegExp | undefined;
}

const cache = new WeakMap<LanguagePack, SlashPatterns>();

function patternsFor(pack: LanguagePack): SlashPatterns {
  const cached = cache.get(pack);
  if (cached) return cached;
  const names = [...LATIN_CRICKET_TEAMS, ...(pack.cricketTeams ?? [])];
  const patterns: SlashPatterns = {
    cricket: pack.cricketWords ? keywordPattern(pack.cricketWords) : undefined,
    teamCode: new RegExp(String.raw`(?:^|[^\p{L}\p{M}])(?:${alternation(CRICKET_TEAM_CODES)})\s*:?\s*$`, 'u'),
    teamName: new RegExp(String.raw`(?:^|[^\p{L}\p{M}])(?:${alternation(names)})(?:\s*:|\s+(?:${alternation(TEAM_VERBS)}))?\s*$`, 'iu'),
    ratio: pack.ratioWords ? keywordPattern(pack.ratioWords) : undefined,
    noun: pack.fractionNouns && pack.fractionNouns.length > 0 ? new RegExp(String.raw`\s(${alternation(pack.fractionNouns)})(?![\p{L}\p{M}])`, 'iuy') : undefined,
  };
  cache.set(pack, patterns);
  return patterns;
}

const at = (pattern: RegExp, s: string, i: number): RegExpExecArray | null => {
  pattern.lastIndex = i;
  return pattern.exec(s);
};

/** A number of the pair as written: digit by digit when it has a leading zero (`045`), else as a quantity. */
function numberAsWritten(digits: string, pack: LanguagePack): string {
  return digits.length > 1 && digits.startsWith('0') ? groupedDigits(digits, pack) : integerWords(digits, pack);
}

/**
 * The reading at `i` of a slash form, or null. The caller has checked that `i` starts a word and that no digit,
 * point, comma or slash comes right before it.
 */
export function slashReading(scan: SlashScan, i: number): SlashMatch | null {
  const { s, pack } = scan;
  const vulgar = at(VULGAR_FRACTION, s, i);
  if (vulgar) {
    const [numerator, denominator] = VULGAR[vulgar[2] as string] as readonly [number, number];
    return fractionReading(scan, i + vulgar[0].length, Number(vulgar[1] ?? 0), numerator, denominator);
  }
  const mixed = at(MIXED_FRACTION, s, i);
  if (mixed && isProper(Number(mixed[2]), Number(mixed[3])) && !HOUSE_NUMBER_BEFORE.test(scan.before(i, 16))) {
    const reading = fractionReading(scan, i + mixed[0].length, Number(mixed[1]), Number(mixed[2]), Number(mixed[3]));
    if (reading) return reading;
  }
  const pair = at(PAIR, s, i);
  if (!pair) return null;
  const [left, right] = [pair[1] as string, pair[2] as string];
  const end = i + pair[0].length;
  const [a, b] = [Number(left), Number(right)];
  const patterns = patternsFor(pack);
  const fraction = isProper(a, b) && left.length <= 2 && right.length <= 2;
  const ordinalEnding = fraction ? at(ORDINAL_DENOMINATOR, s, end) : null;
  // `12/4B`, `1/2kg` and the like are codes or glued forms: left as written.
  if (!ordinalEnding && end < s.length && GLUED_LETTER.test(s[end] as string)) return null;
  if (left === '24' && right === '7') return { end, spoken: `${pack.cardinal(24)} ${pack.cardinal(7)}` };
  // `15/08`, `01/12`: a zero-padded field is a day and a month, never a fraction or a score.
  if (left.length === 2 && right.length === 2 && (left.startsWith('0') || right.startsWith('0')) && a > 0 && isValidDate(a, b)) {
    return { end, spoken: pack.date(a, b, undefined) };
  }
  const plain = (): SlashMatch => ({
    end,
    spoken: `${numberAsWritten(left, pack)} ${pack.numberSlash ?? pack.symbols.slash} ${numberAsWritten(right, pack)}`,
  });
  if (patterns.ratio?.test(scan.before(i, 24))) {
    return pack.ratio ? { end, spoken: pack.ratio(numberAsWritten(left, pack), numberAsWritten(right, pack)) } : plain();
  }
  if (pack.score && left.length <= 3 && b <= MAX_WICKETS && isScoreContext(scan, patterns, i, end)) {
    return { end, spoken: pack.score(a, b) };
  }
  if (fraction && !HOUSE_NUMBER_BEFORE.test(scan.before(i, 16))) {
    const reading = fractionReading(scan, ordinalEnding ? end + ordinalEnding[0].length : end, 0, a, b);
    if (reading) return reading;
  }
  return plain();
}

function isProper(numerator: number, denominator: number): boolean {
  return numerator >= 1 && numerator < denominator && denominator <= MAX_DENOMINATOR;
}

/** A cricket word in the clause (`after 50 overs`, `runs`), or a team right before (`IND 287/4`, `India were 287/4`). */
function isScoreContext(scan: SlashScan, patterns: SlashPatterns, start: number, end: number): boolean {
  if (patterns.cricket?.test(scan.clause(start, end, 40))) return true;
  const before = scan.before(start, 30);
  return patterns.teamCode.test(before) || patterns.teamName.test(before);
}

/** The fraction ending at `end`, with the unit or measure noun after it when there is one; null when the language has no reading. */
function fractionReading(scan: SlashScan, end: number, whole: number, numerator: number, denominator: number): SlashMatch | null {
  const { s, pack } = scan;
  if (!pack.fraction) return null;
  const unit = scan.unitAt(end);
  if (unit) {
    const [singular, plural] = [pack.unit(unit.key, 1), pack.unit(unit.key, 2)];
    const phrase = pack.fractionOf?.(whole, numerator, denominator, singular, plural);
    if (phrase !== undefined) return { end: unit.end, spoken: phrase };
    const words = pack.fraction(whole, numerator, denominator);
    return words === undefined ? null : { end: unit.end, spoken: `${words} ${pack.unit(unit.key, whole + numerator / denominator)}` };
  }
  const noun = patternsFor(pack).noun;
  const written = noun ? at(noun, s, end) : null;
  if (written) {
    const phrase = pack.fractionOf?.(whole, numerator, denominator, written[1] as string, written[1] as string);
    if (phrase !== undefined) return { end: end + written[0].length, spoken: phrase };
  }
  const words = pack.fraction(whole, numerator, denominator, STANDALONE_AFTER.test(s.slice(end, end + 8)));
  return words === undefined ? null : { end, spoken: words };
}
