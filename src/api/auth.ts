// Bearer API key authentication: well-formedness, hash lookup, and the spec's 401 `invalid_api_key`.

import { ApiError } from '../errors.js';
import { storeCall } from '../core/admission.js';
import { hashApiKey, isWellFormedApiKey } from '../store/api-key.js';
import type { Account, Store } from '../store/store.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export async function authenticate(store: Store, authorization: string | undefined): Promise<Account> {
  if (!authorization) {
    throw new ApiError('invalid_api_key', "Missing API key: send the header 'Authorization: Bearer <API key>'.");
  }
  const match = BEARER.exec(authorization);
  const key = match?.[1];
  if (!key) {
    throw new ApiError('invalid_api_key', "Malformed Authorization header: expected 'Bearer <API key>'.");
  }
  if (!isWellFormedApiKey(key)) {
    throw new ApiError('invalid_api_key', "Invalid API key: keys look like 'rk_live_' followed by at least 32 letters and digits.");
  }
  const account = await storeCall(() => store.findAccountByKeyHash(hashApiKey(key)));
  if (!account) throw new ApiError('invalid_api_key', 'Invalid API key: it is unknown or has been revoked.');
  return account;
}
