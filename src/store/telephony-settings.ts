// The zod schema of an account's stored telephony settings (each provider's credentials and per-call defaults), shared by
// the snapshot file, RedisStore's JSON value and the CLI, so every store accepts and returns exactly the same shape.

import { z } from 'zod';
import { ACCOUNT_ID_PATTERN, type TelephonySettings } from './store.js';

// Printable ASCII without spaces: Twilio SIDs, tokens and secrets are hex/base62; anything else is a paste error.
const Secret = z.string().regex(/^[\x21-\x7e]{8,256}$/, 'must be 8-256 printable characters without spaces');

/** `user:secret` as HTTP Basic carries it: a user without ':' and a secret of 8 or more characters. */
const BasicCredentials = z.string().regex(/^[\x21-\x39\x3b-\x7e]{1,128}:[\x21-\x7e]{8,256}$/, "must be user:secret (no spaces; the secret at least 8 characters)");

/** A provider REST API's origin and base path, without a trailing slash (http only for a local stand-in or proxy). */
const ApiBaseUrl = z.string().regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*[^\s?#/])?$/, 'must be https://host[:port][/path] without a trailing slash');

export const TelephonySettingsSchema = z.strictObject({
  accountId: z.string().regex(ACCOUNT_ID_PATTERN),
  twilioAuthToken: Secret.optional(),
  twilioAccountSid: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'must be AC followed by 32 hex digits').optional(),
  twilioApiKey: z.string().regex(/^SK[0-9a-fA-F]{32}$/, 'must be SK followed by 32 hex digits').optional(),
  twilioApiSecret: Secret.optional(),
  exotelCredentials: BasicCredentials.optional(),
  plivoAuthId: z.string().regex(/^[A-Z0-9]{20}$/, 'must be 20 capital letters and digits (MA… or SA…)').optional(),
  plivoAuthToken: Secret.optional(),
  twilioApiBaseUrl: ApiBaseUrl.optional(),
  plivoApiBaseUrl: ApiBaseUrl.optional(),
  asteriskCredentials: BasicCredentials.optional(),
  smartfloToken: z.string().regex(/^[A-Za-z0-9_-]{24,128}$/, 'must be 24-128 letters, digits, - or _ (it is a URL path segment)').optional(),
  allowUnsigned: z.boolean().optional(),
  /** Call parameters (voice, language, agent_url, …) applied before the webhook's query; validated when used. */
  defaults: z.record(z.string().regex(/^[a-z_]{1,40}$/), z.string().max(450)).optional(),
  updatedAtMs: z.number().int(),
});

/** Throws a readable error for settings no store may keep (both stores call it before writing). */
export function assertTelephonySettings(settings: TelephonySettings): void {
  const parsed = TelephonySettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid telephony settings: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'invalid'}`);
  }
  if ((settings.twilioApiKey === undefined) !== (settings.twilioApiSecret === undefined)) {
    throw new Error('invalid telephony settings: twilioApiKey and twilioApiSecret go together');
  }
  if ((settings.plivoAuthId === undefined) !== (settings.plivoAuthToken === undefined)) {
    throw new Error('invalid telephony settings: plivoAuthId and plivoAuthToken go together');
  }
}

export function parseTelephonySettings(json: string): TelephonySettings {
  return TelephonySettingsSchema.parse(JSON.parse(json)) as TelephonySettings;
}
