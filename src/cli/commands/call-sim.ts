// `raaga call-sim`: plays a provider's role (any provider of telephony/providers.ts) in one call against any Raaga
// server (no public URL needed): reaches the stream as that provider does, talks as the caller in real time, listens
// like the provider, and prints the timeline and a summary. The peer lives in src/sim/; the providers and the
// credential options (the fields each simulated provider presents, named as `raaga telephony set` names them) come
// from the provider modules.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LANGUAGE_CODES } from '../../languages.js';
import { presentedCredentialFields, SIMULATED_PROVIDERS, type ProviderCredentials, type SimulatedProvider } from '../../sim/dial-provider.js';
import type { CallerClip } from '../../sim/caller-audio.js';
import type { PeerSummary, TimelineEvent } from '../../sim/call-peer.js';
import type { CredentialField } from '../../telephony/provider-credentials.js';
import { oneOf, optionalString, optionTable, parseLanguage, repeatedStrings, requireString, type Parsed } from '../arg-parsing.js';
import { singleCommand, type CliContext } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { orList } from '../nearest-choice.js';

const VOICE_WEBHOOK_PATH = '/v1/telephony/twilio/voice';

/** Each credential option once, with the providers that present it (two providers may share a field's option). */
const CREDENTIAL_OPTIONS: readonly { readonly field: CredentialField; readonly provider: SimulatedProvider }[] = SIMULATED_PROVIDERS.flatMap((provider) =>
  presentedCredentialFields(provider).map((field) => ({ field, provider })),
);

const HELP_COLUMN = 28;

function optionLine(usage: string, text: string): string {
  const head = `  ${usage}`;
  return head.length < HELP_COLUMN ? `${head.padEnd(HELP_COLUMN)}${text}` : `${head}\n${' '.repeat(HELP_COLUMN)}${text}`;
}

const HELP = `Usage: raaga call-sim --url <base> [--provider <name>] [options]
       raaga call-sim --provider audiosocket --audiosocket <host:port> [options]

Plays a provider's side of one phone call against a Raaga server, exactly as that provider speaks: reaches the
stream the way it does (Twilio's voice webhook with --webhook, Plivo's answer URL, Exotel/Asterisk/Smartflo
straight to the account's stream, AudioSocket over TCP to the listener), sends the caller's audio in real time in
the provider's message size and format, plays the bot's audio out as the provider does (marks acknowledged once
their audio has played; clear drops pending marks, or echoes them on Twilio), then prints a timeline and a summary.

Options:
  --url <base>              Raaga base URL, e.g. http://127.0.0.1:8080 (required)
  --provider <name>         ${orList(SIMULATED_PROVIDERS.map((name) => (name === 'twilio' ? 'twilio (default)' : name)))}
  --audiosocket <host:port> AudioSocket: the server's listener (AUDIOSOCKET_PORT); the call uses the defaults
                            of AUDIOSOCKET_ACCOUNT, since AudioSocket carries no parameters
  --webhook                 POST ${VOICE_WEBHOOK_PATH}/<account> first and open the stream its TwiML names
  --account <id>            The Raaga account (required with --webhook and for every provider but Twilio)
  --api-key <key>           Without --webhook: the API key the call is billed to (sent as the raaga_api_key parameter)
  --public-url <base>       The server's PUBLIC_URL when it differs from --url; signatures are computed over it
  --param <name=value>      A call setting (greeting=…, voice=…, agent_url=…) or your own parameter (repeatable)
  --caller-wav <file>       Caller audio from a 16-bit PCM WAV file (any rate), starting at --at
  --caller-say "<text>"     Caller speech made by the embedded engine, starting at --at
  --caller-language <code>  Language of --caller-say (default hi-IN)
  --caller-voice <name>     Voice of --caller-say (default: the catalog's first voice)
  --at <time>               When the caller starts talking (default 2s)
  --dtmf <digit@time>       Press a key at a time, e.g. --dtmf 1@3s (repeatable)
  --duration <time>         How long the call lasts (default 10s)
  --end stop|drop           End with the provider's stop (default) or by dropping the connection
  --out <file.wav>          Write what the caller heard (8 kHz, 16-bit WAV)
Credentials the provider presents: the account's values as 'raaga telephony set' stores them, under the same
names ('-' reads one from stdin):
${CREDENTIAL_OPTIONS.map(({ field, provider }) => optionLine(`--${field.option} ${field.value}`, `${provider}: ${field.help.split('\n').join(' ')}`)).join('\n')}
Times: 2.5s, 2500ms, or plain seconds. Languages: ${LANGUAGE_CODES.join(', ')}.`;

