// The authenticator of a provider that cannot sign (Exotel, Asterisk): the `user:secret` the operator put in the
// provider's stream URL or config, sent as HTTP Basic, against the one stored in the account's credential field.

import type { TelephonySettings } from '../store/store.js';
import { matchesBasicCredentials, type ProviderCredentials } from './provider-credentials.js';
import { ACCEPTED, singleHeader, type Authentication, type ProviderRequest } from './provider-request.js';

const CHALLENGE: Authentication = { ok: false, status: 401, headers: { 'www-authenticate': 'Basic realm="raaga"' }, reason: 'missing or wrong Basic credentials' };

export function basicAuthenticator<TField extends string>(
  credentials: ProviderCredentials<TField>,
  field: TField,
): (request: ProviderRequest, settings: TelephonySettings | null) => Authentication {
  return (request, settings) => {
    const expected = credentials.read(settings)[field];
    if (expected === undefined || matchesBasicCredentials(singleHeader(request, 'authorization'), expected)) return ACCEPTED;
    return CHALLENGE;
  };
}
