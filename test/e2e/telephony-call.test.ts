// Phone calls over real sockets: the voice webhook's TwiML, X-Twilio-Signature on the webhook, status callback and
// media upgrade (vectors from twilio.getExpectedTwilioSignature), who pays (call token, API key), the call flow from
// webhook to hangup with an agent, REST transfer/hangup against a loopback Twilio API, bad input, abrupt ends.

import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCallToken } from '../../src/telephony/call-token.js';
import { CallPeer } from '../../src/sim/call-peer.js';
import { FakeAgent } from '../helpers/fake-agent.js';
import { FakeTwilioApi } from '../helpers/fake-twilio-api.js';
import { BAD_INPUT_LOG, callControl, capturingLogger, eventually, FAR_FUTURE_MS, gatherResult, LONG_AGO_MS, LONG_GREETING, placeCall, RawStream, SETTINGS_UPDATED_AT_MS, unsignedAccount } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const AUTH_TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed';
const TWILIO_ACCOUNT = 'AC' + 'a'.repeat(32);
const cp = (text: string) => [...text].length;

let server: TestServer;
let api: FakeTwilioApi;
const log = capturingLogger();

beforeAll(async () => {
  api = await FakeTwilioApi.start();
  server = await startTestServer(
    { TELEPHONY_STREAM_TIMEOUT_MS: '1500', TELEPHONY_START_TIMEOUT_MS: '1000', TTS_WORKERS: '2' },
    { logger: log.logger },
  );
});
afterAll(async () => {
  await server?.close();
  await api?.close();
});

async function account(plan: 'free' | 'growth' = 'growth', credits = 100_000) {
  const created = await unsignedAccount(server, plan, credits);
  return {
    id: created.id,
    key: created.keys[0] as string,
    balance: async () => (await server.deps.store.getAccount(created.id))!.credits,
  };
}

async function signedAccount(extra: { rest?: boolean } = {}) {
  const acct = await account();
  await server.deps.store.putTelephonySettings({
    accountId: acct.id,
    credentials: {
      twilioAuthToken: AUTH_TOKEN,
      // REST credentials, and the account's API host pointed at the loopback stand-in for api.twilio.com.
      ...(extra.rest ? { twilioAccountSid: TWILIO_ACCOUNT, twilioApiBaseUrl: api.baseUrl } : {}),
    },
    updatedAtMs: SETTINGS_UPDATED_AT_MS,
  });
  return acct;
}

const webhookUrl = (accountId: string, query = '') => `${server.url}/v1/telephony/twilio/voice/${accountId}${query}`;
const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
const CALL_FORM = { CallSid: 'CA' + '1'.repeat(32), AccountSid: TWILIO_ACCOUNT, From: '+919800000001', To: '+918000000002' };

/** How many times the bridge logged a bad-input kind (each must be logged once per stream). */
const problems = (callSid?: string) =>
  log.lines.filter((line) => line.msg === BAD_INPUT_LOG && (callSid === undefined || line.callSid === callSid));

async function slotFree(accountId: string): Promise<boolean> {
  const result = await server.deps.store.admit({ accountId, limits: { requestsPerMinute: 1000, concurrentRequests: 1 }, countRate: false, slotHolderId: 'probe' });
  if (result.ok) await server.deps.store.releaseSlot(accountId, 'probe');
  return result.ok;
}

