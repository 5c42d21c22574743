// `raaga lexicon list|show|set|delete|import|export`: an account's pronunciation lexicons in the store the servers
// use, with the same checks as the API (core/lexicons/account-lexicons.ts), imported and exported as CSV or W3C PLS.
// Running servers see a change at their next lexicon version read (within half a second).

import { readFile, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { AccountLexicons } from '../../core/lexicons/account-lexicons.js';
import { parseLexiconCsv, writeLexiconCsv } from '../../core/lexicons/lexicon-csv.js';
import { parsePls, writePls } from '../../core/lexicons/lexicon-pls.js';
import { checkEntryRef, checkLexiconEntries, type EntryLabel, type LexiconEntryInput } from '../../core/lexicons/lexicon-rules.js';
import { ApiError } from '../../errors.js';
import type { LanguageCode } from '../../languages.js';
import { isAliasEntry, lexiconEntryKey, type LexiconEntry, type LexiconSummary } from '../../store/lexicon.js';
import { oneOf, optionalString, parseLanguage, requireString } from '../arg-parsing.js';
import { commandGroup, withStore, type CliContext, type Subcommand } from '../cli-command.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { isoTime, json, table } from '../render.js';
import { UsageError } from '../usage-error.js';

const FORMATS = ['csv', 'pls'] as const;
type Format = (typeof FORMATS)[number];

/** A lexicon file's entries as read, with how refusals name each (`line 4`, `lexeme 2`). */
interface LexiconFile {
  readonly entries: readonly LexiconEntryInput[];
  readonly label: EntryLabel;
}

/** The format a file is in: `--format`, else its extension (`.csv`; `.pls` or `.xml`). */
export function fileFormat(path: string, given: string | undefined): Format {
  if (given !== undefined) return oneOf(given, 'format', FORMATS);
  const extension = extname(path).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.pls' || extension === '.xml') return 'pls';
  throw new UsageError(`cannot tell the format of '${path}' from its name; pass --format csv or --format pls`);
}

function parseLexiconFile(text: string, format: Format): LexiconFile {
  if (format === 'csv') return parseLexiconCsv(text);
  return parsePls(text);
}

/** A lexicon file's entries, checked as the server checks them (a refusal names the line or lexeme). */
export async function readLexiconFile(path: string, format: Format, ctx: CliContext): Promise<LexiconEntry[]> {
  const text = path === '-' ? await ctx.readStdin() : await readFile(path, 'utf8');
  const file = parseLexiconFile(text, format);
  return checkLexiconEntries(file.entries, file.label);
}

/** `1 entry`, `3 entries`. */
function entryCount(n: number, kind = ''): string {
  return `${n} ${kind}${n === 1 ? 'entry' : 'entries'}`;
}

/** The lexicon's entries now; none when the account has no lexicon of that name yet. */
async function currentEntries(lexicons: AccountLexicons, accountId: string, name: string): Promise<readonly LexiconEntry[]> {
  try {
    return (await lexicons.get(accountId, name)).entries;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return [];
    throw error;
  }
}

function summaryLine(summary: LexiconSummary): string[] {
  return [summary.name, String(summary.entryCount), String(summary.revision), summary.revision === 0 ? '-' : isoTime(summary.updatedAtMs)];
}

function lexiconName(ctx: { positionals: readonly string[] }, what: string): string {
  const name = ctx.positionals[0];
  if (name === undefined) throw new UsageError(`give the lexicon to ${what} (e.g. default, brands)`);
  return name;
}

const ACCOUNT_OPTION = { account: { type: 'string' } } as const;

const list: Subcommand = {
  name: 'list',
  help: `Usage: raaga lexicon list --account <id> [--json]

Lists the account's lexicons (default among them, even before it is written): entries, revision, last change.`,
  options: { ...ACCOUNT_OPTION, json: { type: 'boolean' } },
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const lexicons = await withStore(ctx, (store) => new AccountLexicons(store).list(accountId));
    if (parsed.values.json) ctx.out(json(lexicons));
    else ctx.out(table(['NAME', 'ENTRIES', 'REVISION', 'UPDATED'], lexicons.map(summaryLine)));
  },
};

