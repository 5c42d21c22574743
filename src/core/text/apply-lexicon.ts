// A lexicon applied to a text before the front end reads it: each entry found where the author fixed nothing becomes a
// span read exactly as a hand-written `<sub alias="…">grapheme</sub>` would be (source-text.ts's forced spans), so
// chunking, billing (the input's own code points) and word timings (sourceAt, back onto the input) treat both alike.
// One pass, no recursion: an alias is never searched again, so entries that name each other cannot loop.

import type { ForcedSpan, SourceText } from './source-text.js';

/** Where a lexicon's entries occur in a text (core/lexicons/ builds one per lexicon set and language). */
export interface TextLexicon {
  /**
   * Non-overlapping matches left to right, none covering a `blocked` character. `alias` undefined: the entry's reading
   * is one no engine can be given yet (phonemes), so the words are spoken as written, and no shorter entry inside
   * them applies either.
   */
  find(chars: readonly string[], blocked: Uint8Array | undefined): readonly { readonly start: number; readonly end: number; readonly alias?: string | undefined }[];
}

/** `source` with the lexicon's readings as forced alias spans beside the author's own (which win where they are). */
export function withLexicon(source: SourceText, lexicon: TextLexicon | undefined): SourceText {
  if (!lexicon) return source;
  // Plain text (the common case) has nothing the author fixed: nothing to block.
  const blocked = source.forced.length > 0 || source.breaksMs.size > 0 ? new Uint8Array(source.chars.length) : undefined;
  for (const span of source.forced) blocked?.fill(1, span.start, span.end);
  // A <break> is a space in the text: a phrase across it would swallow the pause the author asked for.
  for (const index of source.breaksMs.keys()) if (blocked) blocked[index] = 1;
  const spans: ForcedSpan[] = [];
  for (const match of lexicon.find(source.chars, blocked)) {
    if (match.alias !== undefined) spans.push({ start: match.start, end: match.end, interpretAs: 'alias', alias: match.alias });
  }
  if (spans.length === 0) return source;
  return { ...source, forced: [...source.forced, ...spans].sort((a, b) => a.start - b.start) };
}
