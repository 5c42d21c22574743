// `raaga credits add`: top-ups. The accounts file's credits are only an opening balance, so this is the way
// to add credits to an existing account.

import { parseCount, requireString } from '../arg-parsing.js';
import { commandGroup, withStore, type Subcommand } from '../cli-command.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { json } from '../render.js';

const add: Subcommand = {
  name: 'add',
  help: `Usage: raaga credits add --account <id> --amount N [--json]

Adds N credits (characters) to the account's balance and prints the new balance.`,
  options: { account: { type: 'string' }, amount: { type: 'string' }, json: { type: 'boolean' } },
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const amount = parseCount(requireString(parsed, 'amount'), 'amount', { min: 1 });
    const account = await withStore(ctx, (store) => store.addCredits(accountId, amount));
    if (parsed.values.json) ctx.out(json(account));
    else ctx.out(`Added ${amount} credits to ${account.id}; balance is ${account.credits}.`);
  },
};

export const creditsCommand = commandGroup('credits', COMMAND_SUMMARIES.credits, [add]);