describe('voice webhook', () => {
  it('answers <Connect><Stream> TwiML: the account stream URL without query, settings and a call token as <Parameter>s', async () => {
    const { id } = await account();
    const response = await fetch(webhookUrl(id, '?voice=aarav&language=ta-IN&greeting=Vanakkam&barge_in=dtmf&crm_id=42'), {
      method: 'POST',
      headers: FORM_HEADERS,
      body: form(CALL_FORM),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/xml/);
    const twiml = await response.text();
    const streamUrl = `${server.url.replace('http', 'ws')}/v1/telephony/twilio/media/${id}`;
    // When the stream ends, Twilio asks Raaga what follows (a transfer without REST credentials, else a hangup).
    expect(twiml).toContain(`<Connect action="${server.url}/v1/telephony/twilio/connect-action/${id}" method="POST"><Stream url="${streamUrl}"`);
    expect(twiml).toContain(`statusCallback="${server.url}/v1/telephony/twilio/status/${id}"`);
    for (const [name, value] of Object.entries({ voice: 'aarav', language: 'ta-IN', greeting: 'Vanakkam', barge_in: 'dtmf', crm_id: '42', from: '+919800000001', to: '+918000000002' })) {
      expect(twiml).toContain(`<Parameter name="${name}" value="${value}"/>`);
    }
    expect(twiml).toMatch(/<Parameter name="raaga_token" value="rct1\.[\w-]+\.[\w-]+"\/>/);
    // Unique per call (R12): a developer's own <Start><Stream> on the same call cannot collide with it.
    expect(twiml).toContain(`name="raaga-${CALL_FORM.CallSid.slice(-12)}"`);
  });

  it('a console set to HTTP GET: the call fields arrive in the query, the signature covers the whole URL', async () => {
    const { id } = await signedAccount();
    const url = webhookUrl(id, `?voice=aarav&${form(CALL_FORM)}`);
    expect((await fetch(url)).status).toBe(403);
    const response = await fetch(url, { headers: { 'x-twilio-signature': twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, {}) } });
    expect(response.status).toBe(200);
    const twiml = await response.text();
    expect(twiml).toContain('<Parameter name="voice" value="aarav"/>');
    expect(twiml).toContain('<Parameter name="from" value="+919800000001"/>');
    // Twilio's own fields are not call settings nor the developer's parameters.
    expect(twiml).not.toContain('name="CallSid"');
  });

  it('an account without Twilio credentials that did not opt in to unsigned requests: webhook, status and media get 403', async () => {
    const created = await server.account('growth', 1000);
    const webhook = await fetch(webhookUrl(created.id), { method: 'POST', headers: FORM_HEADERS, body: form(CALL_FORM) });
    expect(webhook.status).toBe(403);
    const status = await fetch(`${server.url}/v1/telephony/twilio/status/${created.id}`, { method: 'POST', headers: FORM_HEADERS, body: form(CALL_FORM) });
    expect(status.status).toBe(403);
    await expect(CallPeer.connect({ url: `${server.url.replace('http', 'ws')}/v1/telephony/twilio/media/${created.id}` })).rejects.toThrow(/403/);
    expect(log.lines.some((line) => line.accountId === created.id && /no twilio credentials/.test(String(line.msg)))).toBe(true);
  });

  it('reached through an HTTPS proxy without PUBLIC_URL: refused with a message that names PUBLIC_URL (R4)', async () => {
    const { id } = await account();
    const response = await fetch(webhookUrl(id), { method: 'POST', headers: { ...FORM_HEADERS, 'x-forwarded-proto': 'https' }, body: form(CALL_FORM) });
    expect(response.status).toBe(500);
    expect(((await response.json()) as any).error.message).toMatch(/PUBLIC_URL is not set/);
  });

  it('unknown account: the bare 403 of an account without credentials; a bad setting: 422 naming it; an unknown voice: 422', async () => {
    const missing = await fetch(webhookUrl('acct_nobody'), { method: 'POST', headers: FORM_HEADERS, body: form(CALL_FORM) });
    const known = await server.account('free', 0);
    const noCredentials = await fetch(webhookUrl(known.id), { method: 'POST', headers: FORM_HEADERS, body: form(CALL_FORM) });
    // Nothing tells the two apart (L8: account ids cannot be enumerated).
    expect([missing.status, await missing.text(), [...missing.headers.keys()].filter((name) => name !== 'date' && name !== 'x-request-id')]).toEqual([
      noCredentials.status,
      await noCredentials.text(),
      [...noCredentials.headers.keys()].filter((name) => name !== 'date' && name !== 'x-request-id'),
    ]);
    expect(missing.status).toBe(403);
    const { id } = await account();
    const bad = await fetch(webhookUrl(id, '?barge_in=loud'), { method: 'POST', headers: FORM_HEADERS, body: form(CALL_FORM) });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as any).error.message).toMatch(/barge_in/);
    const voice = await fetch(webhookUrl(id, '?voice=nobody'), { method: 'POST', headers: FORM_HEADERS, body: form(CALL_FORM) });
    expect(((await voice.json()) as any).error.code).toBe('voice_language_not_found');
  });
});

