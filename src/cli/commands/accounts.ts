// `raaga accounts create|list|show`: operator view of accounts in the store the server uses.

import { generateApiKey, hashApiKey } from '../../store/api-key.js';
import { AccountNotFoundError, PLAN_LIMITS, type Plan } from '../../store/store.js';
import { oneOf, optionalString, optionTable, parseCount, requireString } from '../arg-parsing.js';
import { commandGroup, withStore, type Subcommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { keyFingerprint } from '../../store/api-key.js';
import { isoTime, json, table } from '../render.js';

const PLANS: readonly Plan[] = ['free', 'developer', 'growth'];

export function parsePlan(raw: string): Plan {
  return oneOf(raw, 'plan', PLANS);
}

function planLine(plan: Plan): string {
  const limits = PLAN_LIMITS[plan];
  return `${plan} (${limits.requestsPerMinute} requests/min, ${limits.concurrentRequests} concurrent)`;
}

const create: Subcommand = {
  name: 'create',
  help: `Usage: raaga accounts create --plan <free|developer|growth> [--credits N] [--id <id>] [--json]

Creates an account and one API key. The key is printed once and only its hash is stored.

Options:
  --plan <plan>   free, developer or growth (required)
  --credits N     opening balance in characters (default 0)
  --id <id>       account id (default acct_ + 12 random characters)
  --json          print {"account":…, "apiKey":…}`,
  options: optionTable({ strings: ['plan', 'credits', 'id'], flags: ['json'] }),
  async run(parsed, ctx) {
    const plan = parsePlan(requireString(parsed, 'plan'));
    const creditsRaw = optionalString(parsed, 'credits');
    const credits = creditsRaw === undefined ? 0 : parseCount(creditsRaw, 'credits');
    const id = optionalString(parsed, 'id');
    const apiKey = generateApiKey();
    const account = await withStore(ctx, async (store) => {
      const created = await store.createAccount(id === undefined ? { plan, credits } : { id, plan, credits });
      await store.addKeyHash(created.id, hashApiKey(apiKey));
      return created;
    });
    if (parsed.values.json) {
      ctx.out(json({ account, apiKey }));
      return;
    }
    ctx.out(`Created account ${account.id}: plan ${planLine(account.plan)}, ${account.credits} credits.`);
    ctx.out('API key (shown once; it cannot be recovered, only revoked):');
    ctx.out(apiKey);
  },
};

const list: Subcommand = {
  name: 'list',
  help: `Usage: raaga accounts list [--json]

Lists every account with its plan, balance and number of live keys.`,
  options: { json: { type: 'boolean' } },
  async run(parsed, ctx) {
    const rows = await withStore(ctx, async (store) =>
      Promise.all(
        (await store.listAccounts()).map(async (account) => ({ ...account, liveKeys: (await store.listKeyHashes(account.id)).length })),
      ),
    );
    if (parsed.values.json) {
      ctx.out(json(rows));
      return;
    }
    if (rows.length === 0) {
      ctx.out('No accounts. Create one with: raaga accounts create --plan free --credits 10000');
      return;
    }
    ctx.out(
      table(
        ['ID', 'PLAN', 'CREDITS', 'KEYS', 'CREATED'],
        rows.map((row) => [row.id, row.plan, String(row.credits), String(row.liveKeys), isoTime(row.createdAtMs)]),
      ),
    );
  },
};

const show: Subcommand = {
  name: 'show',
  help: `Usage: raaga accounts show <id> [--json]

Shows one account: plan and limits, balance, live key fingerprints, custom voices.`,
  options: { json: { type: 'boolean' } },
  positionals: 1,
  async run(parsed, ctx) {
    const id = parsed.positionals[0];
    if (id === undefined) throw new UsageError('missing account id');
    const details = await withStore(ctx, async (store) => {
      const account = await store.getAccount(id);
      if (!account) throw new AccountNotFoundError(id);
      const keys = (await store.listKeyHashes(id)).map(keyFingerprint);
      const voices = await store.listCustomVoices(id);
      return { account, keys, voices };
    });
    if (parsed.values.json) {
      ctx.out(json({ ...details.account, keyFingerprints: details.keys, customVoices: details.voices }));
      return;
    }
    const { account, keys, voices } = details;
    ctx.out(
      [
        `Account  ${account.id}`,
        `Plan     ${planLine(account.plan)}`,
        `Credits  ${account.credits}`,
        `Created  ${isoTime(account.createdAtMs)}`,
        `Keys     ${keys.length} live${keys.length ? `: ${keys.join(', ')}` : ''}`,
        `Voices   ${voices.length}${voices.length ? `: ${voices.map((v) => `${v.id} (${v.name})`).join(', ')}` : ''}`,
      ].join('\n'),
    );
  },
};

export const accountsCommand = commandGroup('accounts', COMMAND_SUMMARIES.accounts, [create, list, show]);
