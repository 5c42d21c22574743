// Two Raaga instances sharing one Redis (and one call-token secret): a call's media stream lands on A, its voice
// webhook was answered by B, and REST call control sent to B reaches the call on A through Redis pub/sub.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteKeys, uniquePrefix, useTestRedis } from '../helpers/redis-server.js';
import { callControl, eventually, gatherResult, LONG_GREETING, unsignedAccount } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { CallPeer } from '../../src/sim/call-peer.js';
import { fetchStreamInstruction } from '../../src/sim/dialects/twilio-voice-webhook-client.js';
import { ProviderApis } from '../helpers/provider-apis.js';

const redis = await useTestRedis('telephony across instances');

describe.skipIf(!redis.url)('call control across instances through Redis', () => {
  const keyPrefix = uniquePrefix('calls');
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = { REDIS_URL: redis.url ?? '', REDIS_KEY_PREFIX: keyPrefix, TTS_WORKERS: '1', RAAGA_CALL_TOKEN_SECRET: 'shared-secret-'.repeat(4) };
    [a, b] = await Promise.all([startTestServer(env, { vad: null }), startTestServer(env, { vad: null })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await deleteKeys(redis.url ?? '', keyPrefix);
  });

  it('webhook on B, stream on A; say and cancel sent to B reach the call; other accounts and unknown calls get 404', async () => {
    const acct = await unsignedAccount(a, 'growth', 100_000);
    const other = await unsignedAccount(b, 'growth', 100_000);
    const key = acct.keys[0] as string;
    // B answers the webhook (mints the token); Twilio's stream lands on A (the token verifies there: shared secret).
    const instruction = await fetchStreamInstruction({ url: `${b.url}/v1/telephony/twilio/voice/${acct.id}` });
    const callSid = instruction.params.CallSid as string;
    const streamUrl = instruction.streamUrl.replace(b.url.replace('http', 'ws'), a.url.replace('http', 'ws'));
    const peer = await CallPeer.connect({ url: streamUrl, callSid, customParameters: instruction.parameters });
    await eventually(() => a.deps.telephony!.calls.localCalls() === 1, 'call held by A');
    expect(b.deps.telephony!.calls.localCalls()).toBe(0);

    const said = await callControl(b, key, callSid, 'say', { text: LONG_GREETING, utterance_id: 'from-b' });
    expect(said).toEqual({ status: 202, json: { call_sid: callSid, utterance_id: 'from-b', status: 'queued' } });
    await peer.waitFor('first_media_in', 10_000);

    expect((await callControl(b, other.keys[0] as string, callSid, 'cancel')).status).toBe(404);
    // Nobody subscribes to an unknown call's channel: PUBLISH says so at once. Had the bus waited for its reply
    // timeout instead, the answer would be 503 ("did not answer in time"), not 404.
    expect((await callControl(b, key, 'CA' + 'e'.repeat(32), 'cancel')).status).toBe(404);

    expect((await callControl(b, key, callSid, 'cancel')).status).toBe(200);
    await peer.waitFor('clear_received', 5000);

    // A gather started and read through B: the keys reach A's call, the result comes back over Redis.
    expect((await callControl(b, key, callSid, 'gather', { gather_id: 'otp', num_digits: 2, timeout_ms: 60_000, inter_digit_timeout_ms: 60_000 })).json).toEqual({ call_sid: callSid, gather_id: 'otp', status: 'gathering' });
    expect((await gatherResult(b, key, callSid, 'otp', 0)).json).toMatchObject({ status: 'pending', digits: null });
    const polled = gatherResult(b, key, callSid, 'otp');
    peer.sendDtmf('5');
    peer.sendDtmf('1');
    expect((await polled).json).toEqual({ call_sid: callSid, gather_id: 'otp', status: 'done', digits: '51', reason: 'max_digits' });
    expect((await gatherResult(b, other.keys[0] as string, callSid, 'otp', 0)).status).toBe(404);
    expect((await callControl(b, key, callSid, 'hangup', { drain: false })).status).toBe(202);
    expect(await peer.closed).toBe(1000);
    await eventually(() => a.deps.telephony!.calls.localCalls() === 0, 'call unregistered');
    expect((await callControl(b, key, callSid, 'say', { text: 'x' })).status).toBe(404);
    const billed = 100_000 - (await b.deps.store.getAccount(acct.id))!.credits;
    expect(billed).toBeGreaterThan(0);
    expect(billed).toBeLessThan([...LONG_GREETING].length);
  });

  it("a transfer without REST credentials on A: B answers Twilio's <Connect action> with the <Dial>", async () => {
    const acct = await unsignedAccount(a, 'growth', 100_000);
    const key = acct.keys[0] as string;
    const instruction = await fetchStreamInstruction({ url: `${a.url}/v1/telephony/twilio/voice/${acct.id}` });
    const callSid = instruction.params.CallSid as string;
    const peer = await CallPeer.connect({ url: instruction.streamUrl, callSid, customParameters: instruction.parameters });
    await eventually(() => a.deps.telephony!.calls.localCalls() === 1, 'call held by A');
    expect((await callControl(b, key, callSid, 'transfer', { to: 'sip:desk@pbx.example.in' })).status).toBe(202);
    expect(await peer.closed).toBe(1000);
    const response = await fetch(`${b.url}/v1/telephony/twilio/connect-action/${acct.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ CallSid: callSid, AccountSid: instruction.params.AccountSid as string }).toString(),
    });
    expect(await response.text()).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Dial action="${b.url}/v1/telephony/twilio/dial-action/${acct.id}" method="POST"><Sip>sip:desk@pbx.example.in</Sip></Dial></Response>`,
    );
  });
});