/** The credential values given on the command line, by field name; a secret given as '-' is read from stdin. */
async function givenCredentials(parsed: Parsed, ctx: CliContext): Promise<ProviderCredentials> {
  const values: Record<string, string> = {};
  let stdinTaken = false;
  for (const { field } of CREDENTIAL_OPTIONS) {
    const raw = optionalString(parsed, field.option);
    if (raw === undefined) continue;
    if (raw === '-') {
      if (stdinTaken) throw new UsageError('only one option can read from stdin (-)');
      stdinTaken = true;
      values[field.field] = (await ctx.readStdin()).trim();
    } else values[field.field] = raw;
  }
  return values;
}

/** `2.5s`, `2500ms` or `2.5` (seconds) → ms. */
export function parseTimeMs(raw: string, name: string): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(ms|s)?$/.exec(raw.trim());
  if (!match) throw new UsageError(`--${name} must be a time like 2.5s or 2500ms, got '${raw}'`, 'call-sim');
  return match[2] === 'ms' ? Number(match[1]) : Number(match[1]) * 1000;
}

function parseDtmf(raw: string): { digit: string; atMs: number } {
  const match = /^([0-9*#A-Da-d])@(.+)$/.exec(raw);
  if (!match) throw new UsageError(`--dtmf must look like 1@3s, got '${raw}'`, 'call-sim');
  return { digit: match[1]!.toUpperCase(), atMs: parseTimeMs(match[2]!, 'dtmf') };
}

function hostPort(raw: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(raw);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65_535) throw new UsageError(`--audiosocket must be host:port, got '${raw}'`, 'call-sim');
  return { host: match[1]!, port };
}

function parseParam(raw: string): [string, string] {
  const at = raw.indexOf('=');
  if (at <= 0) throw new UsageError(`--param must look like name=value, got '${raw}'`, 'call-sim');
  return [raw.slice(0, at), raw.slice(at + 1)];
}

function baseUrl(raw: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--${name} must be a URL like http://127.0.0.1:8080, got '${raw}'`, 'call-sim');
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) throw new UsageError(`--${name} must be http(s) or ws(s)`, 'call-sim');
  return url;
}

function formatTimeline(events: readonly TimelineEvent[]): string[] {
  return events.map((e) => `  ${(e.atMs / 1000).toFixed(3).padStart(8)}s  ${e.kind.padEnd(15)}${e.detail === undefined ? '' : ` ${e.detail}`}`.trimEnd());
}

function formatSummary(summary: PeerSummary, callSid: string, out: string | undefined): string[] {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const { playout } = summary;
  return [
    'Summary',
    `  call         ${callSid}, ${seconds(summary.elapsedMs)}, ${summary.framesSent} frames sent, closed with ${summary.closeCode ?? '-'}`,
    `  first audio  ${summary.firstMediaInMs === undefined ? 'none received' : `${summary.firstMediaInMs.toFixed(0)} ms after the stream opened`}`,
    `  marks        ${summary.marksReceived} received, ${summary.marksEchoed} echoed (${summary.marksEchoedByClear} by clear)`,
    `  barge-in     ${summary.bargeInMs === undefined ? (summary.clears > 0 ? `${summary.clears} clear(s), none after caller speech` : 'no clear') : `${summary.bargeInBy === 'clear' ? 'clear' : 'bot audio stopped'} ${summary.bargeInMs.toFixed(0)} ms after the first caller speech frame`}`,
    `  resumed      ${summary.replays === 0 ? 'none' : `${summary.replays} hold(s): ${summary.repeatedMs.toFixed(0)} ms heard twice, ${summary.lostMs.toFixed(0)} ms lost`}`,
    `  playout      ${seconds(playout.receivedMs)} received, ${seconds(playout.clearedMs)} cleared, ${playout.underruns} underrun(s)${playout.underruns > 0 ? ` (worst ${playout.maxLateMs.toFixed(0)} ms late)` : ''}`,
    ...(summary.badMessages > 0 ? [`  warnings     ${summary.badMessages} message(s) the provider would reject (see timeline)`] : []),
    ...(out === undefined ? [] : [`  heard        ${out}`]),
  ];
}

