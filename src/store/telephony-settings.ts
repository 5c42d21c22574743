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

/** An E.164 number: + and 7-15 digits, no leading zero. */
export const E164 = /\+[1-9]\d{6,14}/;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

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
  exotelApiKey: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8-128 letters, digits, - or _').optional(),
  exotelApiToken: Secret.optional(),
  exotelAccountSid: z.string().regex(/^[A-Za-z0-9_-]{2,64}$/, 'must be 2-64 letters, digits, - or _').optional(),
  exotelApiBaseUrl: ApiBaseUrl.optional(),
  webhookSecret: z.string().regex(/^[\x21-\x7e]{16,256}$/, 'must be 16-256 printable characters without spaces').optional(),
  allowedCallerIds: z.string().regex(new RegExp(`^${E164.source}(,${E164.source})*$`), 'must be comma-separated E.164 numbers (+91…)').optional(),
  callingHours: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$/, 'must be HH:MM-HH:MM (24-hour clock)').optional(),
  callingTimeZone: z.string().refine(isTimeZone, 'must be an IANA time zone such as Asia/Kolkata').optional(),
  dncWebhookUrl: z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL').max(500).optional(),
  dialCallsPerSecond: z.string().regex(/^\d{1,3}(\.\d{1,3})?$/, 'must be a number of calls per second').refine((v) => Number(v) > 0 && Number(v) <= 100, 'must be more than 0 and at most 100').optional(),
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
  if ((settings.exotelApiKey === undefined) !== (settings.exotelApiToken === undefined)) {
    throw new Error('invalid telephony settings: exotelApiKey and exotelApiToken go together');
  }
  if ((settings.plivoAuthId === undefined) !== (settings.plivoAuthToken === undefined)) {
    throw new Error('invalid telephony settings: plivoAuthId and plivoAuthToken go together');
  }
}

export function parseTelephonySettings(json: string): TelephonySettings {
  return TelephonySettingsSchema.parse(JSON.parse(json)) as TelephonySettings;
}
