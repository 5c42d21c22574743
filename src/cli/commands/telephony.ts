// `raaga telephony set|show|clear`: an account's provider credentials (each provider module's own fields and options,
// telephony/providers.ts), whether it accepts unsigned provider requests (development), its outbound-call rules and its
// default call parameters. Secrets are stored as given (HMAC needs the auth token itself), shown only masked, and can
// be read from stdin to keep them out of shell history.

import { SETTING_NAMES } from '../../telephony/call-parameters.js';
import type { CredentialField } from '../../telephony/provider-credentials.js';
import { PROVIDERS } from '../../telephony/providers.js';
import { assertTelephonySettings } from '../../telephony/telephony-settings-check.js';
import { AccountNotFoundError, type TelephonySettings } from '../../store/store.js';
import { optionalString, repeatedStrings, requireString } from '../arg-parsing.js';
import { commandGroup, withStore, type CliContext, type Subcommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { isoTime, json } from '../render.js';

/** The account-wide string settings: top-level fields of the stored record, not a provider's credentials. */
type AccountField = 'webhookSecret' | 'allowedCallerIds' | 'callingHours' | 'callingTimeZone' | 'dncWebhookUrl' | 'dialCallsPerSecond';

/** A `raaga telephony set` option: a provider's credential (its module's), or an account-wide rule. */
type SettingOption = Omit<CredentialField, 'field' | 'format'> & { readonly read: (settings: TelephonySettings | null) => string | undefined; readonly name: string };

/** The outbound-call rules, whatever the provider (POST /v1/calls); their formats are the store's. */
const CALL_RULES: readonly (Omit<CredentialField, 'field' | 'format'> & { readonly field: AccountField })[] = [
  { field: 'webhookSecret', option: 'webhook-secret', value: '<s|->', secret: true, help: 'signs the status webhooks (Raaga-Signature); 16+ characters' },
  { field: 'allowedCallerIds', option: 'allowed-caller-ids', value: '<+91…,…>', help: 'the only numbers POST /v1/calls may use as from' },
  { field: 'callingHours', option: 'calling-hours', value: 'HH:MM-HH:MM', help: 'calls are placed only inside this window (with --calling-time-zone, default\nAsia/Kolkata)' },
  { field: 'callingTimeZone', option: 'calling-time-zone', value: '<zone>', help: 'the IANA time zone of --calling-hours' },
  { field: 'dncWebhookUrl', option: 'dnc-webhook-url', value: '<url>', help: 'asked before each call whether the number may be called (do-not-call list)' },
  {
    field: 'dialCallsPerSecond',
    option: 'dial-cps',
    value: '<n>',
    help: `calls placed per second per provider (default ${PROVIDERS.flatMap((module) => (module.dialer ? [`${module.name} ${module.dialer.defaultCallsPerSecond}`] : [])).join(', ')})`,
  },
];

const PROVIDER_FIELDS: readonly CredentialField[] = PROVIDERS.flatMap((module) => module.credentials.fields);
/** Every string setting, with its option and where the stored record keeps it. */
const FIELDS: readonly SettingOption[] = [
  ...PROVIDERS.flatMap(({ credentials }) => credentials.fields.map((field) => ({ ...field, name: field.field, read: (settings: TelephonySettings | null) => credentials.read(settings)[field.field] }))),
  ...CALL_RULES.map(({ field, ...option }) => ({ ...option, name: field, read: (settings: TelephonySettings | null) => settings?.[field] })),
];
const CREDENTIAL_NAMES: ReadonlySet<string> = new Set(PROVIDER_FIELDS.map((field) => field.field));

const HELP_COLUMN = 32;

function optionHelp(field: Omit<CredentialField, 'field' | 'format'>): string {
  const [first = '', ...more] = field.help.split('\n');
  const usage = `  --${field.option} ${field.value}`;
  const head = usage.length < HELP_COLUMN ? `${usage.padEnd(HELP_COLUMN)}${first}` : `${usage}  ${first}`;
  return [head, ...more.map((line) => `${' '.repeat(HELP_COLUMN)}${line}`)].join('\n');
}

function mask(secret: string | undefined): string | null {
  return secret === undefined ? null : `${'*'.repeat(8)}${secret.slice(-4)}`;
}

function masked(settings: TelephonySettings): Record<string, unknown> {
  return {
    accountId: settings.accountId,
    // Flat, as before the credentials map: one key per option, whoever owns it.
    ...Object.fromEntries(FIELDS.map(({ name, secret, read }) => [name, secret ? mask(read(settings)) : (read(settings) ?? null)])),
    allowUnsigned: settings.allowUnsigned === true,
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
  help: `Usage: raaga telephony set --account <id> [provider options] [--allow-unsigned true|false]
                           [--default name=value]... [--json]

Updates the account's telephony settings; options not given keep their stored value ('' removes one).
An account takes a provider's webhooks and streams only once it has that provider's credentials (or
--allow-unsigned true, for local development only); anything else is refused (403).
${PROVIDER_FIELDS.filter((field) => !field.outbound).map(optionHelp).join('\n')}
Placing calls (POST /v1/calls):
${[...PROVIDER_FIELDS.filter((field) => field.outbound), ...CALL_RULES].map(optionHelp).join('\n')}
  --allow-unsigned true|false   accept this account's provider requests without credentials (development)
  --default name=value          a default call parameter (voice, language, agent_url, greeting, barge_in, …);
                                name= (empty) removes it
Secrets given as '-' are read from stdin (one option at a time).`,
  options: {
      account: { type: 'string' },
      ...Object.fromEntries(FIELDS.map(({ option }) => [option, { type: 'string' as const }])),
      'allow-unsigned': { type: 'string' },
      default: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    },
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const stdin = { used: false };
    const given: Record<string, string | undefined> = {};
    const allowUnsignedRaw = optionalString(parsed, 'allow-unsigned');
    if (allowUnsignedRaw !== undefined && allowUnsignedRaw !== 'true' && allowUnsignedRaw !== 'false') throw new UsageError('--allow-unsigned must be true or false');
    for (const { option, secret } of FIELDS) {
      const raw = optionalString(parsed, option);
      given[option] = secret ? await secretValue(raw, ctx, stdin) : raw;
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
      const values = FIELDS.flatMap(({ option, name, read }) => {
        const value = pick(option, read(current));
        return value === undefined ? [] : [[name, value] as const];
      });
      const credentials = Object.fromEntries(values.filter(([name]) => CREDENTIAL_NAMES.has(name)));
      const next: TelephonySettings = {
        accountId,
        ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
        ...Object.fromEntries(values.filter(([name]) => !CREDENTIAL_NAMES.has(name))),
        ...((allowUnsignedRaw ?? String(current?.allowUnsigned === true)) === 'true' ? { allowUnsigned: true } : {}),
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
    else {
      // A provider without credentials of its own (AudioSocket) is never "now required".
      const checked = PROVIDERS.filter((module) => module.credentials.fields.length > 0 && module.credentials.configured(saved)).map((module) => module.name);
      const note = saved.allowUnsigned
        ? ' (provider requests without credentials are accepted: development only)'
        : checked.length > 0
          ? ` (${checked.join(', ')} signatures are now required)`
          : ' (no provider credentials: provider requests are refused)';
      ctx.out(`Telephony settings of ${accountId} updated${note}.`);
    }
  },
};

const show: Subcommand = {
  name: 'show',
  help: `Usage: raaga telephony show --account <id>

Prints the account's telephony settings as JSON, secrets masked.`,
  options: { account: { type: 'string' } },
  async run(parsed, ctx) {
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

Removes the account's provider credentials and call defaults: its provider requests are refused until set again.`,
  options: { account: { type: 'string' } },
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    await withStore(ctx, async (store) => {
      if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
      await store.putTelephonySettings({ accountId, updatedAtMs: Date.now() });
    });
    ctx.out(`Telephony settings of ${accountId} cleared.`);
  },
};

export const telephonyCommand = commandGroup('telephony', COMMAND_SUMMARIES.telephony, [set, show, clear]);
