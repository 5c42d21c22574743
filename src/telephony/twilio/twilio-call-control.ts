// Hangup and transfer of a live call. With the account's Twilio REST credentials: `calls(sid).update` (status
// completed, or new TwiML that dials the transfer target). Without: close the media stream, so the TwiML after
// <Connect> runs (the developer's own verbs; with Raaga's webhook TwiML nothing follows and the call ends).

import twilio from 'twilio';
import type { CallControlPort } from '../../session/call-events.js';
import type { TelephonySettings } from '../../store/store.js';
import { dialTwiml } from './twiml.js';

/** Sends the REST calls to the account's own API host (a regional edge, a proxy, or a local stand-in). */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly baseUrl: string) {
    super({ timeout: 5000 });
  }

  override request<TData>(opts: Parameters<twilio.RequestClient['request']>[0] & { data?: TData }) {
    return super.request<TData>({ ...opts, uri: opts.uri.replace(/^https:\/\/[^/]+/, this.baseUrl) });
  }
}

/** A REST client for the account, or undefined when its settings have no usable credentials. */
export function twilioRestClient(settings: TelephonySettings | null): twilio.Twilio | undefined {
  if (!settings?.twilioAccountSid) return undefined;
  const httpClient = settings.twilioApiBaseUrl ? new RebasedRequestClient(settings.twilioApiBaseUrl) : undefined;
  const opts = { accountSid: settings.twilioAccountSid, autoRetry: false, timeout: 5000, ...(httpClient ? { httpClient } : {}) };
  // An API key is preferred (revocable, scoped); the auth token also works for REST.
  if (settings.twilioApiKey && settings.twilioApiSecret) return twilio(settings.twilioApiKey, settings.twilioApiSecret, opts);
  if (settings.twilioAuthToken) return twilio(settings.twilioAccountSid, settings.twilioAuthToken, opts);
  return undefined;
}

export function twilioCallControl(
  client: twilio.Twilio | undefined,
  callSid: string,
  closeStream: (reason: string) => void,
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
      await client.calls(callSid).update({ twiml: dialTwiml(to, options) });
      return 'redirected';
    },
  };
}
