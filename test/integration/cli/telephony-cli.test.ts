// `raaga telephony` and `raaga twiml` as an operator runs them: real processes through bin/raaga.mjs, a real store
// in a temp dir. Secrets are stored for the server, shown only masked; the TwiML parses back to its parameters.

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../../src/store/api-key.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import { parseStreamTwiml } from '../../../src/sim/dialects/twilio-voice-webhook-client.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const TOKEN = 'abcdef0123456789abcdef0123456789';
let dir: string;
let key: string;

function raaga(args: string[], input?: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(root, 'bin/raaga.mjs'), ...args],
      { cwd: root, env: { ...process.env, REDIS_URL: '', PUBLIC_URL: '', RAAGA_DATA_DIR: dir, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-telephony-cli-'));
  const store = await SqliteStore.open({ dataDir: dir });
  await store.createAccount({ id: 'acct_t', plan: 'growth', credits: 10 });
  key = generateApiKey();
  await store.addKeyHash('acct_t', hashApiKey(key));
  await store.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('raaga telephony', () => {
  it('set (auth token from stdin), show masked, merge defaults, clear', async () => {
    const set = await raaga(['telephony', 'set', '--account', 'acct_t', '--twilio-auth-token', '-', '--twilio-account-sid', 'AC' + 'a'.repeat(32), '--default', 'voice=meera'], `${TOKEN}\n`);
    expect(set).toMatchObject({ code: 0, stdout: expect.stringContaining('signatures are now required') });
    expect(set.stdout + set.stderr).not.toContain(TOKEN);
    await raaga(['telephony', 'set', '--account', 'acct_t', '--default', 'language=ta-IN']);
    const shown = await raaga(['telephony', 'show', '--account', 'acct_t']);
    expect(shown.stdout).not.toContain(TOKEN);
    expect(JSON.parse(shown.stdout)).toMatchObject({ twilioAuthToken: '********6789', twilioAccountSid: 'AC' + 'a'.repeat(32), defaults: { voice: 'meera', language: 'ta-IN' } });
    const store = await SqliteStore.open({ dataDir: dir });
    expect((await store.getTelephonySettings('acct_t'))?.credentials?.twilioAuthToken).toBe(TOKEN);
    await store.close();
    expect((await raaga(['telephony', 'set', '--account', 'acct_t', '--twilio-api-key', 'SK' + 'b'.repeat(32)])).stderr).toMatch(/go together/);
    expect((await raaga(['telephony', 'set', '--account', 'acct_none', '--twilio-auth-token', TOKEN])).code).toBe(1);
    expect((await raaga(['telephony', 'clear', '--account', 'acct_t'])).code).toBe(0);
    expect((await raaga(['telephony', 'show', '--account', 'acct_t'])).stdout).not.toContain('AC');
  });

  it('sets, shows and removes the providers\' REST API hosts, refusing a malformed one', async () => {
    const set = await raaga(['telephony', 'set', '--account', 'acct_t', '--plivo-api-base-url', 'https://api.vobiz.example/plivo', '--twilio-api-base-url', 'https://api.sydney.au1.twilio.com', '--json']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ plivoApiBaseUrl: 'https://api.vobiz.example/plivo', twilioApiBaseUrl: 'https://api.sydney.au1.twilio.com' });
    for (const bad of ['https://api.plivo.com/', 'ftp://api.plivo.com', 'api.plivo.com']) {
      const refused = await raaga(['telephony', 'set', '--account', 'acct_t', '--plivo-api-base-url', bad]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/plivoApiBaseUrl must be https:\/\/host\[:port\]\[\/path\] without a trailing slash/);
    }
    const removed = await raaga(['telephony', 'set', '--account', 'acct_t', '--plivo-api-base-url', '', '--json']);
    expect(JSON.parse(removed.stdout)).toMatchObject({ plivoApiBaseUrl: null, twilioApiBaseUrl: 'https://api.sydney.au1.twilio.com' });
    expect((await raaga(['telephony', 'clear', '--account', 'acct_t'])).code).toBe(0);
  });
});

describe('raaga twiml', () => {
  it('prints <Connect><Stream> with the settings, own parameters and the API key, on the account path', async () => {
    const run = await raaga(['twiml', '--api-key', key, '--account', 'acct_t', '--voice', 'meera', '--greeting', 'नमस्ते & स्वागत', '--param', 'crm_id=42'], undefined, {
      PUBLIC_URL: 'https://raaga.example.com/',
    });
    expect(run.code).toBe(0);
    expect(parseStreamTwiml(run.stdout)).toEqual({
      streamUrl: 'wss://raaga.example.com/v1/telephony/twilio/media/acct_t',
      parameters: { voice: 'meera', greeting: 'नमस्ते & स्वागत', crm_id: '42', raaga_api_key: key },
    });
  });

  it('refuses a missing key, a missing public URL and a bad setting, without a stack trace', async () => {
    expect((await raaga(['twiml', '--public-url', 'https://x'])).stderr).toMatch(/--api-key is required/);
    expect((await raaga(['twiml', '--api-key', key])).stderr).toMatch(/PUBLIC_URL/);
    const bad = await raaga(['twiml', '--api-key', key, '--public-url', 'https://x', '--barge-in', 'loud']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/barge_in/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});
