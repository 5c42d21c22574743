// `raaga usage`: an account's usage ledger for the operator, totalled by day, voice, language or key (from the store's
// rollups, as GET /v1/usage), or its records a page at a time (`--records`, `--limit`, `--after`), as a table, CSV
// (`--csv`, for invoicing) or JSON. Reads the store the server uses, while it runs. `--backfill` adds the records an
// upgraded Redis store holds from before usage totals existed to its totals.

import { reportUsage } from '../../core/usage/usage-report.js';
import { parseUsagePeriod } from '../../core/usage/usage-period.js';
import { USAGE_GROUPINGS, type UsageGrouping, type UsageTotals } from '../../core/usage/usage-summary.js';
import { isApiError } from '../../errors.js';
import { RedisStore } from '../../store/redis-store.js';
import { AccountNotFoundError, MAX_USAGE_PAGE, type Store, type UsageRecord } from '../../store/store.js';
import { oneOf, optionalString, optionTable, parseCount, requireString } from '../arg-parsing.js';
import { singleCommand, withStore } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { csv, isoTime, json, table } from '../render.js';

const DEFAULT_RECORDS_LIMIT = 1_000;

const HELP = `Usage: raaga usage --account <id> [--from <date>] [--to <date>] [--timezone <zone>]
                   [--group-by day|voice|language|key | --records [--limit <n>] [--after <cursor>]]
                   [--csv | --json]
       raaga usage --backfill [--account <id>]

Prints what the account spent: characters billed (the credits debited), requests, seconds of audio and
outcomes (completed, cancelled, truncated, failed), per ${USAGE_GROUPINGS.join(', ')} (default day), or its
records with --records (time, key fingerprint, endpoint, call id, voice, language, engine, characters,
seconds, outcome), oldest first, a page at a time.

  --from, --to   YYYY-MM-DD (whole local days, both included) or an instant with its offset
                 (2026-11-01T09:30:00+05:30); default: this month so far
  --timezone     IANA zone of the dates and days, e.g. Asia/Kolkata (default UTC)
  --limit        records per page, 1 to ${MAX_USAGE_PAGE} (default ${DEFAULT_RECORDS_LIMIT}); when more follow, stderr says
                 so and names the cursor (JSON: "next")
  --after        the cursor a previous page named: the page after it
  --csv          CSV with a header row (RFC 4180), for spreadsheets and invoicing
  --backfill     Redis only, once after upgrading every instance: adds the records written before
                 usage totals existed to the totals reports read (every account, or --account)`;

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
  options: optionTable({ strings: ['account', 'from', 'to', 'timezone', 'group-by', 'limit', 'after'], flags: ['records', 'csv', 'json', 'backfill'] }),
  async run(parsed, ctx) {
    if (parsed.values.backfill) {
      const only = optionalString(parsed, 'account');
      await withStore(ctx, (store) => backfill(store, only, ctx.out));
      return;
    }
    const accountId = requireString(parsed, 'account');
    const groupBy = oneOf(optionalString(parsed, 'group-by') ?? 'day', 'group-by', USAGE_GROUPINGS);
    if (parsed.values.records && optionalString(parsed, 'group-by') !== undefined) throw new UsageError('give --records or --group-by, not both');
    if (parsed.values.csv && parsed.values.json) throw new UsageError('give --csv or --json, not both');
    const limitText = optionalString(parsed, 'limit');
    const after = optionalString(parsed, 'after');
    if (!parsed.values.records && (limitText !== undefined || after !== undefined)) throw new UsageError('--limit and --after page --records');
    const limit = limitText === undefined ? DEFAULT_RECORDS_LIMIT : parseCount(limitText, 'limit', { min: 1 });
    if (limit > MAX_USAGE_PAGE) throw new UsageError(`--limit must be at most ${MAX_USAGE_PAGE}`);
    let period;
    try {
      period = parseUsagePeriod({ from: optionalString(parsed, 'from'), to: optionalString(parsed, 'to'), timezone: optionalString(parsed, 'timezone') }, Date.now());
    } catch (error) {
      if (isApiError(error)) throw new UsageError(`--${error.message}`);
      throw error;
    }
    const range = { accountId, from: isoTime(period.fromMs), to: isoTime(period.toMs), timezone: period.timeZone };

    if (parsed.values.records) {
      const page = await withStore(ctx, async (store) => {
        if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
        try {
          return await store.listUsagePage(accountId, period, { after, limit });
        } catch (error) {
          if (error instanceof RangeError) throw new UsageError(`--after: '${after ?? ''}' is not a cursor a page of this store named`);
          throw error;
        }
      });
      const { records, next } = page;
      if (parsed.values.json) ctx.out(json({ ...range, records, next }));
      else if (parsed.values.csv) ctx.out(csv(RECORD_HEADERS, records.map(recordRow)));
      else ctx.out(records.length ? table(RECORD_HEADERS, records.map((r) => recordRow(r).map((c) => (c === null ? '-' : String(c))))) : 'No usage in this period.');
      if (next !== null) ctx.err(`More records follow (pages of ${limit}): repeat with --after ${next}`);
      return;
    }
    const summary = await withStore(ctx, async (store) => {
      if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
      return reportUsage(store, accountId, period, groupBy as UsageGrouping);
    });
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

async function backfill(store: Store, only: string | undefined, out: (text: string) => void): Promise<void> {
  if (!(store instanceof RedisStore)) {
    out('The embedded store filled its usage totals when it was upgraded: nothing to do.');
    return;
  }
  const ids = only === undefined ? (await store.listAccounts()).map((a) => a.id) : [only];
  for (const id of ids) out(`${id}: ${await store.backfillUsageTotals(id)} records added to the usage totals`);
}
