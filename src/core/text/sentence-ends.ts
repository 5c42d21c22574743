// Where sentences end: the one rule the chunker (split-utterance.ts) and the Hinglish detection
// (hinglish-context.ts) both follow. A period after a decimal digit, inside a word (example.com, a.m.), after an
// abbreviation (Dr., Rs., डॉ.) or an initial does not end a sentence.

const SENTENCE_END = new Set(['.', '?', '!', '।', '॥', '\n']);

// Period after these does not end a sentence (compared case-insensitively, without the period).
const ABBREVIATIONS = new Set([
  'dr', 'mr', 'mrs', 'ms', 'rs', 'no', 'st', 'sr', 'jr', 'prof', 'vs', 'etc', 'eg', 'ie', 'mt', 'smt', 'shri', 'govt', 'approx', 'inc', 'ltd', 'co',
  // Doctor and rupee in the Indian scripts (डॉ. शर्मा, रु. 500), whatever the request's language.
  'डॉ', 'रु', 'रू', 'ડૉ', 'રૂ', 'ಡಾ', 'ರೂ', 'డా', 'రూ', 'ரூ',
]);

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && /\p{Nd}/u.test(ch);
}

/** True when the period at `index` ends a sentence rather than a decimal, time or abbreviation. */
function periodEndsSentence(chars: readonly string[], index: number): boolean {
  const prev = chars[index - 1];
  const next = chars[index + 1];
  if (isDigit(prev) && isDigit(next)) return false; // 3.14, 10.30
  if (next !== undefined && !/\s/u.test(next) && !/["')\]]/u.test(next)) return false; // example.com, a.m.
  let start = index;
  while (start > 0 && /[\p{L}\p{M}]/u.test(chars[start - 1] ?? '')) start--;
  const word = chars.slice(start, index).join('').toLowerCase();
  if (ABBREVIATIONS.has(word)) return false;
  if (word.length === 1 && /[a-z]/.test(word)) return false; // initials: A. P. J.
  return true;
}


/** A sentence: source characters [start, end), its closing marks and spaces included; `breakMs` from SSML breaks. */
export interface SentenceSpan {
  readonly start: number;
  readonly end: number;
  readonly breakMs?: number;
}

/**
 * Sentence spans partitioning `chars`; each keeps its trailing marks, quotes, whitespace and any SSML breaks there.
 * `covered[i]` set: character i belongs to a replacement (1,25,000.50, an e-mail address) and cannot end a sentence.
 */
export function sentenceSpans(chars: readonly string[], breaksMs: ReadonlyMap<number, number> = new Map(), covered?: Uint8Array): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  let start = 0;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const isBreak = breaksMs.has(i);
    const isEnd = isBreak || (SENTENCE_END.has(ch) && !covered?.[i] && (ch !== '.' || periodEndsSentence(chars, i)));
    if (!isEnd) continue;
    let breakMs = isBreak ? (breaksMs.get(i) as number) : undefined;
    // Keep runs like "?!" or "।।", closing quotes, spaces and following breaks with this sentence.
    while (i + 1 < chars.length && (SENTENCE_END.has(chars[i + 1] as string) || /[\s"')\]]/u.test(chars[i + 1] as string))) {
      i++;
      const more = breaksMs.get(i);
      if (more !== undefined) breakMs = (breakMs ?? 0) + more;
    }
    spans.push({ start, end: i + 1, ...(breakMs !== undefined ? { breakMs } : {}) });
    start = i + 1;
  }
  if (start < chars.length) spans.push({ start, end: chars.length });
  return spans;
}
