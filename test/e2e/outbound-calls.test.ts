// Outbound calls end to end, per provider: POST /v1/calls against loopback stand-ins of Twilio's, Exotel's and Plivo's
// REST APIs (strict about paths, credentials, bodies and error shapes), which then play the call as the provider
// would: status callbacks, the answer step, the media stream (a CallPeer in the provider's dialect), REST hangup.
// Checked: what the callee heard, the signed status webhooks in order, GET /v1/calls/{id}, idempotency, provider
// errors as the spec's envelope, compliance refusals, machine detection, REST control of the call by its call_id,
// the calls-per-second queue, and a webhook receiver that is down. M2: placing, reading and controlling calls count
// in the account's rate window, and a call refused by the window, the pace or the daily cap leaves nothing behind
// (no row, no event, no webhook).

import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { TelephonySettings } from '../../src/store/store.js';
import { FakeAgent } from '../helpers/fake-agent.js';
import { INVALID_TO, PROVIDER_DOWN_TO, PROVIDER_HANGS_TO, ProviderApis, type ProviderAccounts, type SimulatedCall } from '../helpers/provider-apis.js';
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
/** Receiver paths that refuse every attempt (503) while listed. */
const down = new Set<string>();
/** Per event_id: how many more attempts the receiver refuses (503). */
const refuse = new Map<string, number>();
/** The do-not-call webhook's answer per number (absent: allowed; 'down': no answer, 500). */
const dncAnswers = new Map<string, boolean | 'down'>();
/** Per do-not-call request: its signature header, and how many status events of its reference_id had arrived then. */
const dncRequests: { to: string; signature: string | undefined; body: string; statusEventsBefore: number }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/dnc') {
        const { to, reference_id: referenceId } = JSON.parse(body) as { to: string; reference_id: string | null };
        const statusEventsBefore = deliveries.filter((d) => referenceId !== null && d.json.reference_id === referenceId).length;
        dncRequests.push({ to, signature: req.headers['raaga-signature'] as string | undefined, body, statusEventsBefore });
        const answer = dncAnswers.get(to) ?? true;
        if (answer === 'down') return void res.writeHead(500).end();
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ allowed: answer }));
      }
      const json = JSON.parse(body) as Record<string, unknown>;
      // The /flaky receiver refuses the first two attempts of every event.
      if (req.url === '/flaky' && !refuse.has(String(json.event_id))) refuse.set(String(json.event_id), 2);
      const left = down.has(req.url ?? '') ? 1 : (refuse.get(String(json.event_id)) ?? 0);
      const answered = left > 0 ? 503 : 204;
      if (left > 0) refuse.set(String(json.event_id), left - 1);
      deliveries.push({ path: req.url ?? '', signature: String(req.headers['raaga-signature']), attempt: String(req.headers['raaga-attempt']), body, json, answered });
      res.writeHead(answered).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  dncDir = mkdtempSync(join(tmpdir(), 'raaga-dnc-'));
  writeFileSync(join(dncDir, 'dnc.txt'), '# numbers that asked not to be called\n+919777777777\n');
  server = await startTestServer({ TTS_WORKERS: '2', OUTBOUND_DNC_FILE: join(dncDir, 'dnc.txt'), OUTBOUND_WEBHOOK_RETRY_BASE_MS: '20', OUTBOUND_MAX_DIAL_WAIT_MS: '20000', OUTBOUND_DIAL_TIMEOUT_MS: '3000' });
  apis = await ProviderApis.start(ACCOUNTS, server.url);
});
afterAll(async () => {
  await apis?.close();
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** The provider's credentials (TelephonySettings.credentials), its REST host pointed at the stand-in APIs. */
function providerCredentials(provider: Provider): Record<string, string> {
  switch (provider) {
    case 'twilio':
      return { twilioAccountSid: ACCOUNTS.twilio.accountSid, twilioAuthToken: ACCOUNTS.twilio.authToken, twilioApiBaseUrl: apis.baseUrl };
    case 'exotel':
      return { exotelApiKey: ACCOUNTS.exotel.apiKey, exotelApiToken: ACCOUNTS.exotel.apiToken, exotelAccountSid: ACCOUNTS.exotel.accountSid, exotelApiBaseUrl: apis.baseUrl };
    case 'plivo':
      return { plivoAuthId: ACCOUNTS.plivo.authId, plivoAuthToken: ACCOUNTS.plivo.authToken, plivoApiBaseUrl: apis.baseUrl };
  }
}

async function account(provider: Provider, extra: Partial<TelephonySettings> = {}, credentials: Record<string, string> = {}) {
  const created = await server.account('growth', 1_000_000);
  await server.deps.store.putTelephonySettings({ accountId: created.id, credentials: { ...providerCredentials(provider), ...credentials }, webhookSecret: WEBHOOK_SECRET, ...extra, updatedAtMs: SETTINGS_UPDATED_AT_MS });
  return { id: created.id, key: created.keys[0] as string };
}

async function placeCall(key: string, body: Record<string, unknown>, baseUrl = server.url) {
  const response = await fetch(`${baseUrl}/v1/calls`, { method: 'POST', headers: { ...authHeaders(key), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

async function getCall(key: string, callId: string) {
  const response = await fetch(`${server.url}/v1/calls/${callId}`, { headers: authHeaders(key) });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

/** What the store holds for the account, read from its SQLite file: the calls' ids and how many events they have. */
function storedCalls(dataDir: string, accountId: string): { ids: string[]; events: number } {
  const db = new Database(join(dataDir, 'raaga.db'), { readonly: true, fileMustExist: true });
  try {
    const ids = (db.prepare('SELECT id FROM outbound_calls WHERE account_id = ? ORDER BY id').all(accountId) as { id: string }[]).map((row) => row.id);
    const { events } = db.prepare('SELECT count(*) AS events FROM outbound_call_events WHERE call_id IN (SELECT id FROM outbound_calls WHERE account_id = ?)').get(accountId) as { events: number };
    return { ids, events };
  } finally {
    db.close();
  }
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
    if (provider === 'twilio') expect(call.request).toMatchObject({ StatusCallbackEvent: 'initiated ringing answered completed', Timeout: '30', TimeLimit: '3600', Method: 'POST' });
    if (provider === 'exotel') expect(call.request).toMatchObject({ CallType: 'trans', StreamType: 'bidirectional', CustomField: placed.json.call_id });
    if (provider === 'plivo') expect(call.request).toMatchObject({ to: '919812345678', from: FROM.plivo.slice(1), answer_method: 'POST', ring_timeout: 30 });
    await call.ended;
    expect(call.failure).toBeUndefined();
    await eventually(() => delivered(placed.json.call_id).some((d) => d.json.status === 'completed'), 'the completed webhook');
    const events = delivered(placed.json.call_id);
    expect(events.map((d) => d.json.status)).toEqual(['queued', 'initiated', 'ringing', 'answered', 'completed']);
    expect(events.map((d) => d.json.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(events.every(validSignature)).toBe(true);
    expect(events.slice(1).every((d) => d.json.provider_call_id === placed.json.provider_call_id)).toBe(true);
    const completed = events.at(-1)!.json;
    expect(completed).toMatchObject({ call_id: placed.json.call_id, provider, provider_call_id: placed.json.provider_call_id, hangup_cause: 'normal_clearing', characters_used: cp(OTP), reference_id: 'consent-2026-11-25-001' });
    // The callee heard speech, and the call ended from Raaga's side once the OTP had played.
    // Everything the provider played out, counted in samples (not in time waited).
    const heard = call.peer!.playedMulaw();
    expect(heard.filter((byte) => byte !== 0xff && byte !== 0x7f).length).toBeGreaterThan(heard.length / 10);
    expect(heard.length / 8000).toBeGreaterThan(2);
    if (provider !== 'exotel') expect(call.updates.length).toBe(1);
    const got = await getCall(acct.key, placed.json.call_id);
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ status: 'completed', characters_used: cp(OTP), answered_by: null, error: null, idempotency_key: `otp-${provider}-1` });
    expect(got.json.events.map((e: { status: string }) => e.status)).toEqual(['queued', 'initiated', 'ringing', 'answered', 'completed']);
    if (provider === 'twilio') {
      // L5: the answer URL answered once; the same signed request again opens nothing.
      const answerUrl = String(call.request.Url);
      const answerStep = call.callbacks.find((callback) => callback.url === answerUrl)!;
      const replay = await fetch(apis.local(answerUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(ACCOUNTS.twilio.authToken, answerUrl, answerStep.fields) },
        body: new URLSearchParams(answerStep.fields).toString(),
      });
      expect(replay.status).toBe(404);
      // The status callback URL holds a valid token, but without Twilio's signature it is refused.
      const statusUrl = String(call.request.StatusCallback);
      const unsigned = await fetch(apis.local(statusUrl), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ CallSid: placed.json.provider_call_id, CallStatus: 'failed' }).toString() });
      expect(unsigned.status).toBe(403);
      expect((await getCall(acct.key, placed.json.call_id)).json.status).toBe('completed');
    }
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
    // A provider that never answers the create request: unavailable after OUTBOUND_DIAL_TIMEOUT_MS, nothing placed.
    const hangs = await placeCall(acct.key, { provider, to: PROVIDER_HANGS_TO, from: FROM[provider], greeting: 'नमस्ते' });
    expect(hangs.status).toBe(503);
    expect(hangs.json.error).toMatchObject({ code: 'provider_unavailable' });
    expect(hangs.json.error.message).toMatch(provider === 'twilio' ? /could not be reached \(timeout/ : /did not answer within 3000 ms/);
    const badCredentials = await account(provider, {}, provider === 'twilio' ? { twilioAuthToken: 'wrong-token-wrong-token-wrong-tok' } : provider === 'exotel' ? { exotelApiToken: 'wrong-exotel-token' } : { plivoAuthToken: 'wrong-plivo-token-00' });
    const auth = await placeCall(badCredentials.key, { provider, to: '+919812345678', from: FROM[provider], greeting: 'नमस्ते' });
    expect(auth.json.error).toMatchObject({ status_code: 422, code: 'provider_auth_failed' });
    // The failure is on record too, with the same error, under the call id the message names.
    const failedId = /call_[a-z0-9]{12}/.exec(invalid.json.error.message)![0];
    expect((await getCall(acct.key, failedId)).json).toMatchObject({ status: 'failed', provider_call_id: null, error: { code: 'invalid_phone_number' } });
  });
});

describe('one provider for the rest (the logic is provider-neutral)', () => {
  it('the same idempotency key never places two calls; with another body it is refused', async () => {
    const acct = await account('twilio');
    const body = { provider: 'twilio', to: '+919812300001', from: FROM.twilio, greeting: 'नमस्ते', hangup_after_greeting: true, idempotency_key: 'order-77' };
    const before = apis.calls.length;
    const [first, second] = await Promise.all([placeCall(acct.key, body), placeCall(acct.key, body)]);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.json.call_id).toBe(second.json.call_id);
    expect([first.headers.get('idempotent-replayed'), second.headers.get('idempotent-replayed')].sort()).toEqual(['true', null].sort());
    const third = await placeCall(acct.key, body);
    expect(third.json.call_id).toBe(first.json.call_id);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(apis.calls.length - before).toBe(1);
    const conflict = await placeCall(acct.key, { ...body, greeting: 'कुछ और' });
    expect(conflict.status).toBe(422);
    expect(conflict.json.error).toMatchObject({ code: 'idempotency_conflict' });
    expect(conflict.json.error.message).toContain(first.json.call_id);
    // Another account's same key is its own.
    const other = await account('twilio');
    expect((await placeCall(other.key, body)).json.call_id).not.toBe(first.json.call_id);
    await Promise.all(apis.calls.slice(before).map((call) => call.ended));
  });

  it('bad input is refused before anything is placed, each with a message naming the field', async () => {
    const acct = await account('plivo');
    const before = apis.calls.length;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ provider: 'plivo', to: '98123 45678', from: FROM.plivo }, 'validation_error', /to.*E\.164/],
      [{ provider: 'vonage', to: '+919812345678', from: FROM.plivo }, 'validation_error', /provider/],
      [{ provider: 'plivo', to: '+919812345678', from: FROM.plivo, voice: 'nobody' }, 'voice_language_not_found', /nobody|voice/],
      [{ provider: 'plivo', to: '+919812345678', from: FROM.plivo, hangup_after_greeting: true }, 'validation_error', /greeting/],
      [{ provider: 'plivo', to: '+919812345678', from: FROM.plivo, amd: { mode: 'detect', on_machine: 'agent' } }, 'validation_error', /on_machine/],
      [{ provider: 'exotel', to: '+919812345678', from: FROM.exotel, amd: { mode: 'detect' } }, 'validation_error', /Exotel has no answering-machine detection/],
      [{ provider: 'exotel', to: '+919812345678', from: FROM.exotel }, 'provider_not_configured', /Exotel REST credentials/],
      [{ provider: 'plivo', to: '+919812345678', from: FROM.plivo, params: { raaga_token: 'x' } }, 'validation_error', /reserved/],
      [{ provider: 'plivo', to: '+919812345678', from: FROM.plivo, params: { lexicons: 'nope' } }, 'validation_error', /Field 'lexicons' names a lexicon this account does not have: 'nope'/],
      [{ provider: 'plivo', to: '+919812345678', from: FROM.plivo, params: { lexicons: 'Not A Name' } }, 'validation_error', /call parameter 'lexicons' must be lexicon names separated by commas/],
      [{ provider: 'plivo', to: '+919812345678', from: FROM.plivo, surprise: 1 }, 'validation_error', /Unknown field 'surprise'/],
    ];
    for (const [body, code, message] of cases) {
      const refused = await placeCall(acct.key, body);
      expect([JSON.stringify(body), refused.json.error?.code]).toEqual([JSON.stringify(body), code]);
      expect(refused.json.error.message).toMatch(message);
    }
    const noSecret = await account('plivo', { webhookSecret: undefined });
    const unsigned = await placeCall(noSecret.key, { provider: 'plivo', to: '+919812345678', from: FROM.plivo, status_webhook: `${receiverUrl}/x` });
    expect(unsigned.json.error).toMatchObject({ code: 'validation_error' });
    expect(unsigned.json.error.message).toMatch(/webhook-secret/);
    const noKey = await fetch(`${server.url}/v1/calls`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(noKey.status).toBe(401);
    expect(apis.calls.length).toBe(before);
    expect((await getCall(acct.key, 'call_doesnotexist1')).status).toBe(404);
  });

  it('compliance: allowed caller IDs, calling hours, the do-not-call file and webhook', async () => {
    const before = apis.calls.length;
    const allowed = await account('exotel', { allowedCallerIds: '+918047000000' });
    const notAllowed = await placeCall(allowed.key, { provider: 'exotel', to: '+919812345678', from: FROM.exotel });
    expect(notAllowed.json.error).toMatchObject({ code: 'caller_id_not_allowed' });
    expect(notAllowed.json.error.message).toMatch(/allowed caller IDs/);
    // The calling window, on a server whose clock says 08:30 in India: it opens at 09:00, in 30 minutes.
    const at0830Ist = Date.UTC(2026, 10, 25, 3, 0);
    const early = await startTestServer({ TTS_WORKERS: '1' }, { vad: null, wallClock: () => at0830Ist, store: await SqliteStore.open({ now: () => at0830Ist }) });
    try {
      const created = await early.account('growth', 1000);
      await early.deps.store.putTelephonySettings({ accountId: created.id, credentials: providerCredentials('exotel'), callingHours: '09:00-21:00', callingTimeZone: 'Asia/Kolkata', updatedAtMs: 1 });
      const closed = await placeCall(created.keys[0] as string, { provider: 'exotel', to: '+919812345678', from: FROM.exotel }, early.url);
      expect(closed.status).toBe(422);
      expect(closed.json.error).toMatchObject({ code: 'outside_calling_hours' });
      expect(closed.json.error.message).toContain('between 09:00 and 21:00 Asia/Kolkata');
      expect(closed.headers.get('retry-after')).toBe('1800');
    } finally {
      await early.close();
    }
    const dnc = await account('exotel', { dncWebhookUrl: `${receiverUrl}/dnc` });
    const listed = await placeCall(dnc.key, { provider: 'exotel', to: '+919777777777', from: FROM.exotel });
    expect(listed.json.error).toMatchObject({ code: 'do_not_call' });
    expect(listed.json.error.message).toMatch(/do-not-call list/);
    dncAnswers.set('+919777700001', false);
    dncAnswers.set('+919777700002', 'down');
    expect((await placeCall(dnc.key, { provider: 'exotel', to: '+919777700001', from: FROM.exotel })).json.error).toMatchObject({ code: 'do_not_call' });
    // A refused call's webhook hears nothing before the refusal is known (M1): the check ran with no event sent.
    const refused = await placeCall(dnc.key, { provider: 'exotel', to: '+919777700001', from: FROM.exotel, status_webhook: `${receiverUrl}/hooks`, reference_id: 'm1-refused' });
    expect(refused.json.error).toMatchObject({ code: 'do_not_call' });
    const check = dncRequests.find((request) => request.body.includes('m1-refused'))!;
    expect(check.statusEventsBefore).toBe(0);
    // The do-not-call request is signed like a status webhook, with the account's secret.
    const [t, v1] = (check.signature ?? '').split(',').map((part) => part.split('=')[1]);
    expect(v1).toBe(createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${check.body}`).digest('hex'));
    const refusedCall = String(refused.json.error.message).match(/\((call_[a-z0-9]+)\)/)?.[1] as string;
    await eventually(() => delivered(refusedCall).length === 2, 'queued and failed, after the refusal');
    expect(delivered(refusedCall).map((d) => d.json.status)).toEqual(['queued', 'failed']);
    const down = await placeCall(dnc.key, { provider: 'exotel', to: '+919777700002', from: FROM.exotel });
    expect(down.status).toBe(503);
    expect(down.json.error).toMatchObject({ code: 'dnc_check_unavailable' });
    expect(apis.calls.length).toBe(before);
    // The webhook allowed this one: placed.
    const ok = await placeCall(dnc.key, { provider: 'exotel', to: '+919777700003', from: FROM.exotel, greeting: 'नमस्ते', hangup_after_greeting: true });
    expect(ok.status).toBe(202);
    await simulated(ok.json.provider_call_id).ended;
  });

  it('answering machines: hung up on, or left the greeting as a message, or told to the agent', async () => {
    const acct = await account('twilio');
    apis.callees.set('+919812300101', 'machine');
    const hungUp = await placeCall(acct.key, { provider: 'twilio', to: '+919812300101', from: FROM.twilio, greeting: 'नमस्ते', amd: { mode: 'detect', on_machine: 'hangup' }, status_webhook: `${receiverUrl}/hooks` });
    const machineCall = simulated(hungUp.json.provider_call_id);
    await machineCall.ended;
    expect(machineCall.request.MachineDetection).toBe('Enable');
    expect(machineCall.answer).toContain('<Hangup');
    expect(machineCall.peer).toBeUndefined();
    await eventually(() => delivered(hungUp.json.call_id).some((d) => d.json.status === 'completed'), 'completed');
    expect(delivered(hungUp.json.call_id).find((d) => d.json.status === 'answered')!.json.answered_by).toBe('machine');

    const agent = await FakeAgent.start();
    try {
      apis.callees.set('+919812300102', 'machine');
      const message = await placeCall(acct.key, {
        provider: 'twilio',
        to: '+919812300102',
        from: FROM.twilio,
        greeting: 'नमस्ते, आपकी किस्त कल देय है।',
        agent_url: agent.url,
        amd: { mode: 'detect_message_end', on_machine: 'leave_message' },
      });
      const messageCall = simulated(message.json.provider_call_id);
      await messageCall.ended;
      expect(messageCall.request.MachineDetection).toBe('DetectMessageEnd');
      // The greeting was left on the machine, the call ended after it, and no agent was called for a machine.
      expect(messageCall.peer!.playedMulaw().length / 8000).toBeGreaterThan(1);
      expect(messageCall.updates).toHaveLength(1);
      expect(agent.events).toEqual([]);

      apis.callees.set('+919812300103', 'answer');
      const human = await placeCall(acct.key, { provider: 'twilio', to: '+919812300103', from: FROM.twilio, agent_url: agent.url, amd: { mode: 'detect', on_machine: 'hangup' }, params: { campaign: 'emi-nov' } });
      const started = await agent.waitFor('call_started');
      expect(started).toMatchObject({ direction: 'outbound', answered_by: 'human', from: FROM.twilio, to: '+919812300103', custom_parameters: { campaign: 'emi-nov', raaga_call_id: human.json.call_id } });
      const humanCall = simulated(human.json.provider_call_id);
      expect(started.call_sid).toBe(humanCall.id);
      // REST control by Raaga's call id: the call hangs up.
      expect((await callControl(server, acct.key, human.json.call_id, 'hangup', { drain: false })).status).toBe(202);
      await humanCall.ended;
    } finally {
      await agent.close();
    }
  });

  it('a placed call gathers digits by its call_id without an agent, then hangs up', async () => {
    const acct = await account('plivo');
    const placed = await placeCall(acct.key, { provider: 'plivo', to: '+919812300201', from: FROM.plivo, greeting: 'नमस्ते', status_webhook: `${receiverUrl}/hooks/gather` });
    const call = simulated(placed.json.provider_call_id);
    await eventually(() => call.peer !== undefined, 'the callee answered');
    const gather = await callControl(server, acct.key, placed.json.call_id, 'gather', { prompt: 'अपना पिन डालें, फिर हैश दबाएँ।', finish_on_key: '#', timeout_ms: 30_000 });
    expect(gather.status).toBe(202);
    await eventually(async () => (await gatherResult(server, acct.key, placed.json.call_id, gather.json.gather_id, 0)).json.status === 'pending', 'the gather is active');
    for (const digit of ['4', '8', '2', '#']) call.peer!.sendDtmf(digit);
    const result = await gatherResult(server, acct.key, placed.json.call_id, gather.json.gather_id, 20_000);
    expect(result.json).toMatchObject({ status: 'done', digits: '482', reason: 'finish_key' });
    // The result reaches the status webhook too, signed, between the call's status events.
    await eventually(() => delivered(placed.json.call_id).some((d) => d.json.type === 'gather'), 'the gather webhook');
    const typed = delivered(placed.json.call_id).find((d) => d.json.type === 'gather')!;
    expect(typed.json).toMatchObject({ event_id: `${placed.json.call_id}.gather.${gather.json.gather_id}`, gather_id: gather.json.gather_id, digits: '482', reason: 'finish_key', provider: 'plivo' });
    expect(validSignature(typed)).toBe(true);
    expect((await callControl(server, acct.key, placed.json.call_id, 'hangup', { drain: false })).status).toBe(202);
    await call.ended;
    expect(call.updates.map((u) => u.method)).toEqual(['DELETE']);
    await eventually(() => delivered(placed.json.call_id).some((d) => d.json.status === 'completed'), 'completed');
    expect(delivered(placed.json.call_id).map((d) => d.json.type === 'gather' ? 'gather' : d.json.status)).toEqual(['queued', 'initiated', 'ringing', 'answered', 'gather', 'completed']);
  });

  it('a placed call transfers by its call_id: Twilio gets the <Dial> with an action back to Raaga', async () => {
    const acct = await account('twilio');
    const placed = await placeCall(acct.key, { provider: 'twilio', to: '+919812300601', from: FROM.twilio, greeting: 'आपको हमारे प्रतिनिधि से जोड़ा जा रहा है।' });
    const call = simulated(placed.json.provider_call_id);
    await eventually(() => call.peer !== undefined, 'the callee answered');
    const moved = await callControl(server, acct.key, placed.json.call_id, 'transfer', { to: '+918000000099', caller_id: FROM.twilio, timeout_s: 20 });
    expect(moved.status).toBe(202);
    await call.ended;
    const update = new URLSearchParams(call.updates[0]!.body);
    expect(update.get('Twiml')).toMatch(new RegExp(`<Dial callerId="\\${FROM.twilio}" timeout="20" action="[^"]*/v1/telephony/twilio/dial-action/${acct.id}[^"]*" method="POST">\\+918000000099</Dial>`));
  });

  it('a burst beyond the pace is queued, and one beyond the longest wait is refused with Retry-After', async () => {
    // One call per 100 s: the second request would wait longer than OUTBOUND_MAX_DIAL_WAIT_MS (20 s).
    const slow = await account('exotel', { dialCallsPerSecond: '0.01' });
    const first = await placeCall(slow.key, { provider: 'exotel', to: '+919812300301', from: FROM.exotel, greeting: 'नमस्ते', hangup_after_greeting: true });
    expect(first.status).toBe(202);
    const second = await placeCall(slow.key, { provider: 'exotel', to: '+919812300302', from: FROM.exotel, greeting: 'नमस्ते', hangup_after_greeting: true });
    expect(second.status).toBe(429);
    expect(second.json.error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    // Two per second: a burst of three is placed in turn, none refused.
    const paced = await account('exotel', { dialCallsPerSecond: '2' });
    const burst = await Promise.all([1, 2, 3].map((n) => placeCall(paced.key, { provider: 'exotel', to: `+91981230040${n}`, from: FROM.exotel, greeting: 'नमस्ते', hangup_after_greeting: true })));
    expect(burst.map((r) => r.status)).toEqual([202, 202, 202]);
    await Promise.all([first, ...burst].map((r) => simulated(r.json.provider_call_id).ended));
  });

  it('a webhook receiver that fails gets every event again until it takes it, in order, each one signed', async () => {
    const acct = await account('plivo');
    const placed = await placeCall(acct.key, { provider: 'plivo', to: '+919812300501', from: FROM.plivo, greeting: 'नमस्ते', hangup_after_greeting: true, status_webhook: `${receiverUrl}/flaky` });
    await simulated(placed.json.provider_call_id).ended;
    await eventually(() => delivered(placed.json.call_id).some((d) => d.json.status === 'completed'), 'completed, after retries');
    const accepted = delivered(placed.json.call_id);
    expect(accepted.map((d) => d.json.sequence)).toEqual(accepted.map((_, i) => i + 1));
    expect(accepted.map((d) => d.json.status)).toEqual(['queued', 'initiated', 'ringing', 'answered', 'completed']);
    expect(accepted.every(validSignature)).toBe(true);
    // Each event was refused twice, then taken at its third attempt.
    expect(accepted.map((d) => d.attempt)).toEqual(['3', '3', '3', '3', '3']);
    expect(deliveries.filter((d) => d.json.call_id === placed.json.call_id && d.answered === 503)).toHaveLength(10);
  });
});

describe('M2: the rate window, the pace and the daily cap refuse before anything is stored', () => {
  /** A free account (15 counted requests a minute) with Exotel credentials and a fast pace. */
  async function freeAccount(extra: Partial<TelephonySettings> = {}) {
    const created = await server.account('free', 1000);
    await server.deps.store.putTelephonySettings({ accountId: created.id, credentials: providerCredentials('exotel'), webhookSecret: WEBHOOK_SECRET, dialCallsPerSecond: '50', ...extra, updatedAtMs: SETTINGS_UPDATED_AT_MS });
    return { id: created.id, key: created.keys[0] as string };
  }
  const busyCallee = (to: string) => {
    apis.callees.set(to, 'busy');
    return to;
  };

  it('a burst of POST /v1/calls beyond the window: 429 with Retry-After past 15, and the store holds only the admitted calls', async () => {
    const acct = await freeAccount();
    const before = apis.calls.length;
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, n) => placeCall(acct.key, { provider: 'exotel', to: busyCallee(`+9198123008${String(n).padStart(2, '0')}`), from: FROM.exotel, status_webhook: `${receiverUrl}/m2-burst` })),
    );
    const admitted = burst.filter((r) => r.status === 202);
    const refused = burst.filter((r) => r.status !== 202);
    expect(admitted).toHaveLength(15);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.json.error).toMatchObject({ status_code: 429, code: 'rate_limit_exceeded' });
      expect(r.json.error.message).toMatch(/^Rate limit of 15 requests per minute exceeded for this account; retry in \d+ s\.$/);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(r.headers.get('x-ratelimit-limit')).toBe('15');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    // The admitted ones saw the window fill: remaining 14 down to 0, each once.
    expect(admitted.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    await Promise.all(admitted.map((r) => simulated(r.json.provider_call_id).ended));
    expect(apis.calls.length - before).toBe(15);
    // Every admitted call's events reached the webhook; then the count says nothing else came.
    await eventually(() => admitted.every((r) => delivered(r.json.call_id).some((d) => d.json.status === 'busy')), 'the admitted calls reached busy');
    const ids = admitted.map((r) => String(r.json.call_id)).sort();
    const stored = storedCalls(server.dataDir, acct.id);
    expect(stored.ids).toEqual(ids);
    expect(new Set(deliveries.filter((d) => d.path === '/m2-burst').map((d) => d.json.call_id))).toEqual(new Set(ids));
    expect(deliveries.filter((d) => d.path === '/m2-burst')).toHaveLength(stored.events);
  });

  it('a call beyond the dial queue: 429 with Retry-After, no row, no event, and its webhook hears nothing', async () => {
    // One call per 100 s: the second would wait longer than OUTBOUND_MAX_DIAL_WAIT_MS (20 s).
    const acct = await account('exotel', { dialCallsPerSecond: '0.01' });
    const webhook = `${receiverUrl}/m2-pace`;
    const before = apis.calls.length;
    const first = await placeCall(acct.key, { provider: 'exotel', to: '+919812300901', from: FROM.exotel, greeting: 'नमस्ते', hangup_after_greeting: true, status_webhook: webhook });
    expect(first.status).toBe(202);
    const second = await placeCall(acct.key, { provider: 'exotel', to: '+919812300902', from: FROM.exotel, greeting: 'नमस्ते', status_webhook: webhook, idempotency_key: 'm2-pace-2', reference_id: 'm2-refused' });
    expect(second.status).toBe(429);
    expect(second.json.error).toMatchObject({ status_code: 429, code: 'rate_limit_exceeded' });
    expect(second.json.error.message).toBe(
      'More calls are queued for exotel than this account places in 20 s at 0.01 per second; nothing was stored, retry later (the same idempotency_key may be sent again).',
    );
    expect(second.headers.get('retry-after')).toBe('20');
    expect(second.headers.get('x-ratelimit-limit')).toBe('300');
    // The admitted call plays out and its webhook hears every event; the refused one left no trace.
    await simulated(first.json.provider_call_id).ended;
    await eventually(() => delivered(first.json.call_id).some((d) => d.json.status === 'completed'), 'the admitted call completed');
    const stored = storedCalls(server.dataDir, acct.id);
    expect(stored).toEqual({ ids: [first.json.call_id], events: 5 });
    const hooked = deliveries.filter((d) => d.path === '/m2-pace');
    expect(hooked.map((d) => d.json.call_id)).toEqual(Array(5).fill(first.json.call_id));
    expect(hooked.map((d) => d.json.status)).toEqual(['queued', 'initiated', 'ringing', 'answered', 'completed']);
    expect(deliveries.some((d) => d.json.reference_id === 'm2-refused')).toBe(false);
    expect(apis.calls.length - before).toBe(1);
  });

  it('GET /v1/calls/{id} and REST call control count in the window: the 16th request of a free account is 429', async () => {
    const acct = await freeAccount();
    const placed = await placeCall(acct.key, { provider: 'exotel', to: busyCallee('+919812300951'), from: FROM.exotel });
    expect(placed.status).toBe(202);
    expect(placed.headers.get('x-ratelimit-remaining')).toBe('14');
    await simulated(placed.json.provider_call_id).ended;
    const remaining: number[] = [];
    for (let n = 0; n < 13; n++) {
      const got = await getCall(acct.key, placed.json.call_id);
      expect(got.status).toBe(200);
      remaining.push(Number(got.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    // A command to a call that is over is 404, and counted all the same: the 15th request.
    const cancel = await fetch(`${server.url}/v1/calls/${placed.json.call_id}/cancel`, { method: 'POST', headers: { ...authHeaders(acct.key), 'content-type': 'application/json' }, body: '{}' });
    expect(cancel.status).toBe(404);
    expect(cancel.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await getCall(acct.key, placed.json.call_id);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const hangup = await fetch(`${server.url}/v1/calls/${placed.json.call_id}/hangup`, { method: 'POST', headers: { ...authHeaders(acct.key), 'content-type': 'application/json' }, body: '{}' });
    expect(hangup.status).toBe(429);
    expect(((await hangup.json()) as any).error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(Number(hangup.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('OUTBOUND_MAX_CALLS_PER_DAY: the next call of the day is refused with 429 naming the daily cap, and nothing is stored', async () => {
    const capped = await startTestServer({ TTS_WORKERS: '1', OUTBOUND_MAX_CALLS_PER_DAY: '2', OUTBOUND_WEBHOOK_RETRY_BASE_MS: '20' }, { vad: null });
    const cappedApis = await ProviderApis.start(ACCOUNTS, capped.url);
    try {
      const created = await capped.account('growth', 1000);
      const key = created.keys[0] as string;
      await capped.deps.store.putTelephonySettings({ accountId: created.id, credentials: { ...providerCredentials('exotel'), exotelApiBaseUrl: cappedApis.baseUrl }, webhookSecret: WEBHOOK_SECRET, updatedAtMs: 1 });
      const body = (to: string) => ({ provider: 'exotel', to, from: FROM.exotel, status_webhook: `${receiverUrl}/m2-cap` });
      for (const to of ['+919812300961', '+919812300962', '+919812300963']) cappedApis.callees.set(to, 'busy');
      const first = await placeCall(key, body('+919812300961'), capped.url);
      const second = await placeCall(key, body('+919812300962'), capped.url);
      expect([first.status, second.status]).toEqual([202, 202]);
      const third = await placeCall(key, { ...body('+919812300963'), idempotency_key: 'm2-cap-3' }, capped.url);
      expect(third.status).toBe(429);
      expect(third.json.error).toMatchObject({ status_code: 429, code: 'rate_limit_exceeded' });
      const retryAfter = Number(third.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      expect(third.json.error.message).toBe(`This account has placed 2 outbound calls today (UTC), the daily cap of this server; nothing was stored, retry after 00:00 UTC (in ${retryAfter} s).`);
      // The same idempotency key is refused the same way: it was never stored.
      expect((await placeCall(key, { ...body('+919812300963'), idempotency_key: 'm2-cap-3' }, capped.url)).json.error.message).toMatch(/daily cap/);
      await Promise.all([first, second].map((r) => cappedApis.calls.find((c) => c.id === r.json.provider_call_id)!.ended));
      await eventually(() => [first, second].every((r) => delivered(r.json.call_id).some((d) => d.json.status === 'busy')), 'both admitted calls reached busy');
      const stored = storedCalls(capped.dataDir, created.id);
      expect(stored.ids).toEqual([first.json.call_id, second.json.call_id].sort());
      expect(deliveries.filter((d) => d.path === '/m2-cap')).toHaveLength(stored.events);
      expect(cappedApis.calls).toHaveLength(2);
      // Another account has its own day.
      const other = await capped.account('growth', 1000);
      await capped.deps.store.putTelephonySettings({ accountId: other.id, credentials: { ...providerCredentials('exotel'), exotelApiBaseUrl: cappedApis.baseUrl }, updatedAtMs: 1 });
      const ok = await placeCall(other.keys[0] as string, { provider: 'exotel', to: '+919812300963', from: FROM.exotel }, capped.url);
      expect(ok.status).toBe(202);
      await cappedApis.calls.find((c) => c.id === ok.json.provider_call_id)!.ended;
    } finally {
      await cappedApis.close();
      await capped.close();
    }
  });
});

describe('status webhooks survive the instance', () => {
  it('events a receiver did not take are sent, in order, by the next instance on the same store', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'raaga-webhooks-'));
    const env = { TTS_WORKERS: '1', OUTBOUND_WEBHOOK_RETRY_BASE_MS: '10', OUTBOUND_WEBHOOK_SWEEP_MS: '200' };
    // The first instance never sweeps in this test's time: only its own retries run, and the receiver refuses them.
    const first = await startTestServer({ ...env, OUTBOUND_WEBHOOK_SWEEP_MS: '3600000' }, { dataDir, vad: null });
    const firstApis = await ProviderApis.start(ACCOUNTS, first.url);
    let second: TestServer | undefined;
    try {
      const created = await first.account('growth', 100_000);
      await first.deps.store.putTelephonySettings({ accountId: created.id, credentials: { ...providerCredentials('plivo'), plivoApiBaseUrl: firstApis.baseUrl }, webhookSecret: WEBHOOK_SECRET, updatedAtMs: 1 });
      down.add('/outage');
      const placed = await placeCall(created.keys[0] as string, { provider: 'plivo', to: '+919812300701', from: FROM.plivo, greeting: 'नमस्ते', hangup_after_greeting: true, status_webhook: `${receiverUrl}/outage` }, first.url);
      expect(placed.status).toBe(202);
      await firstApis.calls.find((c) => c.id === placed.json.provider_call_id)!.ended;
      const recorded = async (server: TestServer) => (await server.deps.store.getOutboundCall(created.id, placed.json.call_id))!;
      await eventually(async () => (await recorded(first)).events.some((e) => e.status === 'completed'), 'the call completed on the first instance');
      // The first event was refused every attempt; the rest wait behind it, none overtakes it, and this instance
      // does not start over for each new event.
      await eventually(() => deliveries.filter((d) => d.json.call_id === placed.json.call_id).length >= 8, 'eight refused attempts');
      await first.deps.telephony!.outbound.close();
      const refused = deliveries.filter((d) => d.json.call_id === placed.json.call_id);
      expect(refused.map((d) => d.json.sequence)).toEqual(Array(8).fill(1));
      await first.close({ keepData: true });
      const store = await import('../../src/store/sqlite-store.js');
      const reader = await store.SqliteStore.open({ dataDir });
      expect((await reader.getOutboundCall(created.id, placed.json.call_id))?.webhookDeliveredThrough).toBe(0);
      await reader.close();
    } finally {
      await firstApis.close();
    }
    down.delete('/outage');
    second = await startTestServer(env, { dataDir, vad: null });
    try {
      const accepted = () => deliveries.filter((d) => d.path === '/outage' && d.answered === 204);
      await eventually(() => accepted().length === 5, 'every event, from the second instance', 20_000);
      expect(accepted().map((d) => d.json.status)).toEqual(['queued', 'initiated', 'ringing', 'answered', 'completed']);
      expect(accepted().every(validSignature)).toBe(true);
      const callId = String(accepted()[0]!.json.call_id);
      const accountId = (await second.deps.store.listAccounts()).at(-1)!.id;
      await eventually(async () => (await second!.deps.store.getOutboundCall(accountId, callId))?.webhookDeliveredThrough === 5, 'the cursor at the end');
      expect(await second.deps.store.webhookBacklog(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