describe.skipIf(!redis.url)('outbound calls across instances through Redis', () => {
  const keyPrefix = uniquePrefix('outbound');
  let a: TestServer;
  let b: TestServer;
  let apis: ProviderApis;
  const exotel = { accountSid: 'raagaredis1', apiKey: 'exo_api_key_0002', apiToken: 'exo-api-token-0002', exophones: ['+918047112299'] };
  beforeAll(async () => {
    const env = { REDIS_URL: redis.url ?? '', REDIS_KEY_PREFIX: keyPrefix, TTS_WORKERS: '1', RAAGA_CALL_TOKEN_SECRET: 'shared-secret-'.repeat(4) };
    [a, b] = await Promise.all([startTestServer(env, { vad: null }), startTestServer(env, { vad: null })]);
    // The provider reaches Raaga through a balancer that sends it to B; the calls are placed through A.
    apis = await ProviderApis.start({ exotel, twilio: { accountSid: `AC${'2'.repeat(32)}`, authToken: 'x'.repeat(32), numbers: [] }, plivo: { authId: 'MA0000000000000000RD', authToken: 'plivo-token-redis', numbers: [] } }, b.url);
  });
  afterAll(async () => {
    await apis?.close();
    await Promise.all([a?.close(), b?.close()]);
    await deleteKeys(redis.url ?? '', keyPrefix);
  });

  async function exotelAccount(extra: Record<string, string> = {}) {
    const acct = await unsignedAccount(a, 'growth', 100_000);
    await a.deps.store.putTelephonySettings({
      accountId: acct.id,
      credentials: { exotelApiKey: exotel.apiKey, exotelApiToken: exotel.apiToken, exotelAccountSid: exotel.accountSid, exotelApiBaseUrl: apis.baseUrl },
      ...extra,
      updatedAtMs: 1,
    });
    return { id: acct.id, key: acct.keys[0] as string };
  }

  const place = async (server: TestServer, key: string, body: object) => {
    const response = await fetch(`${server.url}/v1/calls`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, json: (await response.json()) as any };
  };

  it('one idempotency key places one call whichever instance gets it; the call answered on B is complete on A', async () => {
    const acct = await exotelAccount();
    const body = { provider: 'exotel', to: '+919812399001', from: exotel.exophones[0], greeting: 'आपका OTP 7 7 1 है।', hangup_after_greeting: true, idempotency_key: 'redis-otp-1' };
    const [onA, onB] = await Promise.all([place(a, acct.key, body), place(b, acct.key, body)]);
    expect([onA.status, onB.status]).toEqual([202, 202]);
    expect(onA.json.call_id).toBe(onB.json.call_id);
    const [call] = await apis.waitForCalls(1);
    expect(apis.calls).toHaveLength(1);
    await call!.ended;
    expect(call!.failure).toBeUndefined();
    await eventually(async () => ((await (await fetch(`${a.url}/v1/calls/${onA.json.call_id}`, { headers: { authorization: `Bearer ${acct.key}` } })).json()) as { status: string }).status === 'completed', 'completed, seen from A');
    const seen = (await (await fetch(`${a.url}/v1/calls/${onA.json.call_id}`, { headers: { authorization: `Bearer ${acct.key}` } })).json()) as any;
    expect(seen).toMatchObject({ status: 'completed', characters_used: [...body.greeting].length });
    expect(seen.events.map((e: { status: string }) => e.status)).toEqual(['queued', 'initiated', 'ringing', 'answered', 'completed']);
  });

  it('the calls-per-second pace is one for the account across instances', async () => {
    const acct = await exotelAccount({ dialCallsPerSecond: '0.01' });
    const body = { provider: 'exotel', from: exotel.exophones[0], greeting: 'नमस्ते', hangup_after_greeting: true };
    const first = await place(a, acct.key, { ...body, to: '+919812399002' });
    expect(first.status).toBe(202);
    const second = await place(b, acct.key, { ...body, to: '+919812399003' });
    expect(second.status).toBe(429);
    expect(second.json.error.code).toBe('rate_limit_exceeded');
    await apis.calls.find((c) => c.id === first.json.provider_call_id)!.ended;
  });
});