describe('X-Twilio-Signature', () => {
  it('webhook: unsigned or wrongly signed gets 403 and an empty body; the signature Twilio computes passes', async () => {
    const { id } = await signedAccount();
    const url = webhookUrl(id, '?voice=meera');
    const unsigned = await fetch(url, { method: 'POST', headers: FORM_HEADERS, body: form(CALL_FORM) });
    expect(unsigned.status).toBe(403);
    expect(await unsigned.text()).toBe('');
    const wrong = twilio.getExpectedTwilioSignature('another-token-entirely-0000000000', url, CALL_FORM);
    const forged = await fetch(url, { method: 'POST', headers: { ...FORM_HEADERS, 'x-twilio-signature': wrong }, body: form(CALL_FORM) });
    expect(forged.status).toBe(403);
    // Signed over other params than the ones posted (a tampered body).
    const tampered = twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, { ...CALL_FORM, From: '+10000000000' });
    expect((await fetch(url, { method: 'POST', headers: { ...FORM_HEADERS, 'x-twilio-signature': tampered }, body: form(CALL_FORM) })).status).toBe(403);
    const good = twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, CALL_FORM);
    const ok = await fetch(url, { method: 'POST', headers: { ...FORM_HEADERS, 'x-twilio-signature': good }, body: form(CALL_FORM) });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('<Parameter name="voice" value="meera"/>');
  });

  it('stream status callback: 403 unsigned, 204 signed', async () => {
    const { id } = await signedAccount();
    const url = `${server.url}/v1/telephony/twilio/status/${id}`;
    const params = { AccountSid: TWILIO_ACCOUNT, CallSid: CALL_FORM.CallSid, StreamSid: 'MZ' + '2'.repeat(32), StreamEvent: 'stream-stopped', Timestamp: new Date().toISOString() };
    expect((await fetch(url, { method: 'POST', headers: FORM_HEADERS, body: form(params) })).status).toBe(403);
    const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, params);
    expect((await fetch(url, { method: 'POST', headers: { ...FORM_HEADERS, 'x-twilio-signature': signature }, body: form(params) })).status).toBe(204);
  });

  it('media upgrade on the account path: unsigned gets 403 (no socket); signed over the wss URL, the call runs', async () => {
    const acct = await signedAccount();
    const streamUrl = `${server.url.replace('http', 'ws')}/v1/telephony/twilio/media/${acct.id}`;
    await expect(CallPeer.connect({ url: streamUrl })).rejects.toThrow(/403/);
    await expect(CallPeer.connect({ url: streamUrl, signature: { authToken: 'wrong-token-wrong-token-wrong-tok' } })).rejects.toThrow(/403/);
    const call = await placeCall(server, acct.id, { authToken: AUTH_TOKEN, query: { greeting: 'नमस्ते।' } });
    await call.peer.waitFor('first_media_in', 10_000);
    await call.peer.stop();
  });

  it('generic media path with an API key: a bad signature closes the stream at start (1008), nothing is spoken', async () => {
    const acct = await signedAccount();
    const peer = await CallPeer.connect({
      url: `${server.url.replace('http', 'ws')}/v1/telephony/twilio/media`,
      signature: { authToken: 'wrong-token-wrong-token-wrong-tok' },
      customParameters: { raaga_api_key: acct.key, greeting: 'नमस्ते।' },
    });
    expect(await peer.closed).toBe(1008);
    expect(peer.summary().mediaReceived).toBe(0);
  });
});

describe('who pays', () => {
  it('a token for another call, an expired or forged token, or an unknown API key is closed with 1008', async () => {
    const { id } = await account();
    const base = `${server.url.replace('http', 'ws')}/v1/telephony/twilio/media/${id}`;
    const secret = server.deps.telephony!.callTokenSecret;
    const cases: Record<string, string>[] = [
      { raaga_token: signCallToken(secret, { accountId: id, callSid: 'CA' + '9'.repeat(32), expiresAtMs: FAR_FUTURE_MS }) },
      { raaga_token: signCallToken(secret, { accountId: id, callSid: 'CA' + '7'.repeat(32), expiresAtMs: LONG_AGO_MS }) },
      { raaga_token: 'rct1.forged.token' },
      { raaga_api_key: 'rk_live_' + 'x'.repeat(40) },
    ];
    for (const customParameters of cases) {
      const peer = await CallPeer.connect({ url: base, callSid: 'CA' + '7'.repeat(32), customParameters: { ...customParameters, greeting: 'नमस्ते।' } });
      expect(await peer.closed).toBe(1008);
      expect(peer.summary().mediaReceived).toBe(0);
    }
    expect(await slotFree(id)).toBe(true);
  });

  it('an API key parameter on the generic path (developer TwiML) bills that key\'s account', async () => {
    const acct = await account();
    const greeting = 'आपका स्वागत है।';
    const peer = await CallPeer.connect({ url: `${server.url.replace('http', 'ws')}/v1/telephony/twilio/media`, customParameters: { raaga_api_key: acct.key, greeting } });
    await peer.waitFor('mark_echoed', 10_000);
    await peer.stop();
    await eventually(async () => (await acct.balance()) === 100_000 - cp(greeting), 'greeting billed');
  });
});

