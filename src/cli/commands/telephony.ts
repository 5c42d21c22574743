// `raaga telephony set|show|clear`: an account's provider credentials (Twilio, Exotel, Plivo, Asterisk, Smartflo),
// whether it accepts unsigned provider requests (development), and its default call parameters. Secrets are stored as given (HMAC needs the
// auth token itself), shown only masked, and can be read from stdin to keep them out of shell history.

import { SETTING_NAMES } from '../../telephony/call-parameters.js';
import { hasProviderCredentials } from '../../telephony/provider-credentials.js';
import { PROVIDER_NAMES } from '../../telephony/stream-provider.js';
import { AccountNotFoundError, type TelephonySettings } from '../../store/store.js';
import { assertTelephonySettings } from '../../store/telephony-settings.js';
import { optionalString, parseCommandArgs, repeatedStrings, requireString } from '../arg-parsing.js';
import { commandGroup, UsageError, withStore, type CliContext, type Subcommand } from '../cli-command.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { isoTime, json } from '../render.js';

const SECRET_OPTIONS = ['twilio-auth-token', 'twilio-api-secret', 'exotel-credentials', 'exotel-api-token', 'plivo-auth-token', 'asterisk-credentials', 'smartflo-token', 'webhook-secret'] as const;
/** Option → stored field, for every string setting. */
const FIELDS = {
  'twilio-auth-token': 'twilioAuthToken',
  'twilio-account-sid': 'twilioAccountSid',
  'twilio-api-key': 'twilioApiKey',
  'twilio-api-secret': 'twilioApiSecret',
  'exotel-credentials': 'exotelCredentials',
  'plivo-auth-id': 'plivoAuthId',
  'plivo-auth-token': 'plivoAuthToken',
  'asterisk-credentials': 'asteriskCredentials',
  'smartflo-token': 'smartfloToken',
  'twilio-api-base-url': 'twilioApiBaseUrl',
  'plivo-api-base-url': 'plivoApiBaseUrl',
  'exotel-api-key': 'exotelApiKey',
  'exotel-api-token': 'exotelApiToken',
  'exotel-account-sid': 'exotelAccountSid',
  'exotel-api-base-url': 'exotelApiBaseUrl',
  'webhook-secret': 'webhookSecret',
  'allowed-caller-ids': 'allowedCallerIds',
  'calling-hours': 'callingHours',
  'calling-time-zone': 'callingTimeZone',
  'dnc-webhook-url': 'dncWebhookUrl',
  'dial-cps': 'dialCallsPerSecond',
} as const;
type StringOption = keyof typeof FIELDS;

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
    exotelCredentials: mask(settings.exotelCredentials),
    plivoAuthId: settings.plivoAuthId ?? null,
    plivoAuthToken: mask(settings.plivoAuthToken),
    asteriskCredentials: mask(settings.asteriskCredentials),
    smartfloToken: mask(settings.smartfloToken),
    twilioApiBaseUrl: settings.twilioApiBaseUrl ?? null,
    plivoApiBaseUrl: settings.plivoApiBaseUrl ?? null,
    exotelApiKey: settings.exotelApiKey ?? null,
    exotelApiToken: mask(settings.exotelApiToken),
    exotelAccountSid: settings.exotelAccountSid ?? null,
    exotelApiBaseUrl: settings.exotelApiBaseUrl ?? null,
    webhookSecret: mask(settings.webhookSecret),
    allowedCallerIds: settings.allowedCallerIds ?? null,
    callingHours: settings.callingHours ?? null,
    callingTimeZone: settings.callingTimeZone ?? null,
    dncWebhookUrl: settings.dncWebhookUrl ?? null,
    dialCallsPerSecond: settings.dialCallsPerSecond ?? null,
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
  --twilio-auth-token <t|->     X-Twilio-Signature on the voice webhook, status callbacks and the stream
  --twilio-account-sid AC…      with --twilio-api-key SK… --twilio-api-secret <s|-> (or the auth token):
                                REST hangup and transfer
  --exotel-credentials <u:s|->  the user:secret in the Voicebot applet's wss URL (sent as Basic auth)
  --plivo-auth-id MA…           with --plivo-auth-token <t|->: X-Plivo-Signature-V3 on the answer URL and
                                the stream; REST hangup
  --asterisk-credentials <u:s|->  websocket_client.conf's username:password (sent as Basic auth)
  --smartflo-token <t|->        the secret path segment of the Smartflo stream URL (24-128 of A-Z a-z 0-9 _ -)
  --twilio-api-base-url <url>   where Twilio REST calls go (default https://api.twilio.com; e.g. a regional
                                edge https://api.sydney.au1.twilio.com, or a proxy)
  --plivo-api-base-url <url>    where Plivo REST calls go (default https://api.plivo.com; a Plivo-compatible
                                host such as Vobiz's)
Placing calls (POST /v1/calls):
  --exotel-api-key <k> --exotel-api-token <t|-> --exotel-account-sid <sid>
                                Exotel REST credentials (Calls/connect)
  --exotel-api-base-url <url>   default https://api.exotel.com (https://api.in.exotel.com: Mumbai cluster)
  --webhook-secret <s|->        signs the status webhooks (Raaga-Signature); 16+ characters
  --allowed-caller-ids <+91…,…> the only numbers POST /v1/calls may use as from
  --calling-hours HH:MM-HH:MM   calls are placed only inside this window (with --calling-time-zone, default
                                Asia/Kolkata)
  --dnc-webhook-url <url>       asked before each call whether the number may be called (do-not-call list)
  --dial-cps <n>                calls placed per second per provider (default Twilio 1, Exotel 3, Plivo 2)
  --allow-unsigned true|false   accept this account's provider requests without credentials (development)
  --default name=value          a default call parameter (voice, language, agent_url, greeting, barge_in, …);
                                name= (empty) removes it
Secrets given as '-' are read from stdin (one option at a time).`,
  async run(args, ctx) {
    const parsed = parseCommandArgs(args, {
      account: { type: 'string' },
      'twilio-auth-token': { type: 'string' },
      'twilio-account-sid': { type: 'string' },
      'twilio-api-key': { type: 'string' },
      'twilio-api-secret': { type: 'string' },
      'exotel-credentials': { type: 'string' },
      'plivo-auth-id': { type: 'string' },
      'plivo-auth-token': { type: 'string' },
      'asterisk-credentials': { type: 'string' },
      'smartflo-token': { type: 'string' },
      'twilio-api-base-url': { type: 'string' },
      'plivo-api-base-url': { type: 'string' },
      ...Object.fromEntries(
        (['exotel-api-key', 'exotel-api-token', 'exotel-account-sid', 'exotel-api-base-url', 'webhook-secret', 'allowed-caller-ids', 'calling-hours', 'calling-time-zone', 'dnc-webhook-url', 'dial-cps'] as const).map(
          (name) => [name, { type: 'string' as const }],
        ),
      ),
      'allow-unsigned': { type: 'string' },
      default: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    });
    const accountId = requireString(parsed, 'account');
    const stdin = { used: false };
    const given: Record<string, string | undefined> = {};
    const allowUnsignedRaw = optionalString(parsed, 'allow-unsigned');
    if (allowUnsignedRaw !== undefined && allowUnsignedRaw !== 'true' && allowUnsignedRaw !== 'false') throw new UsageError('--allow-unsigned must be true or false');
    for (const option of Object.keys(FIELDS) as StringOption[]) {
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
        ...Object.assign({}, ...(Object.entries(FIELDS) as [StringOption, (typeof FIELDS)[StringOption]][]).map(([option, field]) => optionalField(field, pick(option, current?.[field])))),
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
      const checked = PROVIDER_NAMES.filter((provider) => provider !== 'audiosocket' && hasProviderCredentials(provider, saved));
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

Removes the account's provider credentials and call defaults: its provider requests are refused until set again.`,
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
