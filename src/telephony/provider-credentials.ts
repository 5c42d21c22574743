// Whether an account may take a provider's requests at all, and the Basic-credential check Exotel and Asterisk
// share. Secure by default: an account with no credentials for a provider refuses that provider's webhooks and
// streams unless it opted in to unauthenticated ones (`raaga telephony set --allow-unsigned`, development only);
// otherwise anyone who guessed `acct_…` could make the account pay for calls.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { TelephonySettings } from '../store/store.js';
import type { ProviderName } from './stream-provider.js';

/** True when the account stored the credentials this provider's requests are checked against. */
export function hasProviderCredentials(provider: ProviderName, settings: TelephonySettings | null): boolean {
  switch (provider) {
    case 'twilio':
      return settings?.twilioAuthToken !== undefined;
    case 'smartflo':
      return settings?.smartfloToken !== undefined;
    case 'exotel':
      return settings?.exotelCredentials !== undefined;
    case 'plivo':
      return settings?.plivoAuthToken !== undefined;
    case 'asterisk':
      return settings?.asteriskCredentials !== undefined;
    case 'audiosocket':
      // AudioSocket carries no credentials: its listener's network allow-list is its check.
      return true;
  }
}

/** Accepts the request when the account has this provider's credentials (checked by the caller) or opted in. */
export function providerRequestsAllowed(provider: ProviderName, settings: TelephonySettings | null): boolean {
  return hasProviderCredentials(provider, settings) || settings?.allowUnsigned === true;
}

/** True when `authorization` is `Basic base64(user:secret)` for exactly `expected` (compared in constant time). */
export function matchesBasicCredentials(authorization: string | undefined, expected: string): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!, 'base64').toString('utf8');
  return constantTimeEqual(given, expected);
}

/** Equality of two secrets without leaking where they differ (or their lengths) through timing. */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