describe('call flow: webhook → agent → speech → hangup', () => {
  it('the agent gets call_started, speaks with its utterance ids, hears utterance_played, hangs up; billing and slot are right', async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await account('free');
      const call = await placeCall(server, acct.id, { query: { agent_url: agent.url, agent_audio: 'true', crm_id: 'c-42', voice: 'meera' } });
      const started = await agent.waitFor('call_started');
      expect(started).toMatchObject({
        call_sid: call.callSid,
        from: '+919800000001',
        to: '+918000000002',
        direction: 'inbound',
        answered_by: null,
        custom_parameters: { crm_id: 'c-42' },
      });
      expect(JSON.stringify(started)).not.toContain('raaga_token');
      expect(agent.headers['x-raaga-call-sid']).toBe(call.callSid);

      const text = 'आपका ऑर्डर कल पहुँच जाएगा। धन्यवाद।';
      agent.send({ type: 'text', text, utterance_id: 'order-status' });
      const end = await agent.waitFor('end_of_utterance');
      expect(end).toMatchObject({ utterance_id: 'order-status', characters_used: cp(text), truncated: false });
      const played = await agent.waitFor('utterance_played');
      expect(played.utterance_id).toBe('order-status');
      expect(played.duration_ms).toBeGreaterThan(500);
      // Every media message is whole 20 ms frames; one mark per chunk, named with turn, chunk and generation, and a
      // position mark after every 40 ms of audio (p20, p60, …), named with its place on the playout axis.
      const summary = call.peer.summary();
      expect(summary.mediaReceived).toBeGreaterThan(10);
      // Nothing lost: the caller received all the audio of the utterance (underruns are real-time figures, in bench/).
      expect(summary.playout.receivedMs).toBe(played.duration_ms);
      const marks = call.peer.timeline.filter((e) => e.kind === 'mark_received').map((e) => e.detail!);
      expect(marks.filter((name) => name.startsWith('u'))).toEqual(['u1.c0.g0', 'u1.c1.g0']);
      const positions = marks.filter((name) => name.startsWith('p'));
      expect(positions).toEqual(Array.from({ length: positions.length }, (_, i) => `p${20 + 40 * i}.g0`));
      expect(positions.length).toBe(Math.floor((played.duration_ms - 20) / 40) + 1);

      // A non-mulaw config is refused; a valid one is echoed (8 kHz mu-law stays).
      agent.send({ type: 'config', voice: 'arjun', language: 'en-IN', output_format: 'pcm' });
      expect((await agent.waitFor('error')).error.code).toBe('validation_error');
      agent.send({ type: 'config', voice: 'arjun', language: 'en-IN' });
      expect(await agent.waitFor('configured')).toMatchObject({ voice: 'arjun', language: 'en-IN', output_format: 'mulaw', sample_rate: 8000 });

      // The caller's audio reaches the agent (opt-in): 160-byte frames every 20 ms.
      expect(agent.audioFrames).toBeGreaterThan(20);
      agent.send({ type: 'hangup' });
      // No Twilio credentials: the stream is closed so the TwiML after <Connect> runs (here: nothing, the call ends).
      expect(await call.peer.closed).toBe(1000);
      expect((await agent.waitFor('call_ended')).reason).toBe('hangup');
      await eventually(() => slotFree(acct.id), 'slot freed');
      expect(await acct.balance()).toBe(100_000 - cp(text));
      // The call's lifecycle is logged at info with the request id, though the route's request lines are off
      // (its URL may carry settings): started and ended, once each.
      await eventually(() => log.lines.some((line) => line.callSid === call.callSid && line.msg === 'call ended'), "the 'call ended' line");
      const lifecycle = log.lines.filter((line) => line.callSid === call.callSid && ['call started', 'call ended'].includes(line.msg));
      expect(lifecycle.map((line) => [line.msg, line.level])).toEqual([['call started', 30], ['call ended', 30]]);
      expect(lifecycle.every((line) => typeof line.reqId === 'string' && line.reqId.length > 0)).toBe(true);
      expect(log.lines.some((line) => line.req !== undefined && String(line.req.url).includes(acct.id))).toBe(false);
    } finally {
      await agent.close();
    }
  });

  it('with REST credentials, transfer and hangup go through calls(sid).update', async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await signedAccount({ rest: true });
      const call = await placeCall(server, acct.id, { authToken: AUTH_TOKEN, query: { agent_url: agent.url } });
      await agent.waitFor('call_started');
      agent.send({ type: 'transfer', to: '+918000000099' });
      await eventually(() => api.requests.some((r) => r.path.includes(call.callSid)), 'REST transfer');
      const transfer = api.requests.find((r) => r.path.includes(call.callSid))!;
      expect(transfer.method).toBe('POST');
      expect(transfer.path).toBe(`/2010-04-01/Accounts/${TWILIO_ACCOUNT}/Calls/${call.callSid}.json`);
      expect(transfer.user).toBe(TWILIO_ACCOUNT);
      // The dial reports back to Raaga's dial action, which carries the call's agent so a failed transfer resumes it.
      const dial = /<Dial action="([^"]+)" method="POST">\+918000000099<\/Dial>/.exec(transfer.form.Twiml!);
      const action = new URL(dial![1]!.replaceAll('&amp;', '&'));
      expect(`${action.origin}${action.pathname}`).toBe(`${server.url}/v1/telephony/twilio/dial-action/${acct.id}`);
      expect(Object.fromEntries(action.searchParams)).toMatchObject({ agent_url: agent.url, voice: 'priya', language: 'hi-IN' });
      // Twilio ends the stream after the redirect.
      await call.peer.stop();
      expect((await agent.waitFor('call_ended')).reason).toBe('transfer');

      // Over REST, with the caller ID and ring time Twilio's <Dial> takes; bad fields are refused by name.
      const third = await placeCall(server, acct.id, { authToken: AUTH_TOKEN, query: { greeting: 'नमस्ते।' } });
      await eventually(() => server.deps.telephony!.calls.localCalls() > 0, 'third call registered');
      for (const [body, field] of [
        [{ to: '+918000000099', caller_id: 'desk' }, 'caller_id'],
        [{ to: '+918000000099', timeout_s: 1 }, 'timeout_s'],
        [{ caller_id: '+918000000001' }, 'to'],
      ] as const) {
        const refused = await callControl(server, acct.key, third.callSid, 'transfer', body);
        expect(refused.status, field).toBe(422);
        expect(refused.json.error.message).toContain(field);
      }
      const moved = await callControl(server, acct.key, third.callSid, 'transfer', { to: '+918000000099', caller_id: '+918000000001', timeout_s: 20 });
      expect(moved).toEqual({ status: 202, json: { call_sid: third.callSid, status: 'transferring' } });
      await eventually(() => api.requests.some((r) => r.path.includes(third.callSid)), 'REST transfer over the REST API');
      expect(api.requests.find((r) => r.path.includes(third.callSid))!.form.Twiml).toMatch(/<Dial callerId="\+918000000001" timeout="20" action="[^"]+\/dial-action\/[^"]+" method="POST">\+918000000099<\/Dial>/);
      await third.peer.stop();

      const second = await placeCall(server, acct.id, { authToken: AUTH_TOKEN, query: { greeting: 'नमस्ते।' } });
      await second.peer.waitFor('first_media_in', 10_000);
      expect((await callControl(server, acct.key, second.callSid, 'hangup', { drain: false })).status).toBe(202);
      await eventually(() => api.requests.some((r) => r.path.includes(second.callSid) && r.form.Status === 'completed'), 'REST hangup');
      await second.peer.stop();
    } finally {
      await agent.close();
    }
  });

  it("an outbound call answered by a machine: call_started says so (Twilio's Direction and AnsweredBy, normalised)", async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await account();
      const call = await placeCall(server, acct.id, { query: { agent_url: agent.url }, webhookFields: { Direction: 'outbound-api', AnsweredBy: 'machine_end_beep' } });
      expect(await agent.waitFor('call_started')).toMatchObject({ direction: 'outbound', answered_by: 'machine', custom_parameters: {} });
      await call.peer.stop();
    } finally {
      await agent.close();
    }
  });

  it("without REST credentials a transfer ends the stream, and Twilio's <Connect action> request gets the <Dial>", async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await signedAccount();
      const call = await placeCall(server, acct.id, { authToken: AUTH_TOKEN, query: { agent_url: agent.url } });
      await agent.waitFor('call_started');
      agent.send({ type: 'transfer', to: '+918000000099', caller_id: '+918000000002', timeout_s: 25 });
      expect(await call.peer.closed).toBe(1000);
      expect((await agent.waitFor('call_ended')).reason).toBe('transfer');
      // What Twilio then does: POST the action URL, signed, with the call's fields.
      const actionUrl = `${server.url}/v1/telephony/twilio/connect-action/${acct.id}`;
      const ask = async (callSid: string, token = AUTH_TOKEN) => {
        const params = { AccountSid: TWILIO_ACCOUNT, CallSid: callSid, CallStatus: 'in-progress' };
        const signature = twilio.getExpectedTwilioSignature(token, actionUrl, params);
        const response = await fetch(actionUrl, { method: 'POST', headers: { ...FORM_HEADERS, 'x-twilio-signature': signature }, body: form(params) });
        return { status: response.status, body: await response.text() };
      };
      const answered = await ask(call.callSid);
      expect(answered.status).toBe(200);
      expect(answered.body).toBe(
        `<?xml version="1.0" encoding="UTF-8"?><Response><Dial callerId="+918000000002" timeout="25" action="${server.url}/v1/telephony/twilio/dial-action/${acct.id}" method="POST">+918000000099</Dial></Response>`,
      );
      // A forged request is refused; a call that transferred nothing (or that Raaga never saw) hangs up.
      expect((await ask(call.callSid, 'not-the-token')).status).toBe(403);
      const plain = await placeCall(server, acct.id, { authToken: AUTH_TOKEN, query: { greeting: 'नमस्ते।' } });
      await plain.peer.waitFor('first_media_in', 10_000);
      await plain.peer.stop();
      expect((await ask(plain.callSid)).body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>');
      expect((await ask('CA' + '0'.repeat(32))).body).toContain('<Hangup/>');
    } finally {
      await agent.close();
    }
  });

  it("a transfer that fails comes back to Raaga's dial action: the agent resumes, or the fallback message plays, or it hangs up", async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await signedAccount();
      const ask = async (query: Record<string, string>, fields: Record<string, string>) => {
        const url = `${server.url}/v1/telephony/twilio/dial-action/${acct.id}${Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : ''}`;
        const params = { AccountSid: TWILIO_ACCOUNT, CallSid: 'CA' + '7'.repeat(32), CallStatus: 'in-progress', From: '+918000000001', To: '+918000000002', ...fields };
        const response = await fetch(url, { method: 'POST', headers: { ...FORM_HEADERS, 'x-twilio-signature': twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, params) }, body: form(params) });
        return { status: response.status, body: await response.text() };
      };
      // Connected: the call ends when the transferred leg does.
      expect((await ask({ agent_url: agent.url }, { DialCallStatus: 'completed' })).body).toContain('<Hangup/>');
      // Nobody answered: the bot's stream is back, and the agent is told why.
      const resumed = await ask({ agent_url: agent.url, voice: 'meera', language: 'hi-IN' }, { DialCallStatus: 'no-answer' });
      const { parseStreamTwiml } = await import('../../src/sim/dialects/twilio-voice-webhook-client.js');
      const stream = parseStreamTwiml(resumed.body);
      expect(stream.parameters).toMatchObject({ agent_url: agent.url, voice: 'meera', transfer_status: 'no-answer' });
      expect(stream.parameters.raaga_token).toMatch(/^rct1\./);
      // Without an agent: the fallback message, whole, then the call ends.
      const fallback = parseStreamTwiml((await ask({ fallback_message: 'माफ़ कीजिए, अभी कोई उपलब्ध नहीं है।' }, { DialCallStatus: 'busy' })).body);
      expect(fallback.parameters).toMatchObject({ greeting: 'माफ़ कीजिए, अभी कोई उपलब्ध नहीं है।', hangup_after_greeting: 'true', greeting_interruptible: 'false', transfer_status: 'busy' });
      expect(fallback.parameters.agent_url).toBeUndefined();
      // Signed like every Twilio request.
      expect((await fetch(`${server.url}/v1/telephony/twilio/dial-action/${acct.id}`, { method: 'POST', headers: FORM_HEADERS, body: form({ CallSid: 'CA' + '7'.repeat(32), DialCallStatus: 'busy' }) })).status).toBe(403);
    } finally {
      await agent.close();
    }
  });

  it('the agent going away mid-call: the fallback message plays, then the call hangs up', async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await account();
      const fallback = 'माफ़ कीजिए, तकनीकी समस्या है।';
      const call = await placeCall(server, acct.id, { query: { agent_url: agent.url, fallback_message: fallback } });
      await agent.waitFor('call_started');
      agent.drop();
      expect(await call.peer.closed).toBe(1000);
      expect(call.peer.summary().mediaReceived).toBeGreaterThan(10);
      await eventually(async () => (await acct.balance()) === 100_000 - cp(fallback), 'fallback billed');
    } finally {
      await agent.close();
    }
  });
});

