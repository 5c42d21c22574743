// Finds a lexicon's words and phrases in a text: whole words in every script, Latin case-insensitive, the longest entry
// at the leftmost place, never overlapping. A trie is built once per lexicon version (no regular expression is ever
// made from tenant entries); matching walks it from each word start at most as deep as the longest grapheme, so the
// cost is linear in the text whatever the entries and the input (fuzzed in front-end-worst-case.test.ts).
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

/** Classes of non-ASCII characters seen so far (INHERITED for a mark that takes its base's), bounded. */
const INHERITED = -1;
const classCache = new Map<string, number>();
const foldCache = new Map<string, readonly number[]>();
const CACHE_LIMIT = 8192;

function ownClass(char: string): number {
  const code = char.codePointAt(0) as number;
  if (code < 0x80) {
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return LATIN;
    return code >= 0x30 && code <= 0x39 ? JOINER : NON_WORD;
  }
  const cached = classCache.get(char);
  if (cached !== undefined) return cached;
  let kind: number;
  if (code === ZWJ || code === ZWNJ || DIGIT.test(char)) kind = JOINER;
  else if (MARK.test(char)) kind = INHERITED_SCRIPT.test(char) ? INHERITED : LATIN_SCRIPT.test(char) ? LATIN : OTHER_SCRIPT;
  else if (LETTER.test(char)) kind = LATIN_SCRIPT.test(char) ? LATIN : OTHER_SCRIPT;
  else kind = NON_WORD;
  if (classCache.size < CACHE_LIMIT) classCache.set(char, kind);
  return kind;
}

/** The word class of each character (a combining mark of no script of its own takes its base's). */
export function wordClasses(chars: readonly string[]): Uint8Array {
  const classes = new Uint8Array(chars.length);
  let previous = NON_WORD;
  for (let i = 0; i < chars.length; i++) {
    const own = ownClass(chars[i] as string);
    const kind = own === INHERITED ? (previous === NON_WORD ? JOINER : previous) : own;
    classes[i] = kind;
    previous = kind;
  }
  return classes;
}

/** True when a word may start or end between characters i-1 and i. */
function isBoundary(classes: Uint8Array, i: number): boolean {
  if (i === 0 || i === classes.length) return true;
  const before = classes[i - 1] as number;
  const after = classes[i] as number;
  if (before === NON_WORD || after === NON_WORD) return true;
  return before !== JOINER && after !== JOINER && before !== after;
}

const ASCII_FOLDS: readonly (readonly number[])[] = Array.from({ length: 0x80 }, (_, code) => [code >= 0x41 && code <= 0x5a ? code + 0x20 : code]);
const NOTHING: readonly number[] = [];

/** The code points a character compares as (none for ZWJ and ZWNJ); whitespace is handled by the caller. */
function fold(char: string): readonly number[] {
  const code = char.codePointAt(0) as number;
  if (code < 0x80) return ASCII_FOLDS[code] as readonly number[];
  if (code === ZWJ || code === ZWNJ) return NOTHING;
  const cached = foldCache.get(char);
  if (cached) return cached;
  const folded = [...char.normalize('NFD').toLowerCase()].map((c) => c.codePointAt(0) as number);
  if (foldCache.size < CACHE_LIMIT) foldCache.set(char, folded);
  return folded;
}

/** A text as the matcher compares it: its folded code points, and the character each came from. */
interface FoldedText {
  readonly units: Int32Array;
  readonly unitChar: Int32Array;
  /** Index of each character's first unit (a character may have none: whitespace after whitespace, ZWJ). */
  readonly firstUnit: Int32Array;
}

function foldText(chars: readonly string[]): FoldedText {
  const units: number[] = [];
  const unitChar: number[] = [];
  const firstUnit = new Int32Array(chars.length + 1);
  for (let i = 0; i < chars.length; i++) {
    firstUnit[i] = units.length;
    const char = chars[i] as string;
    if (char.length === 1 && char.charCodeAt(0) < 0x80 ? char === ' ' || (char >= '\t' && char <= '\r') : WHITESPACE.test(char)) {
      if (units.length > 0 && units[units.length - 1] !== SPACE) {
        units.push(SPACE);
        unitChar.push(i);
      }
      continue;
    }
    for (const unit of fold(char)) {
      units.push(unit);
      unitChar.push(i);
    }
  }
  firstUnit[chars.length] = units.length;
  return { units: Int32Array.from(units), unitChar: Int32Array.from(unitChar), firstUnit };
}

/** A grapheme as the trie keys it: folded, trimmed, whitespace runs as one space. */
export function matchKey(grapheme: string): readonly number[] {
  const { units } = foldText([...grapheme.trim()]);
  return [...units];
}

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
    const classes = wordClasses(chars);
    const { units, unitChar, firstUnit } = foldText(chars);
    const trie = this.#trie;
    const values = this.#values;
    let i = 0;
    while (i < chars.length) {
      const from = firstUnit[i] as number;
      if (from === firstUnit[i + 1] || blocked?.[i] === 1 || !isBoundary(classes, i) || child(trie, 0, units[from] as number) === NO_CHILD) {
        i++;
        continue;
      }
      let node = 0;
      let bestNode = -1;
      let bestEnd = -1;
      for (let u = from; u < units.length; u++) {
        const char = unitChar[u] as number;
        if (blocked?.[char] === 1) break;
        node = child(trie, node, units[u] as number);
        if (node === NO_CHILD) break;
        const lastOfChar = u + 1 === units.length || unitChar[u + 1] !== char;
        if (lastOfChar && values[node] !== undefined && isBoundary(classes, char + 1)) {
          bestNode = node;
          bestEnd = char + 1;
        }
      }
      if (bestNode >= 0 && !coversBlocked(blocked, i, bestEnd)) {
        found.push({ start: i, end: bestEnd, value: values[bestNode] as T });
        i = bestEnd;
      } else i++;
    }
    return found;
  }
}

function coversBlocked(blocked: Uint8Array | undefined, start: number, end: number): boolean {
  if (!blocked) return false;
  for (let i = start; i < end; i++) if (blocked[i] === 1) return true;
  return false;
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
