// Bearer API key authentication: well-formedness, hash lookup, and the spec's 401 `invalid_api_key`.

import { ApiError } from '../errors.js';
import { storeCall } from '../core/store-call.js';
import { hashApiKey, isWellFormedApiKey, keyFingerprint } from '../store/api-key.js';
import type { Account, AccountDirectory } from '../store/store.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Who is calling: the key's account, and the key by its fingerprint (the usage ledger's key id). */
export interface Principal {
  readonly account: Account;
  readonly keyId: string;
}

export async function authenticate(store: Pick<AccountDirectory, 'findAccountByKeyHash'>, authorization: string | undefined): Promise<Principal> {
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
  const keyHash = hashApiKey(key);
  const account = await storeCall(() => store.findAccountByKeyHash(keyHash));
  if (!account) throw new ApiError('invalid_api_key', 'Invalid API key: it is unknown or has been revoked.');
  return { account, keyId: keyFingerprint(keyHash) };
}
