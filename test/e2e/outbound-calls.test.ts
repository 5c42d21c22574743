// Outbound calls end to end, per provider: POST /v1/calls against loopback stand-ins of Twilio's, Exotel's and Plivo's
// REST APIs (strict about paths, credentials, bodies and error shapes), which then play the call as the provider
// would: status callbacks, the answer step, the media stream (a CallPeer in the provider's dialect), REST hangup.
// Checked: what the callee heard, the signed status webhooks in order, GET /v1/calls/{id}, idempotency, provider
// errors as the spec's envelope, compliance refusals, machine detection, REST control of the call by its call_id,
// the calls-per-second queue, and a webhook receiver that is down.

import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelephonySettings } from '../../src/store/store.js';
import { FakeAgent } from '../helpers/fake-agent.js';
import { INVALID_TO, PROVIDER_DOWN_TO, ProviderApis, type ProviderAccounts, type SimulatedCall } from '../helpers/provider-apis.js';
import { callControl, eventually, gatherResult, SETTINGS_UPDATED_AT_MS } from '../helpers/telephony.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';

const ACCOUNTS: ProviderAccounts = {
  twilio: { accountSid: `AC${'1'.repeat(32)}`, authToken: 'f00dfeedf00dfeedf00dfeedf00dfeed', numbers: ['+14155550100'] },
  exotel: { accountSid: 'raagatest1', apiKey: 'exo_api_key_0001', apiToken: 'exo-api-token-0001', exophones: ['+918047112233'] },
  plivo: { authId: 'MAZDQ1ZJIYMDY5NDE0MZ', authToken: 'plivo-token-0123456789', numbers: ['+918035551234'] },
};
const FROM = { twilio: '+14155550100', exotel: '+918047112233', plivo: '+918035551234' } as const;
const PROVIDERS = ['twilio', 'exotel', 'plivo'] as const;
type Provider = (typeof PROVIDERS)[number];
const WEBHOOK_SECRET = 'whsec_0123456789abcdef';
const OTP = 'आपका OTP 4 8 2 9 1 3 है। यह दस मिनट तक मान्य है।';
const cp = (text: string) => [...text].length;