const show: Subcommand = {
  name: 'show',
  help: `Usage: raaga lexicon show --account <id> <name> [--language <code>] [--json]

Prints the lexicon's entries (all languages, or one with --language): language, grapheme and what is said
instead (an alias, or phonemes with their alphabet).`,
  options: { ...ACCOUNT_OPTION, language: { type: 'string' }, json: { type: 'boolean' } },
  positionals: 1,
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const name = lexiconName(parsed, 'show');
    const language = optionalString(parsed, 'language');
    const only = language === undefined ? undefined : parseLanguage(language);
    const lexicon = await withStore(ctx, (store) => new AccountLexicons(store).get(accountId, name));
    const shown = lexicon.entries.filter((entry) => only === undefined || entry.language === only);
    if (parsed.values.json) {
      ctx.out(json({ ...lexicon, entries: shown }));
      return;
    }
    ctx.out(
      table(
        ['LANGUAGE', 'GRAPHEME', 'SAYS'],
        shown.map((entry) => [entry.language, entry.grapheme, isAliasEntry(entry) ? entry.alias : `/${entry.phoneme}/ (${entry.alphabet})`]),
      ),
    );
    ctx.err(`${entryCount(shown.length)} of ${lexicon.entryCount} in '${name}'.`);
  },
};

const set: Subcommand = {
  name: 'set',
  help: `Usage: raaga lexicon set --account <id> <name> --language <code> --grapheme <text> (--alias <text> | --phoneme <text> --alphabet ipa|x-sampa)

Adds an entry to the lexicon, or replaces the one with the same language and grapheme (Latin in any case),
creating the lexicon when missing. The entry is checked as the API checks it (script, length, an alias
repeating its grapheme, phoneme symbols). Phoneme entries are stored; no engine takes phonemes yet, so their
words are spoken as written.`,
  options: { ...ACCOUNT_OPTION, language: { type: 'string' }, grapheme: { type: 'string' }, alias: { type: 'string' }, phoneme: { type: 'string' }, alphabet: { type: 'string' } },
  positionals: 1,
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const name = lexiconName(parsed, 'change');
    const entry: LexiconEntryInput = {
      language: parseLanguage(requireString(parsed, 'language')),
      grapheme: requireString(parsed, 'grapheme'),
      ...(optionalString(parsed, 'alias') !== undefined ? { alias: optionalString(parsed, 'alias') } : {}),
      ...(optionalString(parsed, 'phoneme') !== undefined ? { phoneme: optionalString(parsed, 'phoneme') } : {}),
      ...(optionalString(parsed, 'alphabet') !== undefined ? { alphabet: optionalString(parsed, 'alphabet') } : {}),
    };
    if (entry.alias === undefined && entry.phoneme === undefined) throw new UsageError('give --alias, or --phoneme with --alphabet');
    const summary = await withStore(ctx, (store) => new AccountLexicons(store).edit(accountId, name, { put: [entry] }, () => 'entry'));
    ctx.out(`Set ${entry.language} '${entry.grapheme}' in '${name}' (${entryCount(summary.entryCount)}).`);
  },
};

const remove: Subcommand = {
  name: 'delete',
  help: `Usage: raaga lexicon delete --account <id> <name> [--language <code> --grapheme <text>]

Deletes the lexicon (default is emptied: it always exists), or with --language and --grapheme one entry of it.`,
  options: { ...ACCOUNT_OPTION, language: { type: 'string' }, grapheme: { type: 'string' } },
  positionals: 1,
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const name = lexiconName(parsed, 'delete');
    const language = optionalString(parsed, 'language');
    const grapheme = optionalString(parsed, 'grapheme');
    if ((language === undefined) !== (grapheme === undefined)) throw new UsageError('give both --language and --grapheme to delete one entry, or neither to delete the lexicon');
    if (language === undefined || grapheme === undefined) {
      await withStore(ctx, (store) => new AccountLexicons(store).delete(accountId, name));
      ctx.out(`Deleted lexicon '${name}'.`);
      return;
    }
    const ref = checkEntryRef({ language: parseLanguage(language), grapheme }, 'entry');
    const found = await withStore(ctx, async (store) => {
      const lexicons = new AccountLexicons(store);
      const lexicon = await lexicons.get(accountId, name);
      if (!lexicon.entries.some((entry) => lexiconEntryKey(entry) === lexiconEntryKey(ref))) return false;
      await lexicons.edit(accountId, name, { delete: [ref] });
      return true;
    });
    if (!found) throw new ApiError('not_found', `Lexicon '${name}' has no ${ref.language} entry '${ref.grapheme}'.`);
    ctx.out(`Deleted ${ref.language} '${ref.grapheme}' from '${name}'.`);
  },
};

