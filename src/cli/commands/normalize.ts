// `raaga normalize`: what the text front end makes of a text, as the engine will be given it (numbers, money,
// dates, identifiers and symbols in words), so operators can preview prompts and report misreadings.

import { ApiError } from '../../errors.js';
import { MAX_TEXT_CODE_POINTS } from '../../core/text/text-limits.js';
import { splitUtterance } from '../../core/text/split-utterance.js';
import type { LanguageCode } from '../../languages.js';
import { compileLexiconsNow, type AppliedLexicons } from '../../core/lexicons/applied-lexicons.js';
import { AccountLexicons } from '../../core/lexicons/account-lexicons.js';
import type { TextLexicon } from '../../core/text/apply-lexicon.js';
import { DEFAULT_LEXICON, type StoredLexicon } from '../../store/lexicon.js';
import { optionalString, parseLanguage, repeatedStrings, requireString, type Parsed } from '../arg-parsing.js';
import { singleCommand, withStore, type CliContext } from '../cli-command.js';
import { fileFormat, readLexiconFile } from './lexicon.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const HELP = `Usage: raaga normalize --language <code> [--ssml] [--lexicon <file | name>]... [--account <id>] [text]

Prints the words the engine is given for the text (the same front end the server runs), one output line per
input line. Without a text argument it reads standard input.

Options:
  --language <code>  en-IN, hi-IN, ta-IN, te-IN, kn-IN, mr-IN, gu-IN or bn-IN
  --ssml             the whole input is one SSML-lite document (<speak>…</speak> is added when missing);
                     printed as one line; malformed markup is an error naming the problem and its position
  --lexicon <x>      apply a lexicon first, as the server does: a CSV or PLS file (by its extension), or the
                     name of one of the account's lexicons (with --account); repeatable, the first named wins
  --account <id>     the account whose lexicons --lexicon names; its default lexicon applies too`;

/** Chunk boundaries never split a reading, so whole-sentence chunks give the same words the server speaks. */
const WHOLE = { firstChunkMaxChars: MAX_TEXT_CODE_POINTS, maxChunkChars: MAX_TEXT_CODE_POINTS } as const;

/** The engine's words for one input, or a usage error carrying the front end's own message (malformed SSML). */
export function engineText(text: string, language: LanguageCode, lexicon?: TextLexicon): string {
  try {
    return splitUtterance(text, { ...WHOLE, language, lexicon })
      .map((chunk) => chunk.text)
      .filter((words) => words !== '')
      .join(' ');
  } catch (error) {
    if (error instanceof ApiError) throw new UsageError(error.message);
    throw error;
  }
}

/** A --lexicon value that names a file (by its extension) rather than one of the account's lexicons. */
const LEXICON_FILE = /\.(csv|pls|xml)$/iu;

/**
 * The lexicons --lexicon names, in order, then the account's default (with --account), compiled for the language as the
 * server compiles them; undefined when none is named. Phoneme entries are said on stderr to be spoken as written.
 */
async function lexiconsOf(parsed: Parsed, language: LanguageCode, ctx: CliContext): Promise<AppliedLexicons | undefined> {
  const named = repeatedStrings(parsed, 'lexicon');
  const accountId = optionalString(parsed, 'account');
  if (named.length === 0 && accountId === undefined) return undefined;
  const lexicons: Pick<StoredLexicon, 'name' | 'entries'>[] = [];
  const stored = named.filter((name) => !LEXICON_FILE.test(name));
  if (stored.length > 0 && accountId === undefined) throw new UsageError(`--lexicon ${stored[0]} names a stored lexicon: give --account, or a .csv or .pls file`);
  const fromStore = accountId === undefined ? new Map<string, StoredLexicon>() : await withStore(ctx, async (store) => {
    const account = new AccountLexicons(store);
    const names = [...new Set([...stored, DEFAULT_LEXICON])];
    return new Map(await Promise.all(names.map(async (name) => [name, await account.get(accountId, name)] as const)));
  });
  for (const name of [...named, ...(accountId === undefined ? [] : [DEFAULT_LEXICON])]) {
    const lexicon = LEXICON_FILE.test(name) ? { name, entries: await readLexiconFile(name, fileFormat(name, undefined), ctx) } : fromStore.get(name);
    if (lexicon && !lexicons.some((known) => known.name === lexicon.name)) lexicons.push(lexicon);
  }
  const applied = compileLexiconsNow(lexicons, language);
  if (applied.phonemeEntries > 0) ctx.err(`note: ${applied.phonemeEntries} phoneme ${applied.phonemeEntries === 1 ? 'entry is' : 'entries are'} spoken as written: no engine takes phonemes yet.`);
  return applied;
}

export const normalizeCommand = singleCommand('normalize', COMMAND_SUMMARIES.normalize, {
  help: HELP,
  options: { language: { type: 'string' }, ssml: { type: 'boolean' }, lexicon: { type: 'string', multiple: true }, account: { type: 'string' } },
  positionals: 1,
  async run(parsed, ctx) {
    const language = parseLanguage(requireString(parsed, 'language'));
    const lexicon = await lexiconsOf(parsed, language, ctx);
    const input = parsed.positionals[0] ?? (await ctx.readStdin()).replace(/\r?\n$/u, '');
    if (input.trim() === '') throw new UsageError('the text to normalize is required (as an argument or on stdin)');
    if (parsed.values.ssml === true) {
      const document = input.trimStart().startsWith('<speak') ? input : `<speak>${input}</speak>`;
      ctx.out(engineText(document, language, lexicon?.text));
      return;
    }
    for (const line of input.split(/\r?\n/u)) ctx.out(line.trim() === '' ? '' : engineText(line, language, lexicon?.text));
  },
});