let server: TestServer;
let apis: ProviderApis;
let receiver: Server;
let receiverUrl = '';
let dncDir = '';
/** Every delivery attempt the webhook receiver got: its path, headers and body. */
const deliveries: { path: string; signature: string; attempt: string; body: string; json: Record<string, unknown>; answered: number }[] = [];
/** Per event_id: how many attempts the receiver still refuses (503). */
const refuse = new Map<string, number>();
/** The do-not-call webhook's answer per number (absent: allowed; 'down': no answer, 500). */
const dncAnswers = new Map<string, boolean | 'down'>();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/dnc') {
        const to = (JSON.parse(body) as { to: string }).to;
        const answer = dncAnswers.get(to) ?? true;
        if (answer === 'down') return void res.writeHead(500).end();
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ allowed: answer }));
      }
      const json = JSON.parse(body) as Record<string, unknown>;
      const left = refuse.get(String(json.event_id)) ?? 0;
      const answered = left > 0 ? 503 : 204;
      if (left > 0) refuse.set(String(json.event_id), left - 1);
      deliveries.push({ path: req.url ?? '', signature: String(req.headers['raaga-signature']), attempt: String(req.headers['raaga-attempt']), body, json, answered });
      res.writeHead(answered).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  dncDir = mkdtempSync(join(tmpdir(), 'raaga-dnc-'));
  writeFileSync(join(dncDir, 'dnc.txt'), '# numbers that asked not to be called\n+919777777777\n');
  server = await startTestServer({ TTS_WORKERS: '2', OUTBOUND_DNC_FILE: join(dncDir, 'dnc.txt'), OUTBOUND_WEBHOOK_RETRY_BASE_MS: '20', OUTBOUND_MAX_DIAL_WAIT_MS: '20000' });
  apis = await ProviderApis.start(ACCOUNTS, server.url);
});
afterAll(async () => {
  await apis?.close();
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

function providerSettings(provider: Provider): Partial<TelephonySettings> {
  switch (provider) {
    case 'twilio':
      return { twilioAccountSid: ACCOUNTS.twilio.accountSid, twilioAuthToken: ACCOUNTS.twilio.authToken, twilioApiBaseUrl: apis.baseUrl };
    case 'exotel':
      return { exotelApiKey: ACCOUNTS.exotel.apiKey, exotelApiToken: ACCOUNTS.exotel.apiToken, exotelAccountSid: ACCOUNTS.exotel.accountSid, exotelApiBaseUrl: apis.baseUrl };
    case 'plivo':
      return { plivoAuthId: ACCOUNTS.plivo.authId, plivoAuthToken: ACCOUNTS.plivo.authToken, plivoApiBaseUrl: apis.baseUrl };
  }
}

async function account(provider: Provider, extra: Partial<TelephonySettings> = {}) {
  const created = await server.account('growth', 1_000_000);
  await server.deps.store.putTelephonySettings({ accountId: created.id, ...providerSettings(provider), webhookSecret: WEBHOOK_SECRET, ...extra, updatedAtMs: SETTINGS_UPDATED_AT_MS });
  return { id: created.id, key: created.keys[0] as string };
}

async function placeCall(key: string, body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/v1/calls`, { method: 'POST', headers: { ...authHeaders(key), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

async function getCall(key: string, callId: string) {
  const response = await fetch(`${server.url}/v1/calls/${callId}`, { headers: authHeaders(key) });
  return { status: response.status, json: (await response.json()) as any };
}

/** The deliveries of one call that were accepted, in the order they arrived. */
const delivered = (callId: string) => deliveries.filter((d) => d.json.call_id === callId && d.answered === 204);

function validSignature(delivery: (typeof deliveries)[number]): boolean {
  const [t, v1] = delivery.signature.split(',').map((part) => part.split('=')[1]);
  return v1 === createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${delivery.body}`).digest('hex');
}

function simulated(providerCallId: string): SimulatedCall {
  const call = apis.calls.find((c) => c.id === providerCallId);
  if (!call) throw new Error(`the ${providerCallId} call never reached the provider`);
  return call;
}

describe.each(PROVIDERS)('%s', (provider) => {
  it('an OTP call: placed, rung, answered, the OTP spoken, hung up after it; signed webhooks in order; GET agrees', async () => {
    const acct = await account(provider);
    const placed = await placeCall(acct.key, {
      provider,
      to: '+919812345678',
      from: FROM[provider],
      voice: 'ananya',
      language: 'hi-IN',
      greeting: OTP,
      hangup_after_greeting: true,
      status_webhook: `${receiverUrl}/hooks/${provider}`,
      idempotency_key: `otp-${provider}-1`,
      reference_id: 'consent-2026-11-25-001',
    });
    expect(placed.status).toBe(202);
    expect(placed.json).toMatchObject({ provider, status: 'initiated', to: '+919812345678', from: FROM[provider], reference_id: 'consent-2026-11-25-001' });
    expect(placed.json.call_id).toMatch(/^call_[a-z0-9]{12}$/);
    const call = simulated(placed.json.provider_call_id);
    await call.ended;
    await eventually(() => delivered(placed.json.call_id).some((d) => d.json.status === 'completed'), 'the completed webhook');
    const events = delivered(placed.json.call_id);
    expect(events.map((d) => d.json.status)).toEqual(['queued', 'initiated', 'ringing', 'answered', 'completed']);
    expect(events.map((d) => d.json.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(events.every(validSignature)).toBe(true);
    const completed = events.at(-1)!.json;
    expect(completed).toMatchObject({ call_id: placed.json.call_id, provider, provider_call_id: placed.json.provider_call_id, hangup_cause: 'normal_clearing', characters_used: cp(OTP), reference_id: 'consent-2026-11-25-001' });
    // The callee heard speech, and the call ended from Raaga's side once the OTP had played.
    const heard = call.peer!.heardMulaw();
    expect(heard.filter((byte) => byte !== 0xff && byte !== 0x7f).length).toBeGreaterThan(heard.length / 10);
    expect(heard.length / 8000).toBeGreaterThan(2);
    if (provider !== 'exotel') expect(call.updates.length).toBe(1);
    const got = await getCall(acct.key, placed.json.call_id);
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ status: 'completed', characters_used: cp(OTP), answered_by: null, error: null, idempotency_key: `otp-${provider}-1` });
    expect(got.json.events.map((e: { status: string }) => e.status)).toEqual(['queued', 'initiated', 'ringing', 'answered', 'completed']);
    if (process.env.RAAGA_OUTBOUND_TRANSCRIPT) {
      writeFileSync(
        join(process.env.RAAGA_OUTBOUND_TRANSCRIPT, `${provider}.json`),
        JSON.stringify({ request: call.request, answer: call.answer ?? null, callbacks: call.callbacks.map((c) => ({ path: new URL(c.url).pathname.replace(/[^/]+$/, '…'), fields: c.fields, status: c.status })), webhooks: events.map((d) => d.json), heardSeconds: heard.length / 8000, spoken: OTP, get: got.json }, null, 2),
      );
    }
  });

  it('busy and unanswered calls end with their own status; nothing is billed', async () => {
    const acct = await account(provider);
    for (const [to, status] of [['+919800000011', 'busy'], ['+919800000012', 'no_answer']] as const) {
      apis.callees.set(to, status === 'busy' ? 'busy' : 'no-answer');
      const placed = await placeCall(acct.key, { provider, to, from: FROM[provider], greeting: 'नमस्ते', status_webhook: `${receiverUrl}/hooks` });
      expect(placed.status).toBe(202);
      await simulated(placed.json.provider_call_id).ended;
      await eventually(() => delivered(placed.json.call_id).some((d) => d.json.status === status), `${status} webhook`);
      expect((await getCall(acct.key, placed.json.call_id)).json).toMatchObject({ status, characters_used: 0, answered_at: null });
    }
  });

  it("the provider's refusals come back as the spec's envelope with a code that says what to fix", async () => {
    const acct = await account(provider);
    const invalid = await placeCall(acct.key, { provider, to: INVALID_TO, from: FROM[provider], greeting: 'नमस्ते' });
    expect(invalid.status).toBe(422);
    expect(invalid.json.error).toMatchObject({ status_code: 422, code: 'invalid_phone_number' });
    expect(invalid.json.error.message).toContain(INVALID_TO.replace('+', provider === 'plivo' ? '' : '+'));
    const wrongFrom = await placeCall(acct.key, { provider, to: '+919812345678', from: '+918000000000', greeting: 'नमस्ते' });
    expect(wrongFrom.json.error).toMatchObject({ status_code: 422, code: 'caller_id_not_allowed' });
    const down = await placeCall(acct.key, { provider, to: PROVIDER_DOWN_TO, from: FROM[provider], greeting: 'नमस्ते' });
    expect(down.status).toBe(503);
    expect(down.json.error).toMatchObject({ code: 'provider_unavailable' });
    const badCredentials = await account(provider, provider === 'twilio' ? { twilioAuthToken: 'wrong-token-wrong-token-wrong-tok' } : provider === 'exotel' ? { exotelApiToken: 'wrong-exotel-token' } : { plivoAuthToken: 'wrong-plivo-token-00' });
    const auth = await placeCall(badCredentials.key, { provider, to: '+919812345678', from: FROM[provider], greeting: 'नमस्ते' });
    expect(auth.json.error).toMatchObject({ status_code: 422, code: 'provider_auth_failed' });
    // The failure is on record too, with the same error, under the call id the message names.
    const failedId = /call_[a-z0-9]{12}/.exec(invalid.json.error.message)![0];
    expect((await getCall(acct.key, failedId)).json).toMatchObject({ status: 'failed', provider_call_id: null, error: { code: 'invalid_phone_number' } });
  });
});
