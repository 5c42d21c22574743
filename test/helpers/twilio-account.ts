// An account with Twilio credentials (and an API key) written into a data dir before a spawned server opens it, so
// its webhooks and media streams are signed as Twilio signs them.

import { generateApiKey, hashApiKey } from '../../src/store/api-key.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

export const TWILIO_AUTH_TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed';

export async function seedTwilioAccount(dataDir: string): Promise<{ readonly accountId: string; readonly key: string }> {
  const store = await SqliteStore.open({ dataDir });
  const account = await store.createAccount({ plan: 'growth', credits: 1_000_000 });
  const key = generateApiKey();
  await store.addKeyHash(account.id, hashApiKey(key));
  await store.putTelephonySettings({ accountId: account.id, credentials: { twilioAuthToken: TWILIO_AUTH_TOKEN }, updatedAtMs: 1 });
  await store.close();
  return { accountId: account.id, key };
}
