// A provider's credentials as its module declares them: the stored fields that are its own (with their
// `raaga telephony set` options), and what "configured" means. Secure by default: an account that has not configured
// a provider refuses that provider's webhooks and streams unless it opted in to unauthenticated ones
// (`raaga telephony set --allow-unsigned`, development only); otherwise anyone who guessed `acct_…` could make the
// account pay for calls. The stored record itself (both stores, the snapshot file) is store/telephony-settings.ts.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { TelephonySettings } from '../store/store.js';

/** The string fields of the stored settings: where a provider's credentials are kept. */
export type CredentialKey = { [K in keyof TelephonySettings]-?: NonNullable<TelephonySettings[K]> extends string ? K : never }[keyof TelephonySettings];

export interface CredentialField {
  readonly field: CredentialKey;
  /** `raaga telephony set --<option>`; '' removes the stored value. */
  readonly option: string;
  /** How the value looks in the option's help: `AC…`, `<t|->`. */
  readonly value: string;
  /** Shown masked by `raaga telephony show` and readable from stdin (`-`). */
  readonly secret?: boolean;
  /** What it is for, in `raaga telephony set --help` (more lines separated by \n). */
  readonly help: string;
  /** Only for placing calls (POST /v1/calls): listed with the outbound options. */
  readonly outbound?: boolean;
}

export interface ProviderCredentials {
  readonly fields: readonly CredentialField[];
  /** True when the account stored what this provider's requests are checked against. */
  configured(settings: TelephonySettings | null): boolean;
}

/** A provider's requests are taken when the account configured it or opted in to unsigned requests. */
export function providerRequestsAllowed(credentials: Pick<ProviderCredentials, 'configured'>, settings: TelephonySettings | null): boolean {
  return credentials.configured(settings) || settings?.allowUnsigned === true;
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
