// `raaga twiml`: prints the <Connect><Stream> TwiML for developers who serve their own TwiML (a TwiML Bin, their
// own webhook): the same builder and parameters as Raaga's voice webhook, with an API key parameter in place of
// the per-call token the webhook mints.

import { PUBLIC_URL_PATTERN } from '../../config.js';
import { API_KEY_PARAMETER, resolveCallParameters, SETTING_NAMES } from '../../telephony/call-parameters.js';
import { streamTwiml } from '../../telephony/twilio/twiml.js';
import { isWellFormedApiKey } from '../../store/api-key.js';
import { ACCOUNT_ID_PATTERN } from '../../store/store.js';
import { optionalString, parseCommandArgs, repeatedStrings } from '../arg-parsing.js';
import { singleCommand, UsageError } from '../cli-command.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const MEDIA_PATH = '/v1/telephony/twilio/media';

const HELP = `Usage: raaga twiml --api-key <key|-> [--account <id>] [--public-url <https://host>] [settings] [--param name=value]...

Prints TwiML that connects a call to Raaga's media stream, for TwiML you serve yourself. Raaga's own voice
webhook (POST /v1/telephony/twilio/voice/<account>) answers the same TwiML with a short-lived call token instead
of the API key. The key travels to Twilio inside the TwiML: use a key made for this (raaga keys create).

Options:
  --api-key <key|->     the account's API key ('-' reads it from stdin); the stream's start carries it
  --account <id>        use the account's stream URL (…/media/<id>): the upgrade's X-Twilio-Signature is then
                        checked before the socket opens, when the account has a Twilio auth token
  --public-url <url>    the origin Twilio dials (default: PUBLIC_URL)
  --voice, --language, --speed, --agent-url, --agent-audio, --greeting, --greeting-interruptible, --barge-in,
  --min-speech-ms, --barge-in-only-while-speaking, --fallback-message
                        call settings (docs/telephony.md, "Call parameters")
  --param name=value    a parameter of your own, passed to the agent in call_started (repeatable)`;

const SETTING_OPTIONS = Object.fromEntries(SETTING_NAMES.filter((name) => name !== 'from' && name !== 'to').map((name) => [name.replaceAll('_', '-'), { type: 'string' as const }]));

export const twimlCommand = singleCommand('twiml', COMMAND_SUMMARIES.twiml, {
  help: HELP,
  async run(args, ctx) {
    const parsed = parseCommandArgs(args, {
      'api-key': { type: 'string' },
      account: { type: 'string' },
      'public-url': { type: 'string' },
      param: { type: 'string', multiple: true },
      ...SETTING_OPTIONS,
    });
    const fail = (message: string): never => {
      throw new UsageError(message);
    };
    const keyArg = optionalString(parsed, 'api-key') ?? fail('--api-key is required (the start of the stream must say which account pays)');
    const apiKey = keyArg === '-' ? (await ctx.readStdin()).trim() : keyArg;
    if (!isWellFormedApiKey(apiKey)) fail('--api-key is not a well-formed API key (rk_live_ + 32 or more letters and digits)');
    const account = optionalString(parsed, 'account');
    if (account !== undefined && !ACCOUNT_ID_PATTERN.test(account)) fail('--account is not a valid account id');
    const publicUrl = (optionalString(parsed, 'public-url') ?? ctx.telephony?.publicUrl)?.replace(/\/+$/, '');
    if (!publicUrl) fail('--public-url (or PUBLIC_URL) is required: the https origin Twilio reaches');
    if (!PUBLIC_URL_PATTERN.test(publicUrl ?? '')) fail('--public-url must be http(s)://host[:port][/base]');

    const settings: Record<string, string> = {};
    for (const name of SETTING_NAMES) {
      const value = optionalString(parsed, name.replaceAll('_', '-'));
      if (value !== undefined) settings[name] = value;
    }
    const own: Record<string, string> = {};
    for (const pair of repeatedStrings(parsed, 'param')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) fail(`--param must be name=value, got '${pair}'`);
      const name = pair.slice(0, eq);
      if ((SETTING_NAMES as string[]).includes(name) || name.startsWith('raaga_')) fail(`--param '${name}' is a reserved name; use its own option`);
      own[name] = pair.slice(eq + 1);
    }
    if (ctx.telephony) {
      const checked = resolveCallParameters(ctx.telephony, [settings]);
      if (!checked.ok) fail(checked.message);
    }
    const streamUrl = `${(publicUrl ?? '').replace(/^http/, 'ws')}${MEDIA_PATH}${account === undefined ? '' : `/${account}`}`;
    ctx.out(streamTwiml({ streamUrl, parameters: { ...settings, ...own, [API_KEY_PARAMETER]: apiKey } }));
  },
});
