// Finds a lexicon's words and phrases in a text: whole words in every script, Latin case-insensitive, the longest entry
// at the leftmost place, never overlapping. A trie is built once per lexicon version (no regular expression is ever
// made from tenant entries); matching walks it from each word start at most as deep as the longest grapheme, so the
// cost is linear in the text whatever the entries and the input (fuzzed in lexicon-worst-case.test.ts).
//
// What "the same word" means: each character is compared canonically decomposed (NFD) and lower-cased, so `HDFC`,
// `hdfc` and `Hdfc` are one, and `क़` (U+0958) is `क` + nukta; a run of whitespace is one space, so phrases match
// across line breaks; ZWJ and ZWNJ are ignored. A word character is a letter, a mark or a digit (not `\b`, which
// knows only ASCII): a match may not start or end inside a run of them, except where the run changes between Latin and
// another script, since Hinglish attaches postpositions to brand names (`HDFCका`) and the two words still read apart.

/** Each code point of a folded text; whitespace is one space. */
const SPACE = 0x20;
/** A trie node's `onlyUnit` when it has no child, and when it has several (they are in its `children` map). */
const NO_CHILD = -1;
const MANY_CHILDREN = -2;
const ZWNJ = 0x200c;
const ZWJ = 0x200d;

/** Word classes: not a word character; one that joins any word (digits, ZWJ); a Latin letter; another script's. */
const NON_WORD = 0;
const JOINER = 1;
const LATIN = 2;
const OTHER_SCRIPT = 3;

const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;
const DIGIT = /\p{N}/u;
const LATIN_SCRIPT = /\p{Script=Latin}/u;
const INHERITED_SCRIPT = /\p{Script=Inherited}/u;
const WHITESPACE = /\s/u;

/** A combining mark of no script of its own: it takes its base's class. */
const INHERITED = -1;
/**
 * What each character below U+1000 (Latin, and every Indic block Raaga speaks) compares as and is, filled on first
 * sight: an array read, where a Map would hash. Others are cached in Maps, bounded.
 */
const DENSE_LIMIT = 0x1000;
const denseFolds: (readonly number[] | undefined)[] = new Array(DENSE_LIMIT);
const denseClasses = new Int8Array(DENSE_LIMIT).fill(-2);
const classCache = new Map<number, number>();
const foldCache = new Map<number, readonly number[]>();
const CACHE_LIMIT = 8192;

function classify(char: string, code: number): number {
  if (code < 0x80) {
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return LATIN;
    return code >= 0x30 && code <= 0x39 ? JOINER : NON_WORD;
  }
  if (code === ZWJ || code === ZWNJ || DIGIT.test(char)) return JOINER;
  if (MARK.test(char)) return INHERITED_SCRIPT.test(char) ? INHERITED : LATIN_SCRIPT.test(char) ? LATIN : OTHER_SCRIPT;
  if (LETTER.test(char)) return LATIN_SCRIPT.test(char) ? LATIN : OTHER_SCRIPT;
  return NON_WORD;
}

function ownClass(char: string): number {
  const code = char.codePointAt(0) as number;
  if (code < DENSE_LIMIT) {
    const known = denseClasses[code] as number;
    if (known !== -2) return known;
    const kind = classify(char, code);
    denseClasses[code] = kind;
    return kind;
  }
  const cached = classCache.get(code);
  if (cached !== undefined) return cached;
  const kind = classify(char, code);
  if (classCache.size < CACHE_LIMIT) classCache.set(code, kind);
  return kind;
}

const NOTHING: readonly number[] = [];
const SPACE_UNIT: readonly number[] = [SPACE];

function folded(char: string, code: number): readonly number[] {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x80 && WHITESPACE.test(char))) return SPACE_UNIT;
  if (code === ZWJ || code === ZWNJ) return NOTHING;
  return [...char.normalize('NFD').toLowerCase()].map((c) => c.codePointAt(0) as number);
}

