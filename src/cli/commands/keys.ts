// `raaga keys create|list|revoke`: API keys are printed once at creation; afterwards only fingerprints exist.

import { generateApiKey, hashApiKey, isWellFormedApiKey, keyFingerprint } from '../../store/api-key.js';
import { AccountNotFoundError } from '../../store/store.js';
import { optionalString, requireString } from '../arg-parsing.js';
import { commandGroup, withStore, type Subcommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { json } from '../render.js';

const create: Subcommand = {
  name: 'create',
  help: `Usage: raaga keys create --account <id> [--json]

Adds an API key to the account and prints it once (only its hash is stored).`,
  options: { account: { type: 'string' }, json: { type: 'boolean' } },
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const apiKey = generateApiKey();
    const hash = hashApiKey(apiKey);
    await withStore(ctx, async (store) => {
      if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
      await store.addKeyHash(accountId, hash);
    });
    if (parsed.values.json) {
      ctx.out(json({ accountId, apiKey, fingerprint: keyFingerprint(hash) }));
      return;
    }
    ctx.out(`Created key ${keyFingerprint(hash)} for ${accountId} (shown once; it cannot be recovered, only revoked):`);
    ctx.out(apiKey);
  },
};

const list: Subcommand = {
  name: 'list',
  help: `Usage: raaga keys list --account <id> [--json]

Lists the fingerprints of the account's live keys (keys themselves are never stored).`,
  options: { account: { type: 'string' }, json: { type: 'boolean' } },
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const hashes = await withStore(ctx, async (store) => {
      if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
      return store.listKeyHashes(accountId);
    });
    const fingerprints = hashes.map(keyFingerprint);
    if (parsed.values.json) ctx.out(json(fingerprints));
    else ctx.out(fingerprints.length ? fingerprints.join('\n') : `${accountId} has no live keys.`);
  },
};

const revoke: Subcommand = {
  name: 'revoke',
  help: `Usage: raaga keys revoke <key | -> | raaga keys revoke --account <id> --fingerprint <sha256:hex>

Revokes a key for good: it never authenticates again, even if it stays in the accounts file.
Pass '-' to read the key from stdin (keeps it out of shell history), or revoke by the fingerprint
shown by 'raaga keys list' when the key itself is lost.`,
  options: { account: { type: 'string' }, fingerprint: { type: 'string' } },
  positionals: 1,
  async run(parsed, ctx) {
    const fingerprint = optionalString(parsed, 'fingerprint');
    const positional = parsed.positionals[0];
    if ((positional === undefined) === (fingerprint === undefined)) {
      throw new UsageError('give either a key (or - for stdin) or --account with --fingerprint');
    }
    let hash: string;
    if (positional !== undefined) {
      const key = positional === '-' ? (await ctx.readStdin()).trim() : positional;
      // Never echo the argument: a mistyped key is still mostly a secret.
      if (!isWellFormedApiKey(key)) throw new UsageError('that is not a well-formed API key (rk_live_ + 32 or more letters and digits)');
      hash = hashApiKey(key);
    } else {
      const accountId = requireString(parsed, 'account');
      const prefix = (fingerprint ?? '').replace(/^sha256:/, '').toLowerCase();
      if (!/^[0-9a-f]{8,64}$/.test(prefix)) throw new UsageError('--fingerprint must be sha256: followed by at least 8 hex characters');
      const matches = await withStore(ctx, async (store) => {
        if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
        return (await store.listKeyHashes(accountId)).filter((h) => h.startsWith(prefix));
      });
      if (matches.length !== 1) {
        throw new Error(matches.length === 0 ? `no live key of ${accountId} matches that fingerprint` : 'fingerprint is ambiguous; give more characters');
      }
      hash = matches[0] ?? '';
    }
    const found = await withStore(ctx, (store) => store.revokeKeyHash(hash));
    if (!found) throw new Error('no such key');
    ctx.out(`Revoked key ${keyFingerprint(hash)}.`);
  },
};

const hash: Subcommand = {
  name: 'hash',
  help: `Usage: raaga keys hash <key | ->

Prints the key as the accounts file may hold it instead of the key itself (sha256:<hex>), so the file
(RAAGA_ACCOUNTS_FILE) need keep no key in clear. Pass '-' to read the key from stdin.`,
  options: {},
  positionals: 1,
  async run(parsed, ctx) {
    const positional = parsed.positionals[0];
    if (positional === undefined) throw new UsageError('give a key, or - to read it from stdin');
    const key = positional === '-' ? (await ctx.readStdin()).trim() : positional;
    if (!isWellFormedApiKey(key)) throw new UsageError('that is not a well-formed API key (rk_live_ + 32 or more letters and digits)');
    ctx.out(`sha256:${hashApiKey(key)}`);
  },
};

export const keysCommand = commandGroup('keys', COMMAND_SUMMARIES.keys, [create, list, revoke, hash]);
