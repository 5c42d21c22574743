// `raaga telephony set|show|clear`: an account's Twilio settings (auth token for X-Twilio-Signature, REST
// credentials for hangup/transfer) and its default call parameters. Secrets are stored as given (HMAC needs the
// auth token itself), shown only masked, and can be read from stdin to keep them out of shell history.

import { SETTING_NAMES } from '../../telephony/call-parameters.js';
import { AccountNotFoundError, type TelephonySettings } from '../../store/store.js';
import { assertTelephonySettings } from '../../store/telephony-settings.js';
import { optionalString, parseCommandArgs, repeatedStrings, requireString } from '../arg-parsing.js';
import { commandGroup, UsageError, withStore, type CliContext, type Subcommand } from '../cli-command.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { isoTime, json } from '../render.js';

const SECRET_OPTIONS = ['twilio-auth-token', 'twilio-api-secret'] as const;

function mask(secret: string | undefined): string | null {
  return secret === undefined ? null : `${'*'.repeat(8)}${secret.slice(-4)}`;
}

function masked(settings: TelephonySettings): Record<string, unknown> {
  return {
    accountId: settings.accountId,
    twilioAuthToken: mask(settings.twilioAuthToken),
    twilioAccountSid: settings.twilioAccountSid ?? null,
    twilioApiKey: settings.twilioApiKey ?? null,
    twilioApiSecret: mask(settings.twilioApiSecret),
    defaults: settings.defaults ?? {},
    updatedAt: isoTime(settings.updatedAtMs),
  };
}

async function secretValue(raw: string | undefined, ctx: CliContext, stdinTaken: { used: boolean }): Promise<string | undefined> {
  if (raw !== '-') return raw;
  if (stdinTaken.used) throw new UsageError('only one option can read from stdin (-)');
  stdinTaken.used = true;
  return (await ctx.readStdin()).trim();
}

const set: Subcommand = {
  name: 'set',
  help: `Usage: raaga telephony set --account <id> [--twilio-auth-token <token|->] [--twilio-account-sid AC…]
                           [--twilio-api-key SK… --twilio-api-secret <secret|->] [--default name=value]... [--json]

Updates the account's Twilio settings; options not given keep their stored value ('' removes one).
  --twilio-auth-token   validates X-Twilio-Signature on the voice webhook, status callbacks and the media
                        stream; once set, unsigned or wrongly signed requests get 403
  --twilio-account-sid  with the API key and secret (or the auth token): REST hangup and transfer
  --default name=value  a default call parameter (voice, language, agent_url, greeting, barge_in, …);
                        name= (empty) removes it
Secrets given as '-' are read from stdin.`,
  async run(args, ctx) {
    const parsed = parseCommandArgs(args, {
      account: { type: 'string' },
      'twilio-auth-token': { type: 'string' },
      'twilio-account-sid': { type: 'string' },
      'twilio-api-key': { type: 'string' },
      'twilio-api-secret': { type: 'string' },
      default: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    });
    const accountId = requireString(parsed, 'account');
    const stdin = { used: false };
    const given: Record<string, string | undefined> = {};
    for (const option of ['twilio-auth-token', 'twilio-account-sid', 'twilio-api-key', 'twilio-api-secret'] as const) {
      const raw = optionalString(parsed, option);
      given[option] = (SECRET_OPTIONS as readonly string[]).includes(option) ? await secretValue(raw, ctx, stdin) : raw;
    }
    const defaultPairs = repeatedStrings(parsed, 'default');
    const saved = await withStore(ctx, async (store) => {
      if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
      const current = await store.getTelephonySettings(accountId);
      const pick = (option: string, stored: string | undefined): string | undefined => {
        const value = given[option];
        if (value === undefined) return stored;
        return value === '' ? undefined : value;
      };
      const defaults: Record<string, string> = { ...(current?.defaults ?? {}) };
      for (const pair of defaultPairs) {
        const eq = pair.indexOf('=');
        const name = eq > 0 ? pair.slice(0, eq) : '';
        if (!(SETTING_NAMES as string[]).includes(name)) throw new UsageError(`--default must be name=value with name one of ${SETTING_NAMES.join(', ')}`);
        const value = pair.slice(eq + 1);
        if (value === '') delete defaults[name];
        else defaults[name] = value;
      }
      const next: TelephonySettings = {
        accountId,
        ...optionalField('twilioAuthToken', pick('twilio-auth-token', current?.twilioAuthToken)),
        ...optionalField('twilioAccountSid', pick('twilio-account-sid', current?.twilioAccountSid)),
        ...optionalField('twilioApiKey', pick('twilio-api-key', current?.twilioApiKey)),
        ...optionalField('twilioApiSecret', pick('twilio-api-secret', current?.twilioApiSecret)),
        ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
        updatedAtMs: Date.now(),
      };
      try {
        assertTelephonySettings(next);
      } catch (error) {
        throw new UsageError((error as Error).message.replace(/^invalid telephony settings: /, ''));
      }
      await store.putTelephonySettings(next);
      return next;
    });
    if (parsed.values.json) ctx.out(json(masked(saved)));
    else ctx.out(`Telephony settings of ${accountId} updated${saved.twilioAuthToken ? ' (Twilio signatures are now required)' : ''}.`);
  },
};

const show: Subcommand = {
  name: 'show',
  help: `Usage: raaga telephony show --account <id>

Prints the account's telephony settings as JSON, secrets masked.`,
  async run(args, ctx) {
    const parsed = parseCommandArgs(args, { account: { type: 'string' } });
    const accountId = requireString(parsed, 'account');
    const settings = await withStore(ctx, async (store) => {
      if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
      return store.getTelephonySettings(accountId);
    });
    ctx.out(settings ? json(masked(settings)) : `${accountId} has no telephony settings.`);
  },
};

const clear: Subcommand = {
  name: 'clear',
  help: `Usage: raaga telephony clear --account <id>

Removes the account's Twilio credentials and call defaults (signatures are no longer checked).`,
  async run(args, ctx) {
    const parsed = parseCommandArgs(args, { account: { type: 'string' } });
    const accountId = requireString(parsed, 'account');
    await withStore(ctx, async (store) => {
      if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
      await store.putTelephonySettings({ accountId, updatedAtMs: Date.now() });
    });
    ctx.out(`Telephony settings of ${accountId} cleared.`);
  },
};

function optionalField<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

export const telephonyCommand = commandGroup('telephony', COMMAND_SUMMARIES.telephony, [set, show, clear]);
