// The zod schema of an account's stored telephony settings, shared by the snapshot file, both stores' JSON and the CLI,
// so every store accepts and returns exactly the same shape. The store checks the account-wide fields and only the
// generic shape of the provider credentials (a map of names to printable strings): what each credential must look
// like is its provider module's rule (telephony/telephony-settings-check.ts), so a new provider changes nothing here.
// Records written before the map (every provider's fields at the top level) are migrated as they are read.

import { z } from 'zod';
import { ACCOUNT_ID_PATTERN, type TelephonySettings } from './store.js';

/** A credential's name as a provider module gives it: camelCase, `twilioAuthToken`. */
const CREDENTIAL_NAME = /^[a-z][A-Za-z0-9]{0,63}$/;
/** Room for any provider's value (secrets, `user:secret`, API URLs); the provider's own format is stricter. */
const CREDENTIAL_VALUE = /^[\x20-\x7e]{1,1024}$/;
const MAX_CREDENTIALS = 64;

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
  credentials: z
    .record(z.string().regex(CREDENTIAL_NAME, 'must be a camelCase name'), z.string().regex(CREDENTIAL_VALUE, 'must be 1-1024 printable characters'))
    .refine((map) => Object.keys(map).length <= MAX_CREDENTIALS, `must hold at most ${MAX_CREDENTIALS} values`)
    .optional(),
  webhookSecret: z.string().regex(/^[\x21-\x7e]{16,256}$/, 'must be 16-256 printable characters without spaces').optional(),
  allowedCallerIds: z.string().regex(new RegExp(`^${E164.source}(,${E164.source})*$`), 'must be comma-separated E.164 numbers (+91…)').optional(),
  callingHours: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$/, 'must be HH:MM-HH:MM (24-hour clock)').optional(),
  callingTimeZone: z.string().refine(isTimeZone, 'must be an IANA time zone such as Asia/Kolkata').optional(),
  dncWebhookUrl: z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL').max(500).optional(),
  dialCallsPerSecond: z.string().regex(/^\d{1,3}(\.\d{1,3})?$/, 'must be a number of calls per second').refine((v) => Number(v) > 0 && Number(v) <= 100, 'must be more than 0 and at most 100').optional(),
  allowUnsigned: z.boolean().optional(),
  /** Call parameters (voice, language, agent_url, …) applied before the webhook's query; validated when used. */
  defaults: z.record(z.string().regex(/^[a-z_]{1,40}$/), z.string().max(450)).optional(),
  updatedAtMs: z.number().int(),
});

/** The fields the store itself knows: the account-wide ones; any other string field of an old record is a credential. */
const ACCOUNT_WIDE_FIELDS: ReadonlySet<string> = new Set(Object.keys(TelephonySettingsSchema.shape));

/**
 * A stored record in the current shape: records written before the credentials map kept each provider's credential as
 * a top-level string field (`twilioAuthToken`, `exotelCredentials`, …); those move into `credentials` under the same
 * names (a value already in the map wins). Anything else is returned as it came, for the schema to judge.
 */
export function migrateTelephonySettings(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const record = raw as Record<string, unknown>;
  const moved = Object.entries(record).filter(([key, value]) => !ACCOUNT_WIDE_FIELDS.has(key) && typeof value === 'string');
  if (moved.length === 0) return raw;
  const kept = Object.fromEntries(Object.entries(record).filter(([key]) => !moved.some(([name]) => name === key)));
  const already = typeof record.credentials === 'object' && record.credentials !== null ? (record.credentials as Record<string, unknown>) : {};
  return { ...kept, credentials: { ...Object.fromEntries(moved), ...already } };
}

/** Stored settings as read back: an old record migrated, then checked like a new one. */
export const StoredTelephonySettingsSchema = z.preprocess(migrateTelephonySettings, TelephonySettingsSchema);

/**
 * Throws a readable error for settings no store may keep (both stores call it before writing): the account-wide fields
 * and the credentials' generic shape. Each provider's own rules are telephony/telephony-settings-check.ts's.
 */
export function assertStoredTelephonySettings(settings: TelephonySettings): void {
  const parsed = TelephonySettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid telephony settings: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'invalid'}`);
  }
}

export function parseTelephonySettings(json: string): TelephonySettings {
  return StoredTelephonySettingsSchema.parse(JSON.parse(json)) as TelephonySettings;
}
