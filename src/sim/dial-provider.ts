// How a simulated provider reaches a Raaga server, one entry per provider of telephony/providers.ts (the Record type
// makes a provider without one a compile error), exactly as the real one would: Twilio through the voice webhook
// (signed) or the generic stream with an API key or call token; Plivo through its answer URL (V3-signed) and the
// <Stream> URL it returns; Exotel and Asterisk straight to the account's stream with Basic credentials; Smartflo to
// the account's stream under its secret path segment; AudioSocket over TCP to the listener. Call settings travel the
// way each provider carries them. Each entry also says what the provider presents from an account's stored settings.

import { randomBytes, randomUUID } from 'node:crypto';
import type { TelephonySettings } from '../store/store.js';
import { API_KEY_PARAMETER, TOKEN_PARAMETER } from '../telephony/call-parameters.js';
import { asteriskCredentials } from '../telephony/asterisk/asterisk-module.js';
import { exotelCredentials } from '../telephony/exotel/exotel-credentials.js';
import { plivoCredentials } from '../telephony/plivo/plivo-credentials.js';
import type { CredentialField, CredentialValues, ProviderCredentials as ModuleCredentials } from '../telephony/provider-credentials.js';
import type { ProviderName } from '../telephony/providers.js';
import { smartfloCredentials } from '../telephony/twilio/smartflo-module.js';
import { twilioCredentials } from '../telephony/twilio/twilio-credentials.js';
import { CallPeer, type CallPeerOptions } from './call-peer.js';
import { openAudioSocket } from './dialects/audiosocket-connection.js';
import { AudioSocketPeerDialect } from './dialects/audiosocket.js';
import { AsteriskPeerDialect } from './dialects/asterisk.js';
import { ExotelPeerDialect } from './dialects/exotel.js';
import { fetchPlivoAnswer, plivoSignatureHeaders } from './dialects/plivo-answer-client.js';
import { PlivoPeerDialect } from './dialects/plivo.js';
import { TwilioPeerDialect } from './dialects/twilio.js';
import { fetchStreamInstruction, VOICE_WEBHOOK_PATH } from './dialects/twilio-voice-webhook-client.js';
import type { SimulatedProvider } from './dial-provider-names.js';

export { SIMULATED_PROVIDERS, type SimulatedProvider } from './dial-provider-names.js';

/**
 * What a simulated provider presents, by its module's credential field names (the names the store keeps them under):
 * `twilioAuthToken` and `plivoAuthToken` sign, `exotelCredentials` and `asteriskCredentials` (`user:secret`) are sent
 * as Basic auth, `smartfloToken` is the stream's secret path segment (any segment when the account allows unsigned).
 */
export type ProviderCredentials = CredentialValues;

export interface DialOptions extends Omit<CallPeerOptions, 'url' | 'dialect' | 'headers' | 'signature' | 'customParameters'> {
  readonly provider: SimulatedProvider;
  /** http(s)://host:port the simulator connects to. */
  readonly baseUrl: string;
  /** The server's PUBLIC_URL when it differs: signatures are computed over it. */
  readonly publicUrl?: string | undefined;
  /** The Raaga account (its provider URLs); without it, Twilio's generic stream with `apiKey`. */
  readonly accountId?: string | undefined;
  readonly apiKey?: string | undefined;
  /** Twilio: its generic stream with a call token for the CallSid, minted by the caller as Raaga's answer step would. */
  readonly callToken?: ((callSid: string) => string) | undefined;
  readonly credentials?: ProviderCredentials;
  /** AudioSocket: the server's TCP listener (AudioSocket carries no settings: the account's defaults apply). */
  readonly audioSocket?: { readonly host: string; readonly port: number; readonly localAddress?: string } | undefined;
  /** Call settings (voice, greeting, agent_url, …) and the developer's own parameters. */
  readonly params?: Readonly<Record<string, string>>;
}

export interface DialedCall {
  readonly peer: CallPeer;
  /** The provider's call id, which REST call control takes. */
  readonly callId: string;
  readonly streamUrl: string;
}

interface SimulatedSide {
  /** The fields of its module's credentials it presents (what `raaga call-sim` takes as options). */
  readonly presents: readonly CredentialField[];
  /** What the provider presents, from the account's stored credentials for it; undefined when none are stored. */
  storedCredentials(settings: TelephonySettings | null): ProviderCredentials | undefined;
  dial(options: DialOptions, context: DialContext): Promise<DialedCall>;
}

