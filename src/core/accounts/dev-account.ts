// First-run convenience: a developer account with one key when the store is empty, so a fresh checkout can
// make a request (or a simulated phone call) without provisioning anything; and the accounts open to unsigned
// provider requests, which every start warns about.

import { generateApiKey, hashApiKey } from '../../store/api-key.js';
import type { Store } from '../../store/store.js';

export const DEV_ACCOUNT_ID = 'acct_dev';
export const DEV_ACCOUNT_CREDITS = 1_000_000;

export interface DevAccount {
  readonly accountId: string;
  readonly credits: number;
  /** The API key in clear, exactly once: the caller prints it; only its hash is stored. */
  readonly key: string;
}

/** Creates `acct_dev` (developer plan) with a fresh key when the store has no accounts; otherwise null. */
export async function ensureDevAccount(store: Store): Promise<DevAccount | null> {
  if ((await store.listAccounts()).length > 0) return null;
  const account = await store.createAccount({ id: DEV_ACCOUNT_ID, plan: 'developer', credits: DEV_ACCOUNT_CREDITS });
  const key = generateApiKey();
  await store.addKeyHash(account.id, hashApiKey(key));
  // No telephony settings: like every account, its provider webhooks and streams need the provider's credentials
  // (raaga telephony set). The playground's call simulator works through its API key, which mints a call token.
  return { accountId: account.id, credits: account.credits, key };
}

/** Ids of the accounts whose provider webhooks and streams are accepted without credentials (allowUnsigned). */
export async function accountsAllowingUnsigned(store: Pick<Store, 'listAccounts' | 'getTelephonySettings'>): Promise<string[]> {
  const ids: string[] = [];
  for (const account of await store.listAccounts()) {
    if ((await store.getTelephonySettings(account.id))?.allowUnsigned === true) ids.push(account.id);
  }
  return ids;
}