describe('REST call control', () => {
  it('say and cancel on the account\'s own call; another account or an unknown CallSid gets 404', async () => {
    const acct = await account();
    const other = await account();
    const call = await placeCall(server, acct.id);
    await eventually(() => server.deps.telephony!.calls.localCalls() > 0, 'call registered');
    const said = await callControl(server, acct.key, call.callSid, 'say', { text: LONG_GREETING, utterance_id: 'ivr-1' });
    expect(said).toEqual({ status: 202, json: { call_sid: call.callSid, utterance_id: 'ivr-1', status: 'queued' } });
    await call.peer.waitFor('first_media_in', 10_000);
    expect((await callControl(server, other.key, call.callSid, 'say', { text: 'x' })).status).toBe(404);
    expect((await callControl(server, acct.key, 'CA' + 'f'.repeat(32), 'cancel')).status).toBe(404);
    expect((await callControl(server, acct.key, call.callSid, 'say', { text: '' })).json.error.code).toBe('validation_error');
    const cancelled = await callControl(server, acct.key, call.callSid, 'cancel');
    expect(cancelled.status).toBe(200);
    await call.peer.waitFor('clear_received', 5000);
    await call.peer.stop();
    const billed = 100_000 - (await acct.balance());
    expect(billed).toBeGreaterThan(0);
    expect(billed).toBeLessThan(cp(LONG_GREETING));
  });
});

