// Building blocks of the front end's regexes over word lists: literal alternations, keywords that stand as words,
// and where a word starts. Every pattern built here is a list of literals, so it costs at most its longest entry
// at each position it is tried (no backtracking over the text).

// `-` needs no escape outside a class (and `\-` is an error in unicode mode).
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');

/** The words as one regex alternation, longest first (so `ಓವರ್‌ಗಳಲ್ಲಿ` wins over `ಓವರ್`). */
export const alternation = (items: readonly string[]): string => [...items].sort((a, b) => b.length - a.length).map(escape).join('|');

/** Not preceded by a letter, mark or digit: the match starts a word. */
export const isWordStart = (s: string, i: number): boolean => i === 0 || !/[\p{L}\p{M}\p{N}]/u.test(s[i - 1] as string);

/** Any of `words` standing as a word somewhere in the text it is tested on (case-insensitive). */
export function keywordPattern(words: readonly string[]): RegExp {
  return new RegExp(`(?:^|[^\\p{L}\\p{M}])(?:${alternation(words)})(?![\\p{L}\\p{M}])`, 'iu');
}
