// The lexicons one utterance applies, compiled for its language: one trie over their entries (an entry of a lexicon
// named earlier shadows the same grapheme in a later one), the text front end's view of it (TextLexicon), and a
// digest of what it says for the prompt cache key. Compiled in slices that yield to the event loop, since a lexicon
// of 10,000 entries takes tens of milliseconds to build.

import { createHash } from 'node:crypto';
import type { LanguageCode } from '../../languages.js';
import { isAliasEntry, type LexiconEntry, type StoredLexicon } from '../../store/lexicon.js';
import { eventLoopTurn } from '../../util/event-loop-turn.js';
import type { TextLexicon } from '../text/apply-lexicon.js';
import { LexiconMatcher } from '../text/lexicon-matcher.js';

export interface AppliedLexicons {
  /** The lexicons that apply, in precedence order: those the request named, in its order, then `default`. */
  readonly names: readonly string[];
  /** What the front end applies; undefined when none of their entries is in the utterance's language. */
  readonly text: TextLexicon | undefined;
  /**
   * sha256 of the entries in force for the language (what each grapheme becomes): part of the prompt cache key, so a
   * changed entry never replays audio made before it; undefined with no entries, which leaves the key as it was.
   */
  readonly cacheKey: string | undefined;
  /** Entries of the language, and how many of them give phonemes (spoken as written: no engine takes them yet). */
  readonly entries: number;
  readonly phonemeEntries: number;
}

export const NO_LEXICONS: AppliedLexicons = { names: [], text: undefined, cacheKey: undefined, entries: 0, phonemeEntries: 0 };

/** Grapheme code points added to the trie between two turns of the event loop (about 2 ms of work). */
const CODE_POINTS_PER_SLICE = 8_000;

interface Reading {
  readonly alias: string | undefined;
}

class MatcherLexicon implements TextLexicon {
  constructor(private readonly matcher: LexiconMatcher<Reading>) {}

  find(chars: readonly string[], blocked: Uint8Array | undefined) {
    return this.matcher.find(chars, blocked).map((match) => ({ start: match.start, end: match.end, alias: match.value.alias }));
  }
}

/** Entries added in precedence order: the first of a grapheme is in force, later ones are shadowed. */
class Compilation {
  readonly #builder = LexiconMatcher.builder<Reading>();
  /** What each entry in force says, hashed once at the end (one update per entry costs more than the trie). */
  readonly #said: string[] = [];
  #entries = 0;
  #phonemeEntries = 0;

  constructor(private readonly language: LanguageCode) {}

  add(entry: LexiconEntry): void {
    if (entry.language !== this.language) return;
    const alias = isAliasEntry(entry) ? entry.alias : undefined;
    if (!this.#builder.add(entry.grapheme, { alias })) return;
    // Control characters are in no stored entry (lexicon-rules.ts): they separate the fields unambiguously.
    this.#said.push(isAliasEntry(entry) ? `a\u0000${entry.grapheme}\u0000${entry.alias}` : `p\u0000${entry.grapheme}\u0000${entry.alphabet}\u0000${entry.phoneme}`);
    this.#entries++;
    if (alias === undefined) this.#phonemeEntries++;
  }

  done(names: readonly string[]): AppliedLexicons {
    if (this.#entries === 0) return { ...NO_LEXICONS, names };
    const cacheKey = createHash('sha256').update(this.#said.join('\u0001')).digest('hex');
    return { names, text: new MatcherLexicon(this.#builder.build()), cacheKey, entries: this.#entries, phonemeEntries: this.#phonemeEntries };
  }
}

/** The lexicons (in precedence order) as one utterance in `language` applies them. */
export async function compileLexicons(lexicons: readonly Pick<StoredLexicon, 'name' | 'entries'>[], language: LanguageCode): Promise<AppliedLexicons> {
  const compilation = new Compilation(language);
  let work = 0;
  for (const lexicon of lexicons) {
    for (const entry of lexicon.entries) {
      work += entry.language === language ? entry.grapheme.length : 1;
      if (work >= CODE_POINTS_PER_SLICE) {
        work = 0;
        await eventLoopTurn();
      }
      compilation.add(entry);
    }
  }
  return compilation.done(lexicons.map((lexicon) => lexicon.name));
}

/** The same without yielding, for tools (`raaga normalize --lexicon`) and tests. */
export function compileLexiconsNow(lexicons: readonly Pick<StoredLexicon, 'name' | 'entries'>[], language: LanguageCode): AppliedLexicons {
  const compilation = new Compilation(language);
  for (const lexicon of lexicons) for (const entry of lexicon.entries) compilation.add(entry);
  return compilation.done(lexicons.map((lexicon) => lexicon.name));
}
