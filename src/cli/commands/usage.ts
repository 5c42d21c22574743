// `raaga usage`: an account's usage ledger for the operator, totalled by day, voice, language or key, or every
// record (`--records`), as a table, CSV (`--csv`, for invoicing) or JSON. Reads the store the server uses, while it runs.

import { parseUsagePeriod } from '../../core/usage/usage-period.js';
import { USAGE_GROUPINGS, summarizeUsage, type UsageGrouping, type UsageTotals } from '../../core/usage/usage-summary.js';
import { isApiError } from '../../errors.js';
import { AccountNotFoundError, type UsageRecord } from '../../store/store.js';
import { optionalString, optionTable, parseCommandArgs, requireString } from '../arg-parsing.js';
import { singleCommand, UsageError, withStore } from '../cli-command.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { csv, isoTime, json, table } from '../render.js';

const HELP = `Usage: raaga usage --account <id> [--from <date>] [--to <date>] [--timezone <zone>]
                   [--group-by day|voice|language|key | --records] [--csv | --json]

Prints what the account spent: characters billed (the credits debited), requests, seconds of audio and
outcomes (completed, cancelled, truncated, failed), per ${USAGE_GROUPINGS.join(', ')} (default day), or every
record with --records (time, key fingerprint, endpoint, call id, voice, language, engine, characters,
seconds, outcome).

  --from, --to   YYYY-MM-DD (whole local days, both included) or an instant with its offset
                 (2026-11-01T09:30:00+05:30); default: this month so far
  --timezone     IANA zone of the dates and days, e.g. Asia/Kolkata (default UTC)
  --csv          CSV with a header row (RFC 4180), for spreadsheets and invoicing`;

const TOTAL_HEADERS = ['characters', 'requests', 'audio_seconds', 'completed', 'cancelled', 'truncated', 'failed'];
const RECORD_HEADERS = ['time', 'key_id', 'endpoint', 'call_id', 'voice', 'language', 'engine', 'characters', 'audio_seconds', 'outcome'];

function totalsRow(t: UsageTotals): (string | number)[] {
  return [t.characters, t.requests, t.audioSeconds, t.outcomes.completed, t.outcomes.cancelled, t.outcomes.truncated, t.outcomes.failed];
}

function recordRow(r: UsageRecord): (string | number | null)[] {
  return [isoTime(r.atMs), r.keyId, r.endpoint, r.callId ?? null, r.voice, r.language, r.engine, r.characters, r.audioSeconds, r.outcome];
}

export const usageCommand = singleCommand('usage', COMMAND_SUMMARIES.usage, {
  help: HELP,
  async run(args, ctx) {
    const parsed = parseCommandArgs(args, optionTable({ strings: ['account', 'from', 'to', 'timezone', 'group-by'], flags: ['records', 'csv', 'json'] }));
    const accountId = requireString(parsed, 'account');
    const groupBy = optionalString(parsed, 'group-by') ?? 'day';
    if (!(USAGE_GROUPINGS as readonly string[]).includes(groupBy)) throw new UsageError(`--group-by must be one of ${USAGE_GROUPINGS.join(', ')}`);
    if (parsed.values.records && optionalString(parsed, 'group-by') !== undefined) throw new UsageError('give --records or --group-by, not both');
    if (parsed.values.csv && parsed.values.json) throw new UsageError('give --csv or --json, not both');
    let period;
    try {
      period = parseUsagePeriod({ from: optionalString(parsed, 'from'), to: optionalString(parsed, 'to'), timezone: optionalString(parsed, 'timezone') }, Date.now());
    } catch (error) {
      if (isApiError(error)) throw new UsageError(`--${error.message}`);
      throw error;
    }
    const records = await withStore(ctx, async (store) => {
      if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
      return store.listUsage(accountId, period);
    });
    const range = { accountId, from: isoTime(period.fromMs), to: isoTime(period.toMs), timezone: period.timeZone };

    if (parsed.values.records) {
      if (parsed.values.json) ctx.out(json({ ...range, records }));
      else if (parsed.values.csv) ctx.out(csv(RECORD_HEADERS, records.map(recordRow)));
      else ctx.out(records.length ? table(RECORD_HEADERS, records.map((r) => recordRow(r).map((c) => (c === null ? '-' : String(c))))) : 'No usage in this period.');
      return;
    }
    const summary = summarizeUsage(records, groupBy as UsageGrouping, period.timeZone);
    if (parsed.values.json) {
      ctx.out(json({ ...range, groupBy, ...summary }));
      return;
    }
    const rows = summary.groups.map((g) => [g.group ?? '(no key: calls)', ...totalsRow(g)]);
    if (parsed.values.csv) {
      ctx.out(csv([groupBy, ...TOTAL_HEADERS], [...rows, ['total', ...totalsRow(summary.total)]]));
      return;
    }
    ctx.out(`${accountId}, ${range.from} to ${range.to} (${period.timeZone}):`);
    ctx.out(table([groupBy, ...TOTAL_HEADERS], [...rows, ['total', ...totalsRow(summary.total)]].map((row) => row.map(String))));
  },
});