interface DialContext {
  readonly credentials: ProviderCredentials;
  readonly params: Readonly<Record<string, string>>;
  readonly publicUrl: string;
  /** `?settings` of the call, or ''. */
  readonly query: string;
  readonly peerOptions: DialOptions & { readonly customParameters: Readonly<Record<string, string>> };
  /** The account's id for its URL; throws when the options have none. */
  needAccount(): string;
}

const ws = (origin: string, path: string) => `${origin.replace(/^http/, 'ws')}${path}`;
const basicHeaders = (basic: string | undefined): Record<string, string> =>
  basic ? { authorization: `Basic ${Buffer.from(basic).toString('base64')}` } : {};

/** The named fields of a module's credentials, checked against its field names by the compiler. */
function fieldsOf<const TField extends string>(credentials: ModuleCredentials<TField>, names: readonly TField[]): readonly CredentialField[] {
  return credentials.fields.filter((field) => names.includes(field.field));
}

const twilio: SimulatedSide = {
  presents: fieldsOf(twilioCredentials, ['twilioAuthToken']),
  // Twilio's calls are simulated with or without a stored auth token: the token only signs.
  storedCredentials: (settings) => {
    const { twilioAuthToken } = twilioCredentials.read(settings);
    return twilioAuthToken ? { twilioAuthToken } : {};
  },
  async dial(options, { credentials, params, publicUrl, peerOptions, needAccount }) {
    const { baseUrl } = options;
    if (options.accountId === undefined || options.callToken !== undefined) {
      const path = '/v1/telephony/twilio/media';
      const signature = credentials.twilioAuthToken ? { signature: { authToken: credentials.twilioAuthToken, url: ws(publicUrl, path) } } : {};
      const url = ws(baseUrl, path);
      if (options.callToken !== undefined) {
        // What the voice webhook would answer, minted by the caller: the token is bound to this CallSid.
        const callSid = `CA${randomBytes(16).toString('hex')}`;
        const peer = await CallPeer.connect({ ...peerOptions, url, callSid, customParameters: { ...params, [TOKEN_PARAMETER]: options.callToken(callSid) }, ...signature });
        return { peer, callId: peer.start.callSid, streamUrl: url };
      }
      if (options.apiKey === undefined) throw new Error('without an account, a Twilio stream needs an API key');
      const peer = await CallPeer.connect({ ...peerOptions, url, customParameters: { ...params, [API_KEY_PARAMETER]: options.apiKey }, ...signature });
      return { peer, callId: peer.start.callSid, streamUrl: url };
    }
    // Settings ride as extra <Parameter>s of the start, over the TwiML's own (a developer's TwiML would add them so).
    const path = `${VOICE_WEBHOOK_PATH}/${needAccount()}`;
    const instruction = await fetchStreamInstruction({ url: `${baseUrl}${path}`, signedUrl: `${publicUrl}${path}`, ...(credentials.twilioAuthToken ? { authToken: credentials.twilioAuthToken } : {}) });
    // Dial the stream's path on the base URL: the TwiML names the public host, which may not be reachable from here.
    const url = ws(baseUrl, new URL(instruction.streamUrl).pathname);
    const peer = await CallPeer.connect({
      ...peerOptions,
      url,
      callSid: instruction.params.CallSid!,
      accountSid: instruction.params.AccountSid!,
      customParameters: { ...instruction.parameters, ...params },
      ...(credentials.twilioAuthToken ? { signature: { authToken: credentials.twilioAuthToken, url: instruction.streamUrl } } : {}),
    });
    return { peer, callId: peer.start.callSid, streamUrl: instruction.streamUrl };
  },
};

const smartflo: SimulatedSide = {
  presents: fieldsOf(smartfloCredentials, ['smartfloToken']),
  storedCredentials: (settings) => {
    const { smartfloToken } = smartfloCredentials.read(settings);
    return smartfloToken ? { smartfloToken } : undefined;
  },
  async dial(options, { credentials, query, peerOptions, needAccount }) {
    const url = ws(options.baseUrl, `/v1/telephony/smartflo/media/${needAccount()}/${credentials.smartfloToken ?? 'unsigned'}${query}`);
    const peer = await CallPeer.connect({ ...peerOptions, url, dialect: new TwilioPeerDialect('smartflo') });
    return { peer, callId: peer.start.callSid, streamUrl: url };
  },
};

const exotel: SimulatedSide = {
  presents: fieldsOf(exotelCredentials, ['exotelCredentials']),
  storedCredentials: (settings) => {
    const basic = exotelCredentials.read(settings).exotelCredentials;
    return basic ? { exotelCredentials: basic } : undefined;
  },
  async dial(options, { credentials, query, peerOptions, needAccount }) {
    const url = ws(options.baseUrl, `/v1/telephony/exotel/media/${needAccount()}${query}`);
    const peer = await CallPeer.connect({ ...peerOptions, url, dialect: new ExotelPeerDialect(), headers: basicHeaders(credentials.exotelCredentials) });
    return { peer, callId: peer.start.callSid, streamUrl: url };
  },
};