describe('gather: keys without an agent', () => {
  it('REST: the prompt speaks, a key cuts it, digits up to num_digits come back by long-poll; bad input is refused', async () => {
    const acct = await account();
    const other = await account();
    const call = await placeCall(server, acct.id);
    await eventually(() => server.deps.telephony!.calls.localCalls() > 0, 'call registered');
    // Four sentences: paced playout synthesizes one chunk ahead of the one playing, so a key during the first leaves at
    // least two never produced, whatever the machine's speed, and the bill below is less than the whole.
    const prompt = 'कृपया अपना चार अंकों का पिन डालिए। फिर हैश दबाइए। धन्यवाद। आपका पिन जाँचा जा रहा है।';
    const started = await callControl(server, acct.key, call.callSid, 'gather', { prompt, num_digits: 4, gather_id: 'pin', timeout_ms: 60_000, inter_digit_timeout_ms: 60_000 });
    expect(started).toEqual({ status: 202, json: { call_sid: call.callSid, gather_id: 'pin', status: 'gathering' } });
    expect(await gatherResult(server, acct.key, call.callSid, 'pin', 0)).toEqual({
      status: 200,
      json: { call_sid: call.callSid, gather_id: 'pin', status: 'pending', digits: null, reason: null },
    });
    // The caller starts typing while the prompt plays: the first key stops it.
    await call.peer.waitFor('first_media_in', 10_000);
    const polled = gatherResult(server, acct.key, call.callSid, 'pin');
    call.peer.sendDtmf('4');
    await call.peer.waitFor('clear_received', 5000);
    for (const digit of '829') call.peer.sendDtmf(digit);
    expect(await polled).toEqual({ status: 200, json: { call_sid: call.callSid, gather_id: 'pin', status: 'done', digits: '4829', reason: 'max_digits' } });
    // Still readable afterwards; another account's or an unknown gather is not found.
    expect((await gatherResult(server, acct.key, call.callSid, 'pin', 0)).json).toMatchObject({ status: 'done', digits: '4829' });
    expect((await gatherResult(server, other.key, call.callSid, 'pin', 0)).status).toBe(404);
    const unknown = await gatherResult(server, acct.key, call.callSid, 'nope', 0);
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toContain("no gather 'nope'");

    for (const [body, field] of [
      [{ num_digits: 0 }, 'num_digits'],
      [{ finish_on_key: 'A' }, 'finish_on_key'],
      [{ timeout_ms: -1 }, 'timeout_ms'],
      [{ inter_digit_timeout_ms: 50 }, 'inter_digit_timeout_ms'],
      [{ gather_id: 'has space' }, 'gather_id'],
      [{ digits: 4 }, 'digits'],
    ] as const) {
      const refused = await callControl(server, acct.key, call.callSid, 'gather', body);
      expect(refused.status, field).toBe(422);
      expect(refused.json.error.code).toBe('validation_error');
      expect(refused.json.error.message).toContain(field);
    }
    expect((await gatherResult(server, acct.key, call.callSid, 'pin', 30_000)).status).toBe(422);

    // No prompt and no key: the first-key timeout ends it with no digits; the finish key ends the next one.
    await callControl(server, acct.key, call.callSid, 'gather', { gather_id: 'quiet', timeout_ms: 0 });
    expect((await gatherResult(server, acct.key, call.callSid, 'quiet')).json).toMatchObject({ status: 'done', digits: '', reason: 'timeout' });
    await callControl(server, acct.key, call.callSid, 'gather', { gather_id: 'acct', timeout_ms: 60_000, inter_digit_timeout_ms: 60_000 });
    for (const digit of '12#') call.peer.sendDtmf(digit);
    expect((await gatherResult(server, acct.key, call.callSid, 'acct')).json).toMatchObject({ status: 'done', digits: '12', reason: 'finish_key' });
    await call.peer.stop();
    // The prompt was cut by the first key: billed less than the whole of it.
    const billed = 100_000 - (await acct.balance());
    expect(billed).toBeGreaterThan(0);
    expect(billed).toBeLessThan(cp(prompt));
  });

  it('agent: a gather message collects keys and answers gather_result; a hangup mid-gather answers with what was typed', async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await account();
      const call = await placeCall(server, acct.id, { query: { agent_url: agent.url } });
      await agent.waitFor('call_started');
      // Timeouts far beyond the test: only the keys (and the hangup) decide, however slow the machine.
      agent.send({ type: 'gather', gather_id: 'menu', prompt: 'एक दबाइए।', num_digits: 1, interruptible: false, timeout_ms: 60_000 });
      expect((await agent.waitFor('utterance_played')).utterance_id).toBe('menu');
      call.peer.sendDtmf('1');
      expect(await agent.waitFor('gather_result')).toEqual({ type: 'gather_result', gather_id: 'menu', digits: '1', reason: 'max_digits' });
      // The key went to the gather; the agent still hears it, and nothing was cut.
      expect(agent.ofType('dtmf').map((e) => e.digit)).toEqual(['1']);
      expect(agent.ofType('interrupted')).toEqual([]);
      agent.send({ type: 'gather', num_digits: 99 });
      expect((await agent.waitFor('error')).error).toMatchObject({ code: 'validation_error', message: expect.stringContaining('num_digits') });

      // The key must reach the call after the gather does (they travel on different sockets): the prompt having
      // played says it is running.
      agent.send({ type: 'gather', gather_id: 'account', prompt: 'खाता संख्या।', timeout_ms: 60_000, inter_digit_timeout_ms: 60_000 });
      await agent.waitFor('utterance_played', { where: (e) => e.utterance_id === 'account' });
      call.peer.sendDtmf('7');
      await eventually(() => agent.ofType('dtmf').length === 2, 'the second key reached the call');
      await call.peer.stop();
      expect(await agent.waitFor('gather_result', { where: (e) => e.gather_id === 'account' })).toEqual({
        type: 'gather_result',
        gather_id: 'account',
        digits: '7',
        reason: 'hangup',
      });
    } finally {
      await agent.close();
    }
  });
});

