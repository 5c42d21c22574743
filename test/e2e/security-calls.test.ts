// Tenants cannot touch each other's calls nor open free streams with a replayed credential, over real sockets:
// a call id that another account's live call holds (M2), a Twilio upgrade signature replayed without the call's
// token (M3), a call token used twice and a Plivo nonce seen before (L8), a signed Twilio voice webhook replayed
// (security review c283aa8, L2).

import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallPeer } from '../../src/sim/call-peer.js';
import { fetchStreamInstruction } from '../../src/sim/dialects/twilio-voice-webhook-client.js';
import { plivoSignatureV3 } from '../../src/telephony/plivo/plivo-signature.js';
import { callControl, eventually, placeCall, RawStream, SETTINGS_UPDATED_AT_MS, unsignedAccount } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const AUTH_TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed';
const PLIVO_TOKEN = 'plivo-token-0123456789';
const GREETING = 'नमस्ते, आपका स्वागत है। आपका खाता सक्रिय है और आपकी किस्त कल देय है।';

let server: TestServer;
const wsBase = () => server.url.replace('http', 'ws');

beforeAll(async () => {
  server = await startTestServer({ TTS_WORKERS: '1' }, { vad: null });
});
afterAll(async () => {
  await server?.close();
});

async function tenant() {
  const created = await unsignedAccount(server);
  return { id: created.id, key: created.keys[0] as string };
}

describe('M2: a live call id is its account\'s', () => {
  it("another account's stream with the same call id is refused; the owner keeps control before and after", async () => {
    const bob = await tenant();
    const alice = await tenant();
    const call = await placeCall(server, bob.id, { query: { greeting: GREETING } });
    await call.peer.waitFor('first_media_in', 10_000);
    expect((await callControl(server, bob.key, call.callSid, 'say', { text: 'पहला संदेश।' })).status).toBe(202);

    // Alice opens her own stream (her own key) claiming Bob's CallSid.
    const hijack = await CallPeer.connect({ url: `${wsBase()}/v1/telephony/twilio/media`, callSid: call.callSid, customParameters: { raaga_api_key: alice.key, greeting: 'x' } });
    expect(await hijack.closed).toBe(1008);
    expect(hijack.summary().mediaReceived).toBe(0);
    // Alice reaches nothing; Bob still steers and ends his call.
    expect((await callControl(server, alice.key, call.callSid, 'say', { text: 'x' })).status).toBe(404);
    expect((await callControl(server, bob.key, call.callSid, 'say', { text: 'दूसरा संदेश।' })).status).toBe(202);
    expect((await callControl(server, bob.key, call.callSid, 'hangup')).status).toBe(202);
    await call.peer.closed;
    // Once Bob's call is over, the id is free again.
    const later = await CallPeer.connect({ url: `${wsBase()}/v1/telephony/twilio/media`, callSid: call.callSid, customParameters: { raaga_api_key: alice.key, greeting: 'नमस्ते।' } });
    await later.waitFor('first_media_in', 10_000);
    await later.stop();
  });
});

describe('M3 and L8: replayed credentials open nothing', () => {
  it('a signed upgrade of the account path without the call token is refused, however often it is replayed', async () => {
    const acct = await tenant();
    await server.deps.store.putTelephonySettings({ accountId: acct.id, credentials: { twilioAuthToken: AUTH_TOKEN }, updatedAtMs: SETTINGS_UPDATED_AT_MS });
    const url = `${wsBase()}/v1/telephony/twilio/media/${acct.id}`;
    // The one signature over this URL: the same on every call.
    for (const callSid of [`CA${'a'.repeat(32)}`, `CA${'b'.repeat(32)}`]) {
      const replay = await CallPeer.connect({ url, callSid, signature: { authToken: AUTH_TOKEN }, customParameters: { greeting: 'नमस्ते।' } });
      expect(await replay.closed).toBe(1008);
      expect(replay.summary().mediaReceived).toBe(0);
    }
    // With the API key instead of the token: refused on this path too (the key belongs on the generic path).
    const keyed = await CallPeer.connect({ url, callSid: `CA${'c'.repeat(32)}`, signature: { authToken: AUTH_TOKEN }, customParameters: { raaga_api_key: acct.key } });
    expect(await keyed.closed).toBe(1008);
    // Raaga's own TwiML brings the token: that call runs.
    const real = await placeCall(server, acct.id, { authToken: AUTH_TOKEN, query: { greeting: 'नमस्ते।' } });
    await real.peer.waitFor('first_media_in', 10_000);
    await real.peer.stop();
  });

  it('a call token opens one stream: the same token again is refused', async () => {
    const acct = await tenant();
    const call = await placeCall(server, acct.id, { query: { greeting: 'नमस्ते।' } });
    await call.peer.waitFor('first_media_in', 10_000);
    await call.peer.stop();
    const again = await CallPeer.connect({ url: call.instruction.streamUrl, callSid: call.callSid, customParameters: call.instruction.parameters });
    expect(await again.closed).toBe(1008);
    expect(again.summary().mediaReceived).toBe(0);
  });

  it('a Plivo request whose nonce was seen before is refused (403), a fresh one answered', async () => {
    const acct = await tenant();
    await server.deps.store.putTelephonySettings({ accountId: acct.id, credentials: { plivoAuthId: 'MAZDQ1ZJIYMDY5NDE0MZ', plivoAuthToken: PLIVO_TOKEN }, updatedAtMs: SETTINGS_UPDATED_AT_MS });
    const url = `${server.url}/v1/telephony/plivo/answer/${acct.id}`;
    const params = { CallUUID: '0f5a7e66-3c47-4a8e-9f6c-5a6f2f7d8e91', From: '+919800000001', To: '+918000000002' };
    const send = (nonce: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-plivo-signature-v3': plivoSignatureV3(PLIVO_TOKEN, { method: 'POST', url, nonce, params }),
          'x-plivo-signature-v3-nonce': nonce,
        },
        body: new URLSearchParams(params).toString(),
      });
    expect((await send('11111111111111111111')).status).toBe(200);
    const replayed = await send('11111111111111111111');
    expect(replayed.status).toBe(403);
    expect(await replayed.text()).toBe('');
    expect((await send('22222222222222222222')).status).toBe(200);
  });
});