/** The code points a character compares as (none for ZWJ and ZWNJ; one space for any whitespace). */
function fold(char: string): readonly number[] {
  const code = char.codePointAt(0) as number;
  if (code < DENSE_LIMIT) return (denseFolds[code] ??= folded(char, code));
  const cached = foldCache.get(code);
  if (cached) return cached;
  const units = folded(char, code);
  if (foldCache.size < CACHE_LIMIT) foldCache.set(code, units);
  return units;
}

/**
 * A text's word classes, worked out only where a match may start or end (most positions are never asked): `at(i)` is
 * character i's class, a combining mark of no script of its own taking its base's.
 */
class WordClasses {
  /** Class + 1 of each character asked so far (0: not yet). */
  readonly #known: Uint8Array;

  constructor(
    private readonly chars: readonly string[],
    /** Scratch to reuse (matching is synchronous, so one text at a time uses it); a fresh array when absent or short. */
    scratch?: Uint8Array,
  ) {
    this.#known = scratch !== undefined && scratch.length >= chars.length ? scratch.fill(0, 0, chars.length) : new Uint8Array(chars.length);
  }

  at(i: number): number {
    const known = this.#known[i] as number;
    if (known !== 0) return known - 1;
    // A run of inherited marks takes the class of what comes before it: back to where a class is known or not inherited.
    let start = i;
    while (start > 0 && this.#known[start - 1] === 0 && ownClass(this.chars[start] as string) === INHERITED) start--;
    for (let k = start; k <= i; k++) {
      const own = ownClass(this.chars[k] as string);
      const before = k === 0 ? NON_WORD : (this.#known[k - 1] as number) - 1;
      this.#known[k] = (own !== INHERITED ? own : before === NON_WORD ? JOINER : before) + 1;
    }
    return (this.#known[i] as number) - 1;
  }

  /** True when a word may start or end between characters i-1 and i. */
  boundary(i: number): boolean {
    if (i === 0 || i === this.chars.length) return true;
    const before = this.at(i - 1);
    const after = this.at(i);
    if (before === NON_WORD || after === NON_WORD) return true;
    return before !== JOINER && after !== JOINER && before !== after;
  }
}

/** A grapheme as the trie keys it: folded, trimmed, whitespace runs as one space. */
export function matchKey(grapheme: string): readonly number[] {
  const key: number[] = [];
  for (const char of grapheme.trim()) {
    const units = fold(char);
    if (units === SPACE_UNIT && key[key.length - 1] === SPACE) continue;
    for (const unit of units) key.push(unit);
  }
  return key;
}

/** The word classes' scratch, grown to the longest text seen: no allocation per request (the GC's pauses count too). */
let scratch = new Uint8Array(4096);

export interface LexiconMatch<T> {
  /** Character indices of the text, end exclusive. */
  readonly start: number;
  readonly end: number;
  readonly value: T;
}

/**
 * The trie: most nodes of a lexicon's trie have one child, kept in two typed arrays (its unit and the child); a node
 * with several keeps them in a Map of its own. Every key is a small integer, which V8 hashes fastest.
 */
interface Trie {
  readonly onlyUnit: Int32Array;
  readonly onlyChild: Int32Array;
  readonly children: readonly (ReadonlyMap<number, number> | undefined)[];
}

function child(trie: Trie, node: number, unit: number): number {
  const only = trie.onlyUnit[node] as number;
  if (only === unit) return trie.onlyChild[node] as number;
  if (only !== MANY_CHILDREN) return NO_CHILD;
  return trie.children[node]?.get(unit) ?? NO_CHILD;
}

export class LexiconMatcher<T> {
  readonly #trie: Trie;
  readonly #values: readonly (T | undefined)[];
  /** Code points of the longest key: no walk goes deeper. */
  readonly maxDepth: number;
  readonly size: number;

  private constructor(trie: Trie, values: (T | undefined)[], maxDepth: number, size: number) {
    this.#trie = trie;
    this.#values = values;
    this.maxDepth = maxDepth;
    this.size = size;
  }

  static builder<T>(): LexiconMatcherBuilder<T> {
    return new LexiconMatcherBuilder<T>((trie, values, maxDepth, size) => new LexiconMatcher<T>(trie, values, maxDepth, size));
  }

  /**
   * The entries found in `chars`, left to right: at each word start the longest entry that ends at a word end wins,
   * and the scan goes on after it. `blocked[i]`: character i is already taken (an SSML `<sub>` or `<say-as>`), and no
   * match covers it.
   */
  find(chars: readonly string[], blocked?: Uint8Array): LexiconMatch<T>[] {
    const found: LexiconMatch<T>[] = [];
    if (this.size === 0 || chars.length === 0) return found;
    if (scratch.length < chars.length) scratch = new Uint8Array(Math.max(chars.length, scratch.length * 2));
    const classes = new WordClasses(chars, scratch);
    const trie = this.#trie;
    const values = this.#values;
    let i = 0;
    while (i < chars.length) {
      const first = fold(chars[i] as string);
      // Most characters start no entry: one trie lookup, before any word boundary is worked out.
      if (first.length === 0 || child(trie, 0, first[0] as number) === NO_CHILD || blocked?.[i] === 1 || !classes.boundary(i)) {
        i++;
        continue;
      }
      let node = 0;
      let bestNode = -1;
      let bestEnd = -1;
      let afterSpace = false;
      // At most maxDepth units deep (the trie ends there); a whitespace run after the first space costs no step.
      walk: for (let j = i; j < chars.length; j++) {
        if (blocked?.[j] === 1) break;
        const units = fold(chars[j] as string);
        if (units === SPACE_UNIT) {
          // A run of whitespace is one space.
          if (afterSpace) continue;
          afterSpace = true;
        } else if (units.length > 0) afterSpace = false;
        for (const unit of units) {
          node = child(trie, node, unit);
          if (node === NO_CHILD) break walk;
        }
        if (units.length > 0 && values[node] !== undefined && classes.boundary(j + 1)) {
          bestNode = node;
          bestEnd = j + 1;
        }
      }
      if (bestNode >= 0) {
        found.push({ start: i, end: bestEnd, value: values[bestNode] as T });
        i = bestEnd;
      } else i++;
    }
    return found;
  }
}

export class LexiconMatcherBuilder<T> {
  readonly #onlyUnit: number[] = [NO_CHILD];
  readonly #onlyChild: number[] = [NO_CHILD];
  readonly #children: (Map<number, number> | undefined)[] = [undefined];
  readonly #values: (T | undefined)[] = [undefined];
  #maxDepth = 0;
  #size = 0;

  constructor(private readonly make: (trie: Trie, values: (T | undefined)[], maxDepth: number, size: number) => LexiconMatcher<T>) {}

  /** Adds a grapheme; false (and nothing changes) when an equal one is there already: the first added wins. */
  add(grapheme: string, value: T): boolean {
    const key = matchKey(grapheme);
    if (key.length === 0) return false;
    let node = 0;
    for (const unit of key) node = this.#childOrNew(node, unit);
    if (this.#values[node] !== undefined) return false;
    this.#values[node] = value;
    this.#maxDepth = Math.max(this.#maxDepth, key.length);
    this.#size++;
    return true;
  }

  build(): LexiconMatcher<T> {
    const trie: Trie = { onlyUnit: Int32Array.from(this.#onlyUnit), onlyChild: Int32Array.from(this.#onlyChild), children: this.#children };
    return this.make(trie, this.#values, this.#maxDepth, this.#size);
  }

  #childOrNew(node: number, unit: number): number {
    const only = this.#onlyUnit[node] as number;
    if (only === unit) return this.#onlyChild[node] as number;
    const known = this.#children[node]?.get(unit);
    if (known !== undefined) return known;
    const created = this.#values.length;
    this.#onlyUnit.push(NO_CHILD);
    this.#onlyChild.push(NO_CHILD);
    this.#children.push(undefined);
    this.#values.push(undefined);
    if (only === NO_CHILD) {
      this.#onlyUnit[node] = unit;
      this.#onlyChild[node] = created;
    } else {
      let children = this.#children[node];
      if (!children) {
        children = new Map([[only, this.#onlyChild[node] as number]]);
        this.#children[node] = children;
        this.#onlyUnit[node] = MANY_CHILDREN;
      }
      children.set(unit, created);
    }
    return created;
  }
}
