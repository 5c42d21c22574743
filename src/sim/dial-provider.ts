// How a simulated provider reaches a Raaga server, per provider, exactly as the real one would: Twilio through the
// voice webhook (signed) or the generic stream with an API key; Plivo through its answer URL (V3-signed) and the
// <Stream> URL it returns; Exotel and Asterisk straight to the account's stream with Basic credentials; Smartflo
// to the account's stream under its secret path segment; AudioSocket over TCP to the listener. Call settings travel
// the way each provider carries them.

import { randomBytes, randomUUID } from 'node:crypto';
import { openAudioSocket } from './dialects/audiosocket-connection.js';
import { AudioSocketPeerDialect } from './dialects/audiosocket.js';
import { AsteriskPeerDialect } from './dialects/asterisk.js';
import { API_KEY_PARAMETER } from '../telephony/call-parameters.js';
import { ExotelPeerDialect } from './dialects/exotel.js';
import { fetchPlivoAnswer, plivoSignatureHeaders } from './dialects/plivo-answer-client.js';
import { PlivoPeerDialect } from './dialects/plivo.js';
import { TwilioPeerDialect } from './dialects/twilio.js';
import { fetchStreamInstruction, VOICE_WEBHOOK_PATH } from './dialects/twilio-voice-webhook-client.js';
import { CallPeer, type CallPeerOptions } from './call-peer.js';
import type { SimulatedProvider } from './dial-provider-names.js';

export { SIMULATED_PROVIDERS, type SimulatedProvider } from './dial-provider-names.js';

export interface ProviderCredentials {
  /** Twilio: signs the webhook and the upgrade. */
  readonly twilioAuthToken?: string | undefined;
  /** Plivo: signs the answer URL and the upgrade. */
  readonly plivoAuthToken?: string | undefined;
  /** Exotel or Asterisk: `user:secret`, sent as Basic auth. */
  readonly basic?: string | undefined;
  /** Smartflo: the account's stream secret (any segment when the account allows unsigned streams). */
  readonly smartfloToken?: string | undefined;
}

export interface DialOptions extends Omit<CallPeerOptions, 'url' | 'dialect' | 'headers' | 'signature' | 'customParameters'> {
  readonly provider: SimulatedProvider;
  /** http(s)://host:port the simulator connects to. */
  readonly baseUrl: string;
  /** The server's PUBLIC_URL when it differs: signatures are computed over it. */
  readonly publicUrl?: string | undefined;
  /** The Raaga account (its provider URLs); without it, Twilio's generic stream with `apiKey`. */
  readonly accountId?: string | undefined;
  readonly apiKey?: string | undefined;
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

export async function dialProvider(options: DialOptions): Promise<DialedCall> {
  const { provider, baseUrl, accountId, credentials = {}, params = {} } = options;
  const publicUrl = options.publicUrl ?? baseUrl;
  const ws = (origin: string, path: string) => `${origin.replace(/^http/, 'ws')}${path}`;
  const query = Object.keys(params).length > 0 ? `?${new URLSearchParams(params)}` : '';
  const peerOptions = { ...options, customParameters: {} };
  const needAccount = (): string => {
    if (accountId === undefined) throw new Error(`${provider} streams are per account: give the account id`);
    return encodeURIComponent(accountId);
  };
  switch (provider) {
    case 'twilio': {
      if (accountId === undefined) {
        if (options.apiKey === undefined) throw new Error('without an account, a Twilio stream needs an API key');
        const url = ws(baseUrl, '/v1/telephony/twilio/media');
        const peer = await CallPeer.connect({ ...peerOptions, url, customParameters: { ...params, [API_KEY_PARAMETER]: options.apiKey }, ...signature(credentials, ws(publicUrl, '/v1/telephony/twilio/media')) });
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
    }
    case 'smartflo': {
      const url = ws(baseUrl, `/v1/telephony/smartflo/media/${needAccount()}/${credentials.smartfloToken ?? 'unsigned'}${query}`);
      const peer = await CallPeer.connect({ ...peerOptions, url, dialect: new TwilioPeerDialect('smartflo') });
      return { peer, callId: peer.start.callSid, streamUrl: url };
    }
    case 'exotel':
    case 'asterisk': {
      const url = ws(baseUrl, `/v1/telephony/${provider}/media/${needAccount()}${query}`);
      const dialect = provider === 'exotel' ? new ExotelPeerDialect() : new AsteriskPeerDialect();
      const headers: Record<string, string> = credentials.basic ? { authorization: `Basic ${Buffer.from(credentials.basic).toString('base64')}` } : {};
      // Asterisk's channel ids look like 1732445112.42.
      const callSid = provider === 'asterisk' ? `${Math.floor(Date.now() / 1000)}.${randomBytes(2).readUInt16BE()}` : undefined;
      const peer = await CallPeer.connect({ ...peerOptions, url, dialect, headers, ...(callSid ? { callSid } : {}) });
      return { peer, callId: peer.start.callSid, streamUrl: url };
    }
    case 'audiosocket': {
      const target = options.audioSocket;
      if (target === undefined) throw new Error('AudioSocket needs the listener address (host and port)');
      if (Object.keys(params).length > 0) throw new Error('AudioSocket carries no call settings: set them as the account defaults (raaga telephony set)');
      const url = `audiosocket://${target.host}:${target.port}`;
      const peer = await CallPeer.connect({ ...peerOptions, url, dialect: new AudioSocketPeerDialect(), callSid: randomUUID(), open: (timeoutMs) => openAudioSocket(target, timeoutMs) });
      return { peer, callId: peer.start.callSid, streamUrl: url };
    }
    case 'plivo': {
      const path = `/v1/telephony/plivo/answer/${needAccount()}${query}`;
      const answer = await fetchPlivoAnswer({ url: `${baseUrl}${path}`, signedUrl: `${publicUrl}${path}`, ...(credentials.plivoAuthToken ? { authToken: credentials.plivoAuthToken } : {}) });
      const stream = new URL(answer.streamUrl);
      const url = ws(baseUrl, `${stream.pathname}${stream.search}`);
      const headers = credentials.plivoAuthToken ? plivoSignatureHeaders(credentials.plivoAuthToken, 'GET', answer.streamUrl, {}) : {};
      const peer = await CallPeer.connect({ ...peerOptions, url, dialect: new PlivoPeerDialect(), headers, callSid: answer.callUuid });
      return { peer, callId: answer.callUuid, streamUrl: answer.streamUrl };
    }
  }
}

function signature(credentials: ProviderCredentials, signedUrl: string): Pick<CallPeerOptions, 'signature'> {
  return credentials.twilioAuthToken ? { signature: { authToken: credentials.twilioAuthToken, url: signedUrl } } : {};
}