describe('L2: a replayed signed voice webhook opens nothing more', () => {
  it('the same signed webhook again gets the identical TwiML, whose token opens one stream only; another CallSid is answered afresh', async () => {
    const acct = await tenant();
    await server.deps.store.putTelephonySettings({ accountId: acct.id, credentials: { twilioAuthToken: AUTH_TOKEN }, updatedAtMs: SETTINGS_UPDATED_AT_MS });
    const url = `${server.url}/v1/telephony/twilio/voice/${acct.id}?greeting=${encodeURIComponent('नमस्ते।')}`;
    const params = { CallSid: `CA${'d'.repeat(32)}`, AccountSid: `AC${'d'.repeat(32)}` };
    const creditsBefore = (await server.deps.store.getAccount(acct.id))!.credits;
    const answered = await fetchStreamInstruction({ url, authToken: AUTH_TOKEN, params });
    // Captured and sent again, as an attacker (or Twilio retrying) would: byte for byte the same answer.
    const replayed = await fetchStreamInstruction({ url, authToken: AUTH_TOKEN, params });
    expect(replayed.twiml).toBe(answered.twiml);
    expect(replayed.parameters.raaga_token).toMatch(/^rct1\./);

    const call = await CallPeer.connect({ url: answered.streamUrl, callSid: params.CallSid, customParameters: answered.parameters, signature: { authToken: AUTH_TOKEN } });
    await call.waitFor('first_media_in', 10_000);
    await call.stop();
    // The replay's stream, with the upgrade signature that is the same for every call, and the start parameters the
    // attacker picks around the token: refused, and nothing more is billed than the one call.
    const stream = RawStream.open(replayed.streamUrl, { 'X-Twilio-Signature': twilio.getExpectedTwilioSignature(AUTH_TOKEN, replayed.streamUrl, {}) });
    await stream.opened;
    stream.start(params.CallSid, { ...replayed.parameters, greeting: 'Attacker chosen words.' });
    expect(await stream.closed).toEqual({ code: 1008, reason: 'call token was already used' });
    expect(stream.received.filter((message) => message.event === 'media')).toEqual([]);
    // The replay was refused before any synthesis: the balance settles at the one call's greeting.
    const credits = async () => (await server.deps.store.getAccount(acct.id))!.credits;
    await eventually(async () => (await credits()) === creditsBefore - [...'नमस्ते।'].length, 'the one call settled');

    // Another call of the same account is answered with its own token, and runs.
    const other = await fetchStreamInstruction({ url, authToken: AUTH_TOKEN, params: { ...params, CallSid: `CA${'e'.repeat(32)}` } });
    expect(other.parameters.raaga_token).not.toBe(answered.parameters.raaga_token);
    const next = await CallPeer.connect({ url: other.streamUrl, callSid: `CA${'e'.repeat(32)}`, customParameters: other.parameters, signature: { authToken: AUTH_TOKEN } });
    await next.waitFor('first_media_in', 10_000);
    await next.stop();
  });

  it('a refused answer (a bad setting) holds nothing: the same CallSid, corrected, is answered', async () => {
    const acct = await tenant();
    const params = { CallSid: `CA${'f'.repeat(32)}`, AccountSid: `AC${'f'.repeat(32)}` };
    const base = `${server.url}/v1/telephony/twilio/voice/${acct.id}`;
    await expect(fetchStreamInstruction({ url: `${base}?barge_in=loud`, params })).rejects.toThrow(/voice webhook answered 422/);
    const answered = await fetchStreamInstruction({ url: `${base}?greeting=${encodeURIComponent('नमस्ते।')}`, params });
    const call = await CallPeer.connect({ url: answered.streamUrl, callSid: params.CallSid, customParameters: answered.parameters });
    await call.waitFor('first_media_in', 10_000);
    await call.stop();
  });
});