const importCommand: Subcommand = {
  name: 'import',
  help: `Usage: raaga lexicon import --account <id> <name> <file | -> [--format csv|pls] [--replace] [--json]

Adds the entries of a CSV file (header: language,grapheme,alias,phoneme,alphabet) or a W3C PLS file (the
format Azure and Google use: one language a file, xml:lang) to the lexicon, replacing those with the same
language and grapheme; creates the lexicon when missing. --replace makes the lexicon's entries in the file's
languages exactly the file's (its other languages are kept). The format comes from the file's extension (.csv,
.pls, .xml) unless --format says it; '-' reads standard input (give --format). Every entry is checked first:
one refused (naming its line or lexeme) imports nothing.`,
  options: { ...ACCOUNT_OPTION, format: { type: 'string' }, replace: { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: 2,
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const name = lexiconName(parsed, 'import into');
    const path = parsed.positionals[1];
    if (path === undefined) throw new UsageError('give the file to import (or - for stdin)');
    const format = fileFormat(path, optionalString(parsed, 'format'));
    const read = await readLexiconFile(path, format, ctx);
    const replace = parsed.values.replace === true;
    const summary = await withStore(ctx, async (store) => {
      const lexicons = new AccountLexicons(store);
      const languages = new Set(read.map((entry) => entry.language));
      const existing = replace ? await currentEntries(lexicons, accountId, name) : [];
      const incoming = new Set(read.map(lexiconEntryKey));
      const stale = existing.filter((entry) => languages.has(entry.language) && !incoming.has(lexiconEntryKey(entry)));
      return lexicons.edit(accountId, name, { put: read, delete: stale }, () => 'entry');
    });
    if (parsed.values.json) {
      ctx.out(json({ lexicon: summary, imported: read.length }));
      return;
    }
    ctx.out(`Imported ${entryCount(read.length)} into '${name}' (${entryCount(summary.entryCount)} in all).`);
    const phonemes = read.filter((entry) => !isAliasEntry(entry)).length;
    if (phonemes > 0) ctx.err(`${entryCount(phonemes, 'phoneme ')} stored; no engine takes phonemes yet, so their words are spoken as written.`);
  },
};

const exportCommand: Subcommand = {
  name: 'export',
  help: `Usage: raaga lexicon export --account <id> <name> [--format csv|pls] [--language <code>] [--output <file>]

Writes the lexicon as CSV (every language; the default) or as W3C PLS (one language a document: --language,
needed when the lexicon has entries in several), to stdout or to <file> (never overwritten).`,
  options: { ...ACCOUNT_OPTION, format: { type: 'string' }, language: { type: 'string' }, output: { type: 'string' } },
  positionals: 1,
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const name = lexiconName(parsed, 'export');
    const output = optionalString(parsed, 'output');
    const given = optionalString(parsed, 'format');
    const format = given !== undefined ? oneOf(given, 'format', FORMATS) : output !== undefined && /\.(pls|xml)$/iu.test(output) ? 'pls' : 'csv';
    const language = optionalString(parsed, 'language');
    const lexicon = await withStore(ctx, (store) => new AccountLexicons(store).get(accountId, name));
    const only = language === undefined ? undefined : parseLanguage(language);
    const chosen = lexicon.entries.filter((entry) => only === undefined || entry.language === only);
    let text: string;
    if (format === 'csv') text = writeLexiconCsv(chosen);
    else {
      const languages = [...new Set(lexicon.entries.map((entry) => entry.language))];
      const pick: LanguageCode | undefined = only ?? (languages.length === 1 ? languages[0] : undefined);
      if (pick === undefined) throw new UsageError(`a PLS document holds one language; '${name}' has ${languages.length === 0 ? 'none' : languages.join(', ')}: pass --language`);
      text = writePls(chosen, pick);
    }
    if (output === undefined) {
      ctx.out(text.replace(/\r?\n$/u, ''));
      return;
    }
    await writeFile(output, text, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST' ? new UsageError(`${output} exists; choose another file (an export never overwrites one)`) : error;
    });
    ctx.err(`Exported ${entryCount(chosen.length)} of '${name}' to ${output}.`);
  },
};

export const lexiconCommand = commandGroup('lexicon', COMMAND_SUMMARIES.lexicon, [list, show, set, remove, importCommand, exportCommand]);
