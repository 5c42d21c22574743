// A provider's credentials as its module declares them: the stored fields that are its own (with their format and
// their `raaga telephony set` options), which of them go together, what "configured" means, and the typed reader
// code uses instead of the stored map (store/store.ts keeps every provider's values in one map, by field name;
// telephony-settings-check.ts checks a record against every module). Secure by default: an account that has not
// configured a provider refuses that provider's webhooks and streams unless it opted in to unauthenticated ones
// (`raaga telephony set --allow-unsigned`, development only); otherwise anyone who guessed `acct_…` could make the
// account pay for calls.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import type { TelephonySettings } from '../store/store.js';

export interface CredentialField<TField extends string = string> {
  /** Its name in the stored settings' credentials map (camelCase, prefixed with the provider: `twilioAuthToken`). */
  readonly field: TField;
  /** What a stored value must look like; its message completes "<field> …" in `raaga telephony set`'s error. */
  readonly format: z.ZodType<string>;
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

/** A provider's stored credential values, by field; a field not stored is absent. */
export type CredentialValues<TField extends string = string> = { readonly [F in TField]?: string };

export interface ProviderCredentials<TField extends string = string> {
  readonly fields: readonly CredentialField<TField>[];
  /** Fields stored all or none ("twilioApiKey and twilioApiSecret go together"). */
  readonly together: readonly (readonly TField[])[];
  /** True when the account stored what this provider's requests are checked against. */
  configured(settings: TelephonySettings | null): boolean;
  /** This provider's stored values: the one way code reads a credential. */
  read(settings: TelephonySettings | null | undefined): CredentialValues<TField>;
}

/** A provider's credentials from its fields, its "go together" rules and what "configured" means over its values. */
export function defineCredentials<const TField extends string>(spec: {
  readonly fields: readonly CredentialField<TField>[];
  readonly together?: readonly (readonly TField[])[];
  readonly configured: (values: CredentialValues<TField>) => boolean;
}): ProviderCredentials<TField> {
  const read = (settings: TelephonySettings | null | undefined): CredentialValues<TField> => {
    const stored = settings?.credentials;
    if (stored === undefined) return {};
    const values: { [F in TField]?: string } = {};
    for (const { field } of spec.fields) if (stored[field] !== undefined) values[field] = stored[field];
    return values;
  };
  return { fields: spec.fields, together: spec.together ?? [], read, configured: (settings) => spec.configured(read(settings)) };
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
