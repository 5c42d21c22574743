// Twilio as a provider module: its Media Streams codec; hangup/transfer through its REST API when the account has
// credentials (else by closing the stream, so the TwiML after <Connect> runs), a transfer's dial reporting back to
// Raaga's dial action so a failed one resumes the call; X-Twilio-Signature as its authenticator; the generic media
// path (a call token or API key pays) and the account's own; its webhooks; and its outbound dialer.

import type { TelephonySettings } from '../../store/store.js';
import type { ProviderModule } from '../provider-module.js';
import { providerRequestsAllowed } from '../provider-credentials.js';
import { ACCEPTED, singleHeader, type Authentication, type ProviderRequest } from '../provider-request.js';
import { dialActionUrl, twilioCallControl, twilioRestClient } from './twilio-call-control.js';
import { TwilioCodec } from './twilio-codec.js';
import { twilioCredentials } from './twilio-credentials.js';
import { twilioDialer } from './twilio-dialer.js';
import { TWILIO_MEDIA_PATH } from './twilio-paths.js';
import { isValidTwilioSignature, streamUrlFor } from './twilio-signature.js';
import { twilioWebhooks } from './twilio-webhooks.js';

const INVALID: Authentication = { ok: false, status: 403, reason: 'invalid X-Twilio-Signature' };

/**
 * With the account's auth token stored, a valid X-Twilio-Signature: a webhook's over the public URL and its form
 * fields; a stream's over the wss URL without a query (Twilio signs stream URLs so; on the account's path a query
 * cannot be Twilio's).
 */
export function authenticateTwilio(request: ProviderRequest, settings: TelephonySettings | null): Authentication {
  const authToken = twilioCredentials.read(settings).twilioAuthToken;
  if (!authToken) return ACCEPTED;
  const signature = singleHeader(request, 'x-twilio-signature');
  if (!request.media) return isValidTwilioSignature(authToken, signature, request.origin() + request.url, request.form) ? ACCEPTED : INVALID;
  if (request.params.accountId !== undefined && request.url.includes('?')) return INVALID;
  const path = request.url.split('?')[0] ?? '';
  return isValidTwilioSignature(authToken, signature, streamUrlFor(request.origin(), path), {}) ? ACCEPTED : INVALID;
}

export const twilioModule = {
  name: 'twilio',
  createCodec: () => new TwilioCodec('twilio'),
  callControl: ({ settings, start, origin, closeStream }) =>
    twilioCallControl(
      twilioRestClient(settings),
      start.callId,
      closeStream,
      // Twilio's request to the action is checked like every Twilio request: only an account that takes them gets one.
      origin !== undefined && settings && providerRequestsAllowed(twilioCredentials, settings) ? dialActionUrl(origin, settings.accountId, start.parameters) : undefined,
    ),
  credentials: twilioCredentials,
  authenticate: authenticateTwilio,
  mediaPaths: [
    // The generic path: the start's API key or call token names the account; its auth token, if any, is checked then.
    { path: TWILIO_MEDIA_PATH, proof: 'start', queryIsSettings: false, keepsOrigin: true },
    // The signature covers a URL that is the same for every call: the start must also bring this call's token.
    { path: `${TWILIO_MEDIA_PATH}/:accountId`, proof: 'account', requiresCallToken: true, queryIsSettings: false, keepsOrigin: true },
  ],
  webhooks: twilioWebhooks,
  dialer: twilioDialer,
  playground: { label: 'Twilio' },
} as const satisfies ProviderModule<'twilio'>;