const asterisk: SimulatedSide = {
  presents: fieldsOf(asteriskCredentials, ['asteriskCredentials']),
  storedCredentials: (settings) => {
    const basic = asteriskCredentials.read(settings).asteriskCredentials;
    return basic ? { asteriskCredentials: basic } : undefined;
  },
  async dial(options, { credentials, query, peerOptions, needAccount }) {
    const url = ws(options.baseUrl, `/v1/telephony/asterisk/media/${needAccount()}${query}`);
    // Asterisk's channel ids look like 1732445112.42.
    const callSid = `${Math.floor(Date.now() / 1000)}.${randomBytes(2).readUInt16BE()}`;
    const peer = await CallPeer.connect({ ...peerOptions, url, dialect: new AsteriskPeerDialect(), headers: basicHeaders(credentials.asteriskCredentials), callSid });
    return { peer, callId: peer.start.callSid, streamUrl: url };
  },
};

const audiosocket: SimulatedSide = {
  // AudioSocket carries no credentials: the listener's allowed networks are its check.
  presents: [],
  storedCredentials: () => ({}),
  async dial(options, { params, peerOptions }) {
    const target = options.audioSocket;
    if (target === undefined) throw new Error('AudioSocket needs the listener address (host and port)');
    if (Object.keys(params).length > 0) throw new Error('AudioSocket carries no call settings: set them as the account defaults (raaga telephony set)');
    const url = `audiosocket://${target.host}:${target.port}`;
    const peer = await CallPeer.connect({ ...peerOptions, url, dialect: new AudioSocketPeerDialect(), callSid: randomUUID(), open: (timeoutMs) => openAudioSocket(target, timeoutMs) });
    return { peer, callId: peer.start.callSid, streamUrl: url };
  },
};

const plivo: SimulatedSide = {
  presents: fieldsOf(plivoCredentials, ['plivoAuthToken']),
  storedCredentials: (settings) => {
    const { plivoAuthToken } = plivoCredentials.read(settings);
    return plivoAuthToken ? { plivoAuthToken } : undefined;
  },
  async dial(options, { credentials, query, publicUrl, peerOptions, needAccount }) {
    const path = `/v1/telephony/plivo/answer/${needAccount()}${query}`;
    const answer = await fetchPlivoAnswer({ url: `${options.baseUrl}${path}`, signedUrl: `${publicUrl}${path}`, ...(credentials.plivoAuthToken ? { authToken: credentials.plivoAuthToken } : {}) });
    const stream = new URL(answer.streamUrl);
    const url = ws(options.baseUrl, `${stream.pathname}${stream.search}`);
    const headers = credentials.plivoAuthToken ? plivoSignatureHeaders(credentials.plivoAuthToken, 'GET', answer.streamUrl, {}) : {};
    const peer = await CallPeer.connect({ ...peerOptions, url, dialect: new PlivoPeerDialect(), headers, callSid: answer.callUuid });
    return { peer, callId: answer.callUuid, streamUrl: answer.streamUrl };
  },
};

const SIMULATED: Readonly<Record<ProviderName, SimulatedSide>> = { twilio, smartflo, exotel, plivo, asterisk, audiosocket };

/** The credential fields a simulated provider presents, as its module declares them (options, value, help). */
export function presentedCredentialFields(provider: SimulatedProvider): readonly CredentialField[] {
  return SIMULATED[provider].presents;
}

/** What the simulated provider presents from the account's stored settings; undefined when it has none for it. */
export function storedCredentials(provider: SimulatedProvider, settings: TelephonySettings | null): ProviderCredentials | undefined {
  return SIMULATED[provider].storedCredentials(settings);
}

export async function dialProvider(options: DialOptions): Promise<DialedCall> {
  const { provider, accountId, credentials = {}, params = {} } = options;
  return SIMULATED[provider].dial(options, {
    credentials,
    params,
    publicUrl: options.publicUrl ?? options.baseUrl,
    query: Object.keys(params).length > 0 ? `?${new URLSearchParams(params)}` : '',
    peerOptions: { ...options, customParameters: {} },
    needAccount: () => {
      if (accountId === undefined) throw new Error(`${provider} streams are per account: give the account id`);
      return encodeURIComponent(accountId);
    },
  });
}
