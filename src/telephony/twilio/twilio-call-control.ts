// Hangup and transfer of a live call. With the account's Twilio REST credentials: `calls(sid).update` (status
// completed, or new TwiML that dials the transfer target). Without: close the media stream, so the TwiML after
// <Connect> runs (the developer's own verbs; with Raaga's webhook TwiML nothing follows and the call ends).

import twilio from 'twilio';
import type { CallControlPort } from '../../session/call-events.js';
import type { TelephonySettings } from '../../store/store.js';
import { twilioCredentials } from './twilio-credentials.js';
import { TWILIO_DIAL_ACTION_PATH } from './twilio-paths.js';
import { dialTwiml } from './twiml.js';

/** The action URL carries the call's settings only while it stays this short (Twilio's URL limits are undocumented). */
const MAX_DIAL_ACTION_URL = 2000;
/** The settings a call resumes with when its transfer fails: how it spoke, and its agent or fallback message. */
const RESUMED_SETTINGS = ['voice', 'language', 'speed', 'agent_url', 'agent_audio', 'barge_in', 'fallback_message'];

/**
 * The dial action URL of a call: its settings that matter after a failed transfer ride in the query (signed by
 * Twilio with the URL); whatever would make it too long is left to the account's defaults.
 */
export function dialActionUrl(origin: string, accountId: string, parameters: Readonly<Record<string, string>>): string {
  const base = `${origin}${TWILIO_DIAL_ACTION_PATH}/${encodeURIComponent(accountId)}`;
  const query = new URLSearchParams();
  for (const name of RESUMED_SETTINGS) {
    const value = parameters[name];
    if (value === undefined || value === '') continue;
    query.set(name, value);
    if (`${base}?${query}`.length > MAX_DIAL_ACTION_URL) query.delete(name);
  }
  const search = query.toString();
  return search ? `${base}?${search}` : base;
}

/** Call control (hangup, transfer) gives up on Twilio's API after this long. */
const REST_TIMEOUT_MS = 5000;

/** Sends the REST calls to the account's own API host (a regional edge, a proxy, or a local stand-in). */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(
    private readonly baseUrl: string,
    timeoutMs: number,
  ) {
    super({ timeout: timeoutMs });
  }

  override request<TData>(opts: Parameters<twilio.RequestClient['request']>[0] & { data?: TData }) {
    return super.request<TData>({ ...opts, uri: opts.uri.replace(/^https:\/\/[^/]+/, this.baseUrl) });
  }
}

/** A REST client for the account, or undefined when its settings have no usable credentials. */
export function twilioRestClient(settings: TelephonySettings | null, timeoutMs = REST_TIMEOUT_MS): twilio.Twilio | undefined {
  const { twilioAccountSid, twilioApiBaseUrl, twilioApiKey, twilioApiSecret, twilioAuthToken } = twilioCredentials.read(settings);
  if (!twilioAccountSid) return undefined;
  const httpClient = twilioApiBaseUrl ? new RebasedRequestClient(twilioApiBaseUrl, timeoutMs) : undefined;
  const opts = { accountSid: twilioAccountSid, autoRetry: false, timeout: timeoutMs, ...(httpClient ? { httpClient } : {}) };
  // An API key is preferred (revocable, scoped); the auth token also works for REST.
  if (twilioApiKey && twilioApiSecret) return twilio(twilioApiKey, twilioApiSecret, opts);
  if (twilioAuthToken) return twilio(twilioAccountSid, twilioAuthToken, opts);
  return undefined;
}

export function twilioCallControl(
  client: twilio.Twilio | undefined,
  callSid: string,
  closeStream: (reason: string) => void,
  /** Where Twilio reports how a transfer's dial ended (dialActionUrl); undefined: nowhere (the call then ends). */
  dialAction?: string,
): CallControlPort {
  return {
    async hangup() {
      if (!client) return closeStream('hangup');
      await client.calls(callSid).update({ status: 'completed' });
    },
    async transfer(to, options) {
      if (!client) {
        closeStream('transfer');
        return 'stream-ended';
      }
      await client.calls(callSid).update({ twiml: dialTwiml(to, options, dialAction) });
      return 'redirected';
    },
  };
}
