// The zod schema of an account's stored telephony settings (Twilio credentials and per-call defaults), shared by
// the snapshot file, RedisStore's JSON value and the CLI, so every store accepts and returns exactly the same shape.

import { z } from 'zod';
import { ACCOUNT_ID_PATTERN, type TelephonySettings } from './store.js';

// Printable ASCII without spaces: Twilio SIDs, tokens and secrets are hex/base62; anything else is a paste error.
const Secret = z.string().regex(/^[\x21-\x7e]{8,256}$/, 'must be 8-256 printable characters without spaces');

export const TelephonySettingsSchema = z.strictObject({
  accountId: z.string().regex(ACCOUNT_ID_PATTERN),
  twilioAuthToken: Secret.optional(),
  twilioAccountSid: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'must be AC followed by 32 hex digits').optional(),
  twilioApiKey: z.string().regex(/^SK[0-9a-fA-F]{32}$/, 'must be SK followed by 32 hex digits').optional(),
  twilioApiSecret: Secret.optional(),
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
}

export function parseTelephonySettings(json: string): TelephonySettings {
  return TelephonySettingsSchema.parse(JSON.parse(json)) as TelephonySettings;
}
