// Which Raaga account pays for a stream, decided at its `start`, the same way for every provider: a call token
// bound to this call (minted by our answer webhook, carried in the path or as a parameter), an API key parameter,
// or the account of a path whose provider credentials were verified when the connection opened.

import { randomUUID } from 'node:crypto';
import { hashApiKey, isWellFormedApiKey } from '../store/api-key.js';
import type { Account, Store, TelephonySettings } from '../store/store.js';
import { API_KEY_PARAMETER, TOKEN_PARAMETER } from './call-parameters.js';
import { verifyCallToken } from './call-token.js';
import type { StreamStart } from './stream-events.js';
import type { StreamAdmission } from './stream-provider.js';

export interface StreamPayer {
  readonly account: Account;
  readonly settings: TelephonySettings | null;
  /** A call token paid: the call was accepted before its stream (our answer webhook, an outbound call). */
  readonly answered: boolean;
}

export interface StreamAuthenticationDeps {
  readonly store: Pick<Store, 'getAccount' | 'findAccountByKeyHash' | 'getTelephonySettings' | 'holdKey'>;
  readonly callTokenSecret: string;
  /** Wall clock (epoch ms) for token expiry. */
  readonly now: () => number;
}

/** The paying account and its settings, or why the stream is refused (a sentence for the log). */
export async function authenticateStream(deps: StreamAuthenticationDeps, admission: StreamAdmission, start: StreamStart): Promise<StreamPayer | string> {
  const token = admission.callToken ?? start.parameters[TOKEN_PARAMETER];
  const account = await payingAccount(deps, admission, start, token);
  if (typeof account === 'string') return account;
  if (admission.accountId !== undefined && admission.accountId !== account.id) return 'credentials belong to another account than the stream URL';
  const settings = await deps.store.getTelephonySettings(account.id);
  const failed = admission.verifyAtStart?.(settings);
  if (failed !== undefined) return failed;
  return { account, settings, answered: token !== undefined };
}

async function payingAccount(deps: StreamAuthenticationDeps, admission: StreamAdmission, start: StreamStart, token: string | undefined): Promise<Account | string> {
  const apiKey = start.parameters[API_KEY_PARAMETER];
  if (token !== undefined) {
    const claims = verifyCallToken(deps.callTokenSecret, token, deps.now());
    if (!claims) return 'invalid or expired call token';
    if (claims.callSid !== start.callId) return 'call token was issued for another call';
    // One stream per token, on every instance: a token read off a log or a proxy opens nothing more.
    const stream = randomUUID();
    if ((await deps.store.holdKey('call-token', token, stream, claims.expiresAtMs - deps.now() + 1)) !== stream) return 'call token was already used';
    return (await deps.store.getAccount(claims.accountId)) ?? 'the call token names an unknown account';
  }
  if (admission.requiresCallToken) return `no ${TOKEN_PARAMETER} parameter: this stream URL takes only the call token of Raaga's own answer`;
  if (apiKey !== undefined) {
    if (!isWellFormedApiKey(apiKey)) return 'malformed API key parameter';
    return (await deps.store.findAccountByKeyHash(hashApiKey(apiKey))) ?? 'unknown or revoked API key';
  }
  if (admission.accountId !== undefined && admission.accountVerified) {
    return (await deps.store.getAccount(admission.accountId)) ?? 'the stream URL names an unknown account';
  }
  return `unauthenticated start: no ${TOKEN_PARAMETER} or ${API_KEY_PARAMETER} parameter`;
}
