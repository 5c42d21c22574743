// `raaga twiml`: prints the <Connect><Stream> TwiML for developers who serve their own TwiML (a TwiML Bin, their
// own webhook): the same builder and parameters as Raaga's voice webhook, with an API key parameter in place of
// the per-call token the webhook mints.

import { PUBLIC_URL_PATTERN } from '../../config.js';
import { API_KEY_PARAMETER, resolveCallParameters, SETTING_NAMES } from '../../telephony/call-parameters.js';
import { streamTwiml } from '../../telephony/twilio/twiml.js';
import { isWellFormedApiKey } from '../../store/api-key.js';
import { ACCOUNT_ID_PATTERN } from '../../store/store.js';
import { optionalString, repeatedStrings } from '../arg-parsing.js';
import { singleCommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const MEDIA_PATH = '/v1/telephony/twilio/media';

/** Settings a TwiML author may give; the numbers and the direction are the call's own, set by Raaga. */
const TWIML_SETTINGS = SETTING_NAMES.filter((name) => !['from', 'to', 'direction', 'answered_by'].includes(name));
const SETTING_OPTION_NAMES = TWIML_SETTINGS.map((name) => name.replaceAll('_', '-'));
const SETTING_OPTIONS = Object.fromEntries(SETTING_OPTION_NAMES.map((name) => [name, { type: 'string' as const }]));

/** `text` broken at spaces into lines of at most `width` characters, each indented. */
function wrapped(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((each) => `${' '.repeat(indent)}${each}`).join('\n');
}

const HELP = `Usage: raaga twiml --api-key <key|-> [--account <id>] [--public-url <https://host>] [settings] [--param name=value]...

Prints TwiML that connects a call to Raaga's media stream, for TwiML you serve yourself. Raaga's own voice
webhook (POST /v1/telephony/twilio/voice/<account>) answers the same TwiML with a short-lived call token instead
of the API key. The key travels to Twilio inside the TwiML: use a key made for this (raaga keys create).

Options:
  --api-key <key|->     the account's API key ('-' reads it from stdin); the stream's start carries it
  --account <id>        use the account's stream URL (…/media/<id>): the upgrade's X-Twilio-Signature is then
                        checked before the socket opens, when the account has a Twilio auth token
  --public-url <url>    the origin Twilio dials (default: PUBLIC_URL)
${wrapped(SETTING_OPTION_NAMES.map((name) => `--${name}`).join(', '), 2, 114)}
                        call settings (docs/telephony.md, "Call parameters")
  --param name=value    a parameter of your own, passed to the agent in call_started (repeatable)`;

export const twimlCommand = singleCommand('twiml', COMMAND_SUMMARIES.twiml, {
  help: HELP,
  options: {
      'api-key': { type: 'string' },
      account: { type: 'string' },
      'public-url': { type: 'string' },
      param: { type: 'string', multiple: true },
      ...SETTING_OPTIONS,
    },
  async run(parsed, ctx) {
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
    for (const name of TWIML_SETTINGS) {
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