describe('bad input and abrupt ends', () => {
  it('malformed, unknown, out-of-order and oversized input: each kind logged once with the CallSid, the call goes on', async () => {
    const acct = await account();
    const callSid = 'CA' + 'b'.repeat(32);
    const linesBefore = log.lines.length;
    const stream = RawStream.open(`${server.url.replace('http', 'ws')}/v1/telephony/twilio/media`);
    await stream.opened;
    stream.send('{not json');
    stream.send({ event: 'transcription', text: 'hi' });
    stream.media(new Uint8Array(160));
    stream.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    stream.start(callSid, { raaga_api_key: acct.key, greeting: 'नमस्ते।' });
    for (let i = 0; i < 3; i++) {
      stream.send('{not json');
      stream.media('%%%not-base64%%%');
      stream.media(new Uint8Array(100));
      stream.start(callSid, { raaga_api_key: acct.key });
    }
    await eventually(() => stream.received.some((m) => m.event === 'media'), 'the greeting speaks anyway');
    expect(stream.received.every((m) => m.event !== 'media' || Buffer.from(m.media.payload, 'base64').length % 160 === 0)).toBe(true);
    stream.stop();
    stream.send({ event: 'mark', mark: { name: 'late' } });
    await stream.closed;
    // Lines of this stream only (before `start` they carry neither CallSid nor StreamSid).
    const kinds = log.lines
      .slice(linesBefore)
      .filter((line) => line.msg === BAD_INPUT_LOG && (line.callSid === undefined || line.callSid === callSid))
      .map((p) => p.problem);
    for (const kind of ['invalid-json', 'unknown-event', 'media-before-start', 'binary-frame', 'not-base64', 'second-start']) {
      expect(kinds.filter((k) => k === kind), kind).toHaveLength(1);
    }
    expect(problems(callSid).some((p) => p.problem === 'not-base64')).toBe(true);
    await eventually(() => slotFree(acct.id), 'slot freed');
  });

  it('a stream dropped mid-utterance frees the slot and bills only the audio produced', async () => {
    const acct = await account('free');
    const call = await placeCall(server, acct.id, { query: { greeting: LONG_GREETING } });
    await call.peer.waitFor('first_media_in', 10_000);
    expect(await slotFree(acct.id)).toBe(false);
    // Dropped as soon as audio flows: the greeting's first chunk is produced (billed), the rest is not yet.
    await call.peer.drop();
    await eventually(() => slotFree(acct.id), 'slot freed after drop');
    const billed = 100_000 - (await acct.balance());
    expect(billed).toBeGreaterThan(0);
    expect(billed).toBeLessThan(cp(LONG_GREETING));
    expect(problems(call.callSid).map((p) => p.problem)).toContain('dropped');
  });

  it('a socket that never sends start is closed by the start deadline, however much junk it sends (R3)', async () => {
    const stream = RawStream.open(`${server.url.replace('http', 'ws')}/v1/telephony/twilio/media`);
    await stream.opened;
    // Junk more often than the idle watchdog's period: it keeps the stream "alive" but must not extend the deadline.
    const junk = setInterval(() => stream.send({ event: 'connected', protocol: 'Call', version: '1.0.0' }), 100);
    try {
      const closed = await stream.closed;
      expect(closed).toEqual({ code: 1008, reason: 'no start' });
    } finally {
      clearInterval(junk);
    }
  });

  it('a stream that goes silent without stop is ended after TELEPHONY_STREAM_TIMEOUT_MS', async () => {
    const acct = await account('free');
    const stream = RawStream.open(`${server.url.replace('http', 'ws')}/v1/telephony/twilio/media`);
    await stream.opened;
    stream.start('CA' + 'c'.repeat(32), { raaga_api_key: acct.key });
    await eventually(async () => !(await slotFree(acct.id)), 'call holds its slot');
    const closed = await stream.closed;
    expect(closed.code).toBe(1008);
    await eventually(() => slotFree(acct.id), 'slot freed after the silence');
  });

  it('over the concurrency limit the second call is refused (stream closed), the first goes on', async () => {
    const acct = await account('free');
    const first = await placeCall(server, acct.id, { query: { greeting: LONG_GREETING } });
    await first.peer.waitFor('first_media_in', 10_000);
    const second = await placeCall(server, acct.id, { query: { greeting: 'नमस्ते।' } });
    expect(await second.peer.closed).toBe(1000);
    expect(second.peer.summary().mediaReceived).toBe(0);
    // The first call is still served after the refusal: a mark of its greeting arrives after the second closed.
    const refusedAt = first.peer.timeline.length;
    await eventually(() => first.peer.timeline.slice(refusedAt).some((event) => event.kind === 'mark_received'), 'the first call goes on', 15_000);
    expect(first.peer.summary().closeCode).toBeUndefined();
    await first.peer.stop();
  });
});
