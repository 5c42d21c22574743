// `raaga store export|import`: moves accounts, keys, balances, custom voices and telephony settings between stores
// (the embedded SQLite store and Redis, either way) as one JSON document. The document holds key hashes and provider
// secrets: it is written 0600 and should be handled like the store itself.

import { readFile, writeFile } from 'node:fs/promises';
import { checkLexiconEntries } from '../../core/lexicons/lexicon-rules.js';
import { exportStore, importStore } from '../../store/store-transfer.js';
import { assertTelephonySettings } from '../../telephony/telephony-settings-check.js';
import { optionalString } from '../arg-parsing.js';
import { commandGroup, withStore, type Subcommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { counted, json } from '../render.js';

/** `2 accounts, 3 keys and 1 voice`, with `and N lexicons` when there are any. */
function inAll(accounts: number, keys: number, voices: number, lexicons: number): string {
  const parts = [counted(accounts, 'account'), counted(keys, 'key'), counted(voices, 'voice'), ...(lexicons > 0 ? [counted(lexicons, 'lexicon')] : [])];
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

const exportCommand: Subcommand = {
  name: 'export',
  help: `Usage: raaga store export [--output <file>]

Writes every account (plan, exact balance, creation time), its keys (hashes, revoked ones marked), custom
voices, telephony settings and pronunciation lexicons as JSON, to stdout or to <file> (created 0600: it holds key hashes and
provider secrets). Exports the store this environment points at: SQLite in RAAGA_DATA_DIR, or Redis
with REDIS_URL. Rate windows, reservations and the usage ledger are not exported.`,
  options: { output: { type: 'string' } },
  async run(parsed, ctx) {
    const output = optionalString(parsed, 'output');
    const snapshot = await withStore(ctx, exportStore);
    const text = JSON.stringify(snapshot);
    if (output === undefined) {
      ctx.out(text);
      return;
    }
    await writeFile(output, `${text}\n`, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST' ? new UsageError(`${output} exists; choose another file (an export never overwrites one)`) : error;
    });
    ctx.err(`Exported ${inAll(snapshot.accounts.length, snapshot.keys.length, snapshot.voices.length, snapshot.lexicons?.length ?? 0)} to ${output}.`);
  },
};

const importCommand: Subcommand = {
  name: 'import',
  help: `Usage: raaga store import <file | -> [--skip-existing] [--json]

Adds the accounts of an export (from 'raaga store export', or a store.json) to the store this
environment points at, with their exact balances, keys, voices, telephony settings and lexicons (each checked
as the API checks it). Every account
must be new to it: otherwise nothing is imported, unless --skip-existing, which leaves the accounts it
already has untouched and imports the rest. Pass '-' to read the export from stdin.`,
  options: { 'skip-existing': { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: 1,
  async run(parsed, ctx) {
    const source = parsed.positionals[0];
    if (source === undefined) throw new UsageError('give the export file to import (or - for stdin)');
    const text = source === '-' ? await ctx.readStdin() : await readFile(source, 'utf8');
    const result = await withStore(ctx, (store) => importStore(store, text, { skipExisting: parsed.values['skip-existing'] === true, checkTelephony: assertTelephonySettings, checkLexicon: checkLexiconEntries }));
    if (parsed.values.json) {
      ctx.out(json(result));
      return;
    }
    ctx.out(`Imported ${inAll(result.accounts, result.keys, result.voices, result.lexicons)}.`);
    if (result.skipped.length > 0) ctx.out(`Skipped ${counted(result.skipped.length, 'account')} the store already had: ${result.skipped.join(', ')}.`);
  },
};

export const storeCommand = commandGroup('store', COMMAND_SUMMARIES.store, [exportCommand, importCommand]);