export const callSimCommand = singleCommand('call-sim', COMMAND_SUMMARIES['call-sim'], {
  help: HELP,
  options: optionTable({
    strings: [
      'url', 'audiosocket', 'account', 'api-key', 'public-url', 'provider', 'caller-wav', 'caller-say', 'caller-language', 'caller-voice', 'at', 'duration', 'end', 'out',
      ...new Set(CREDENTIAL_OPTIONS.map(({ field }) => field.option)),
    ],
    flags: ['webhook'],
    repeated: ['param', 'dtmf'],
  }),
  async run(parsed, ctx) {
    const provider = oneOf(optionalString(parsed, 'provider') ?? 'twilio', 'provider', SIMULATED_PROVIDERS);
    const audioSocket = provider === 'audiosocket' ? hostPort(requireString(parsed, 'audiosocket')) : undefined;
    // AudioSocket needs no HTTP base URL; any --url given is only checked.
    const url = baseUrl(audioSocket && parsed.values.url === undefined ? 'http://127.0.0.1' : requireString(parsed, 'url'), 'url');
    const publicRaw = optionalString(parsed, 'public-url');
    const publicUrl = publicRaw === undefined ? url : baseUrl(publicRaw, 'public-url');
    const durationMs = parseTimeMs(optionalString(parsed, 'duration') ?? '10s', 'duration');
    const atMs = parseTimeMs(optionalString(parsed, 'at') ?? '2s', 'at');
    const end = oneOf(optionalString(parsed, 'end') ?? 'stop', 'end', ['stop', 'drop']);
    const dtmf = repeatedStrings(parsed, 'dtmf').map(parseDtmf);
    const params = Object.fromEntries(repeatedStrings(parsed, 'param').map(parseParam));
    const callerWav = optionalString(parsed, 'caller-wav');
    const callerSay = optionalString(parsed, 'caller-say');
    if (callerWav !== undefined && callerSay !== undefined) throw new UsageError('give --caller-wav or --caller-say, not both', 'call-sim');
    const callerLanguage = parseLanguage(optionalString(parsed, 'caller-language') ?? 'hi-IN', 'caller-language');
    const out = optionalString(parsed, 'out');

    // Loaded here, not at the top: twilio, ws and the engine would slow every other `raaga` command's start.
    const [{ CallerTrack, wavToMulaw }, { CallerVoice }, { dialProvider }] = await Promise.all([
      import('../../sim/caller-audio.js'),
      import('../../sim/caller-speech.js'),
      import('../../sim/dial-provider.js'),
    ]);
    const clips: CallerClip[] = [];
    if (callerWav !== undefined) clips.push({ atMs, mulaw: wavToMulaw(new Uint8Array(await readFile(callerWav))), label: callerWav });
    if (callerSay !== undefined) {
      const voice = await CallerVoice.start(join(ctx.modelsDir, 'raaga-v1', 'manifest.json'));
      try {
        const callerVoice = optionalString(parsed, 'caller-voice');
        const mulaw = await voice.say({ text: callerSay, language: callerLanguage, ...(callerVoice === undefined ? {} : { voice: callerVoice }) });
        clips.push({ atMs, mulaw, label: `"${callerSay}"` });
      } finally {
        await voice.close();
      }
    }

    const account = optionalString(parsed, 'account');
    const apiKey = optionalString(parsed, 'api-key');
    if (provider === 'twilio' && parsed.values.webhook === true && account === undefined) throw new UsageError('--webhook needs --account <id>: the voice webhook is per account', 'call-sim');
    if (audioSocket && Object.keys(params).length > 0) throw new UsageError('AudioSocket carries no call parameters: set them as the account defaults (raaga telephony set --default)', 'call-sim');
    if (provider !== 'twilio' && provider !== 'audiosocket' && account === undefined) throw new UsageError(`--provider ${provider} needs --account <id>: its stream URL is per account`, 'call-sim');
    const { peer, callId, streamUrl } = await dialProvider({
      provider,
      baseUrl: `${url.protocol.replace('ws', 'http')}//${url.host}`,
      publicUrl: `${publicUrl.protocol.replace('ws', 'http')}//${publicUrl.host}`,
      // Twilio without --webhook: the generic stream, billed to the API key.
      accountId: provider === 'twilio' && parsed.values.webhook !== true ? undefined : account,
      apiKey,
      credentials: await givenCredentials(parsed, ctx),
      params,
      audioSocket,
      caller: new CallerTrack(clips),
      dtmf,
    });
    ctx.out(`Call ${callId} (${provider}) on ${streamUrl} for ${(durationMs / 1000).toFixed(1)} s`);
    await peer.runUntil(durationMs);
    const heardUntilMs = peer.elapsedMs();
    if (end === 'drop') await peer.drop();
    else await peer.stop();
    if (out !== undefined) await writeFile(out, peer.heardWav(heardUntilMs));
    ctx.out('Timeline');
    for (const line of formatTimeline(peer.timeline)) ctx.out(line);
    for (const line of formatSummary(peer.summary(), callId, out)) ctx.out(line);
  },
});
