// Linear-time matchers for the written forms whose regexes rescan a whole chain at every token start: hyphenated
// digit codes, arithmetic, bare domains and masked card numbers. Tried at each of the 1500 starts of `1-1-1-…` or
// `a.a.a.…`, each regex read to the end of the chain before failing, so one 3000-character request cost tens of
// milliseconds of main-thread time (security review M1). Each matcher here gives exactly the match of the regex
// quoted above it, but remembers the chain it scanned: a later start inside the same chain is answered from what
// was learnt there, so the whole scan of a text stays linear. The answers do not depend on the order of the calls.
// chain-matchers.test.ts checks each against its regex on generated texts.

/** `\d` (ASCII digits, as in a `u` regex). */
const isDigit = (s: string, k: number): boolean => {
  const code = s.charCodeAt(k);
  return code >= 48 && code <= 57;
};
const SPACE = /\s/u;
const isSpace = (s: string, k: number): boolean => k < s.length && SPACE.test(s[k] as string);
/** `[A-Za-z0-9-]` with the `iu` flags (which also match ſ U+017F and the Kelvin sign U+212A). */
const DOMAIN_CHAR = /[A-Za-z0-9-]/iu;
const isDomainChar = (s: string, k: number): boolean => k < s.length && DOMAIN_CHAR.test(s[k] as string);
const TOP_LEVEL_DOMAINS = new Set(['com', 'in', 'org', 'net', 'io', 'co', 'gov', 'edu', 'info', 'app', 'ai']);
const PATH_STOP = /[\s<>"'\uFFFC]/u;
const MASK_CHARS = new Set(['X', 'x', '*', '•']);
const MASKED_TAIL = /[\s-]?(\d{3,4})(?!\d)/uy;
const NUM = String.raw`(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?`;
const WHOLE_NUM = new RegExp(`^${NUM}$`, 'u');
const WHOLE_OPERATOR = /^\s?(?:[+×*÷−-]|x(?=\s))\s?$/u;
const EQUALS_RESULT = new RegExp(String.raw`=\s?${NUM}(?![\d.])`, 'uy');
/** What an arithmetic expression may hold before its `=`: operands, operators and spaces. */
const ARITHMETIC_CHAR = /[\d,.\s+×*÷−x-]/u;
const NUMERIC_CHAR = /[\d,.]/u;

export interface MaskedDigits {
  readonly end: number;
  readonly digits: string;
}

interface DigitChain {
  readonly start: number;
  readonly end: number;
  /** Position of the chain's last hyphen, -1 when it has none. */
  readonly lastHyphen: number;
}

interface DomainChain {
  readonly start: number;
  readonly end: number;
  /** Position of the dot before the last label that is a top-level domain, -1 when none is. */
  readonly tldDot: number;
  readonly tldEnd: number;
}

interface ArithmeticChain {
  readonly start: number;
  /** Where the operands, operators and spaces stop (an `=` there, or no expression ends in this chain). */
  readonly end: number;
  /** End of `= result` after `end`; -1 when there is none, or when no operand of the chain can reach it. */
  readonly resultEnd: number;
  /** For each operand that starts in the chain: whether an expression running to `end` starts there. */
  readonly operandStarts: ReadonlyMap<number, boolean>;
}

const NO_CHAIN = { start: -1, end: -1 };

export class ChainMatchers {
  #digits: DigitChain = { ...NO_CHAIN, lastHyphen: -1 };
  #domain: DomainChain = { ...NO_CHAIN, tldDot: -1, tldEnd: -1 };
  #mask = { ...NO_CHAIN };
  #arithmetic: ArithmeticChain = { ...NO_CHAIN, resultEnd: -1, operandStarts: new Map() };

  constructor(readonly s: string) {}

  /**
   * `\d+(?:-\d+)+(?![\d-])` at `i`: the end of the match, or -1. The greedy digits leave only one candidate, the
   * whole hyphen-joined chain, which matches when it has a hyphen and no hyphen follows it.
   */
  digitGroupsEnd(i: number): number {
    const { s } = this;
    if (!isDigit(s, i)) return -1;
    if (i < this.#digits.start || i >= this.#digits.end) {
      let k = i;
      let lastHyphen = -1;
      for (;;) {
        while (isDigit(s, k)) k++;
        if (s[k] !== '-' || !isDigit(s, k + 1)) break;
        lastHyphen = k;
        k++;
      }
      this.#digits = { start: i, end: k, lastHyphen };
    }
    const chain = this.#digits;
    return chain.lastHyphen > i && s[chain.end] !== '-' ? chain.end : -1;
  }

  /**
   * `[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:com|in|org|net|io|co|gov|edu|info|app|ai)(?![A-Za-z0-9-])(?:\/[^\s<>"'\uFFFC]*)?`
   * (flags `iu`) at `i`: the end of the match, or -1. The regex backs off from the end of the dotted chain to the
   * last dot whose label is a top-level domain, then takes a path after a `/`.
   */
  domainEnd(i: number): number {
    const { s } = this;
    if (!isDomainChar(s, i)) return -1;
    if (i < this.#domain.start || i >= this.#domain.end) {
      let k = i;
      let tldDot = -1;
      let tldEnd = -1;
      while (isDomainChar(s, k)) k++;
      while (s[k] === '.' && isDomainChar(s, k + 1)) {
        const dot = k;
        k++;
        while (isDomainChar(s, k)) k++;
        if (TOP_LEVEL_DOMAINS.has(s.slice(dot + 1, k).toLowerCase())) {
          tldDot = dot;
          tldEnd = k;
        }
      }
      this.#domain = { start: i, end: k, tldDot, tldEnd };
    }
    const chain = this.#domain;
    if (chain.tldDot <= i) return -1;
    let end = chain.tldEnd;
    if (s[end] === '/') {
      end++;
      while (end < s.length && !PATH_STOP.test(s[end] as string)) end++;
    }
    return end;
  }

  /**
   * `[Xx*•]{2,}[\s-]?(\d{3,4})(?!\d)` at `i`: the masked digits, or null. Only the whole run of mask characters
   * can be followed by a digit, so the tail is tried once, where the run ends.
   */
  maskedDigits(i: number): MaskedDigits | null {
    const { s } = this;
    if (!MASK_CHARS.has(s[i] as string)) return null;
    if (i < this.#mask.start || i >= this.#mask.end) {
      let k = i;
      while (k < s.length && MASK_CHARS.has(s[k] as string)) k++;
      this.#mask = { start: i, end: k };
    }
    const { end } = this.#mask;
    if (end - i < 2) return null;
    MASKED_TAIL.lastIndex = end;
    const tail = MASKED_TAIL.exec(s);
    return tail ? { end: MASKED_TAIL.lastIndex, digits: tail[1] as string } : null;
  }

  /**
   * `NUM(?:OP NUM)+\s?=\s?NUM(?![\d.])` at `i`, where NUM is `(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?` and OP
   * `\s?([+×*÷−-]|x(?=\s))\s?`: the end of the match, or -1. Everything before the `=` is operands, operators and
   * spaces, so the `=` is the first other character; where the match ends depends on that `=` alone, and whether
   * it starts at an operand on the operands and operators from there to the `=`, checked for the whole chain at once.
   */
  arithmeticEnd(i: number): number {
    const { s } = this;
    if (!isDigit(s, i)) return -1;
    const known = i >= this.#arithmetic.start && i < this.#arithmetic.end;
    if (!known || (this.#arithmetic.resultEnd >= 0 && !this.#arithmetic.operandStarts.has(i))) this.#arithmetic = arithmeticChain(s, i);
    const chain = this.#arithmetic;
    return chain.resultEnd >= 0 && chain.operandStarts.get(i) === true ? chain.resultEnd : -1;
  }
}

function arithmeticChain(s: string, start: number): ArithmeticChain {
  let end = start;
  while (end < s.length && ARITHMETIC_CHAR.test(s[end] as string)) end++;
  let resultEnd = -1;
  if (s[end] === '=') {
    EQUALS_RESULT.lastIndex = end;
    if (EQUALS_RESULT.test(s)) resultEnd = EQUALS_RESULT.lastIndex;
  }
  const operandStarts = new Map<number, boolean>();
  if (resultEnd < 0) return { start, end, resultEnd, operandStarts };
  // Operands are the runs of digits, commas and points; operators the runs between them (neither holds the other's characters).
  const runs: Array<{ readonly from: number; readonly to: number }> = [];
  for (let k = start; k < end; ) {
    const numeric = NUMERIC_CHAR.test(s[k] as string);
    let to = k + 1;
    while (to < end && NUMERIC_CHAR.test(s[to] as string) === numeric) to++;
    runs.push({ from: k, to });
    k = to;
  }
  // Runs alternate, operands at even indices (the chain starts with a digit). The last operand is followed by
  // nothing or by the one space `\s?=` allows.
  const lastRun = runs[runs.length - 1] as { from: number; to: number };
  const trailing = runs.length % 2 === 0;
  if (trailing && !(lastRun.to - lastRun.from === 1 && isSpace(s, lastRun.from))) return { start, end, resultEnd: -1, operandStarts };
  const lastOperand = trailing ? runs.length - 2 : runs.length - 1;
  const text = (index: number): string => {
    const run = runs[index] as { from: number; to: number };
    return s.slice(run.from, run.to);
  };
  // toEnd: a well-formed run of operands and operators from this operand to the `=`.
  let toEnd = false;
  for (let index = lastOperand; index >= 0; index -= 2) {
    const operand = WHOLE_NUM.test(text(index));
    const expression: boolean = operand && index < lastOperand && WHOLE_OPERATOR.test(text(index + 1)) && toEnd;
    operandStarts.set((runs[index] as { from: number }).from, expression);
    toEnd = operand && (index === lastOperand || expression);
  }
  return { start, end, resultEnd, operandStarts };
}
