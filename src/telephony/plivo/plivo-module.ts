// Plivo (and Vobiz, and other Plivo-compatible hosts) as a provider module: its codec; call control through its REST
// API; X-Plivo-Signature-V3 as its authenticator (a signature carries no time, so its nonce is claimed once, on every
// instance, for PLIVO_NONCE_WINDOW_MS); the media path with the call token in it; its webhooks; its outbound dialer.

import type { TelephonySettings } from '../../store/store.js';
import type { ProviderModule } from '../provider-module.js';
import { ACCEPTED, singleHeader, type Authentication, type ProviderRequest } from '../provider-request.js';
import { plivoCallControl } from './plivo-call-control.js';
import { PlivoCodec } from './plivo-codec.js';
import { plivoCredentials } from './plivo-credentials.js';
import { plivoDialer } from './plivo-dialer.js';
import { isValidPlivoSignature, PLIVO_NONCE_WINDOW_MS } from './plivo-signature.js';
import { PLIVO_MEDIA_PATH, plivoWebhooks } from './plivo-webhooks.js';

const INVALID: Authentication = { ok: false, status: 403, reason: 'invalid X-Plivo-Signature-V3' };

/** With the account's auth token stored, Plivo's signature over the URL it requested (and a POST's form fields). */
export function authenticatePlivo(request: ProviderRequest, settings: TelephonySettings | null): Authentication {
  const authToken = plivoCredentials.read(settings).plivoAuthToken;
  if (authToken === undefined) return ACCEPTED;
  const header = request.headers['x-plivo-signature-v3'] ?? request.headers['x-plivo-signature-ma-v3'];
  const nonce = singleHeader(request, 'x-plivo-signature-v3-nonce') ?? '';
  const url = `${request.origin().replace(/^http/, request.upgrade ? 'ws' : 'http')}${request.url}`;
  if (!isValidPlivoSignature(authToken, typeof header === 'string' ? header : undefined, { method: request.method, url, nonce, params: request.form })) return INVALID;
  return { ok: true, once: { scope: 'plivo-nonce', key: `${settings?.accountId}:${nonce}`, ttlMs: PLIVO_NONCE_WINDOW_MS } };
}

export const plivoModule = {
  name: 'plivo',
  createCodec: () => new PlivoCodec(),
  callControl: plivoCallControl,
  credentials: plivoCredentials,
  authenticate: authenticatePlivo,
  // The token (bound to the CallUUID at the answer URL) is checked against the stream's start.
  mediaPaths: [{ path: `${PLIVO_MEDIA_PATH}/:accountId/:token`, proof: 'account', callTokenParam: 'token', keepsOrigin: true }],
  webhooks: plivoWebhooks,
  dialer: plivoDialer,
  playground: { label: 'Plivo / Vobiz' },
} as const satisfies ProviderModule<'plivo'>;
