// The behaviour every provider shares, run over each provider's real protocol: the simulated provider (CallPeer in
// that provider's dialect, reached the way the provider reaches Raaga, with its credentials) against a real server.
// A greeting plays and is acknowledged and billed; a key press cuts it (clear, nothing of it after the clear,
// `interrupted` with what was heard); caller speech cuts it through the provider's own audio format (Exotel sends
// PCM16 every 100 ms); REST say and hangup reach the call; a drop frees the slot; bad credentials are refused.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogPath } from '../../src/deps.js';
import type { TelephonySettings } from '../../src/store/store.js';
import { CallerTrack } from '../../src/sim/caller-audio.js';
import { CallerVoice } from '../../src/sim/caller-speech.js';
import { plivoSignatureHeaders } from '../../src/sim/dialects/plivo-answer-client.js';
import { dialProvider, SIMULATED_PROVIDERS, type ProviderCredentials, type SimulatedProvider } from '../../src/sim/dial-provider.js';
import { FakeAgent } from '../helpers/fake-agent.js';
import { BAD_INPUT_LOG, callControl, capturingLogger, eventually, LONG_GREETING, SETTINGS_UPDATED_AT_MS } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { generateApiKey, hashApiKey } from '../../src/store/api-key.js';

const SECRETS = {
  twilio: { settings: { credentials: { twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed' } }, credentials: { twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed' } },
  smartflo: { settings: { credentials: { smartfloToken: 'sf_0123456789abcdefghijklmn' } }, credentials: { smartfloToken: 'sf_0123456789abcdefghijklmn' } },
  exotel: { settings: { credentials: { exotelCredentials: 'exo-user:exo-secret-123' } }, credentials: { exotelCredentials: 'exo-user:exo-secret-123' } },
  plivo: { settings: { credentials: { plivoAuthId: 'MAXXXXXXXXXXXXXXXXXX', plivoAuthToken: 'plivo-token-0123456789' } }, credentials: { plivoAuthToken: 'plivo-token-0123456789' } },
  asterisk: { settings: { credentials: { asteriskCredentials: 'asterisk:ast-secret-99' } }, credentials: { asteriskCredentials: 'asterisk:ast-secret-99' } },
  // AudioSocket has no credentials: the listener's allowed networks (loopback here) are the check.
  audiosocket: { settings: {}, credentials: {} },
} satisfies Record<SimulatedProvider, { settings: Partial<TelephonySettings>; credentials: ProviderCredentials }>;

const WRONG: Record<SimulatedProvider, ProviderCredentials> = {
  twilio: { twilioAuthToken: 'wrong-token-wrong-token-wrong-tok' },
  smartflo: { smartfloToken: 'sf_wrongwrongwrongwrongwrong' },
  exotel: { exotelCredentials: 'exo-user:not-the-secret' },
  plivo: { plivoAuthToken: 'not-the-plivo-token-00' },
  asterisk: { asteriskCredentials: 'asterisk:not-the-secret' },
  audiosocket: {},
};

/** A frame each provider's codec cannot read, and the problem it is logged as. */
const JUNK: Record<SimulatedProvider, { frame: string | Uint8Array; problem: string }> = {
  twilio: { frame: '{"event":"media","media":', problem: 'invalid-json' },
  smartflo: { frame: '{"event":"transcript"}', problem: 'unknown-event' },
  exotel: { frame: '{"event":"media","media":{"payload":"%%%"}}', problem: 'not-base64' },
  plivo: { frame: '{"event":"playAudio"}', problem: 'unknown-event' },
  asterisk: { frame: 'DTMF_END digit:', problem: 'invalid-shape' },
  audiosocket: { frame: Uint8Array.of(0x42, 0x00, 0x01, 0x00), problem: 'unknown-event' },
};

/** The one account the AudioSocket listener bills (AUDIOSOCKET_ACCOUNT). */
const AUDIOSOCKET_ACCOUNT = 'acct_audiosocket';
/** AudioSocket has no clear on the wire: Raaga stops sending, so the cut is seen as `interrupted` at the agent. */
const hasClear = (provider: SimulatedProvider) => provider !== 'audiosocket';

let server: TestServer;
const log = capturingLogger();
let plivoApi: Server;
/** The loopback stand-in for api.plivo.com, stored as the Plivo accounts' API host. */
let plivoApiBaseUrl = '';
/** Requests the loopback stand-in for api.plivo.com received: method, path, Authorization (and form, if any). */
const plivoRequests: { method: string; url: string; authorization: string | undefined; form?: Record<string, string> }[] = [];
let voice: CallerVoice;
let audioSocketKey: string;
let interruption: Uint8Array;
let filler: Uint8Array;
const cp = (text: string) => [...text].length;

beforeAll(async () => {
  plivoApi = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      plivoRequests.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, ...(body ? { form: Object.fromEntries(new URLSearchParams(body)) } : {}) });
      // As Plivo answers: DELETE (hangup) 204; POST on a call (transfer) 202 "call transferred".
      response.statusCode = request.method === 'POST' ? 202 : 204;
      response.end(request.method === 'POST' ? JSON.stringify({ message: 'call transferred', api_id: 'stub' }) : undefined);
    });
  });
  await new Promise<void>((resolve) => plivoApi.listen(0, '127.0.0.1', resolve));
  plivoApiBaseUrl = `http://127.0.0.1:${(plivoApi.address() as AddressInfo).port}`;
  server = await startTestServer(
    { TTS_WORKERS: '2', AUDIOSOCKET_PORT: '0', AUDIOSOCKET_ACCOUNT },
    { logger: log.logger },
  );
  await server.deps.store.createAccount({ id: AUDIOSOCKET_ACCOUNT, plan: 'growth', credits: 1_000_000_000 });
  audioSocketKey = generateApiKey();
  await server.deps.store.addKeyHash(AUDIOSOCKET_ACCOUNT, hashApiKey(audioSocketKey));
  await server.deps.telephony!.vad!.ready();
  voice = await CallerVoice.start(catalogPath(server.deps.config));
  interruption = await voice.say({ text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN' });
  filler = await voice.say({ text: 'हाँ', language: 'hi-IN' });
});
afterAll(async () => {
  await voice?.close();
  await server?.close();
  await new Promise((resolve) => plivoApi?.close(resolve));
});

/** A caller whose clip starts when the test cues it (an event seen), not at a time fixed in advance: the peer reads it frame by frame. */
class CuedCaller extends CallerTrack {
  #cued: CallerTrack | undefined;
  constructor(
    private readonly mulaw: Uint8Array,
    private readonly label: string,
  ) {
    super();
  }
  /** The clip starts `atMs` into the call (the peer's clock). */
  cue(atMs: number): void {
    this.#cued = new CallerTrack([{ atMs, mulaw: this.mulaw, label: this.label }]);
  }
  override frame(index: number): Uint8Array {
    return this.#cued?.frame(index) ?? super.frame(index);
  }
  override endMs(): number {
    return this.#cued?.endMs() ?? 0;
  }
}

async function providerAccount(provider: SimulatedProvider) {
  if (provider === 'audiosocket') {
    // One account for every AudioSocket call: its balance is read relative to this test's start.
    const credits = async () => (await server.deps.store.getAccount(AUDIOSOCKET_ACCOUNT))!.credits;
    const atStart = await credits();
    return { id: AUDIOSOCKET_ACCOUNT, key: audioSocketKey, balance: async () => 1_000_000 - (atStart - (await credits())) };
  }
  const created = await server.account('growth', 1_000_000);
  const settings: Partial<TelephonySettings> = SECRETS[provider].settings;
  const apiHost: Record<string, string> = provider === 'plivo' ? { plivoApiBaseUrl } : {};
  await server.deps.store.putTelephonySettings({ accountId: created.id, credentials: { ...settings.credentials, ...apiHost }, updatedAtMs: SETTINGS_UPDATED_AT_MS });
  return { id: created.id, key: created.keys[0] as string, balance: async () => (await server.deps.store.getAccount(created.id))!.credits };
}

async function slotFree(accountId: string): Promise<boolean> {
  const result = await server.deps.store.admit({ accountId, limits: { requestsPerMinute: 1000, concurrentRequests: 1 }, countRate: false, slotHolderId: 'probe' });
  if (result.ok) await server.deps.store.releaseSlot(accountId, 'probe');
  return result.ok;
}

async function dial(provider: SimulatedProvider, accountId: string, params: Record<string, string>, extra: { caller?: CallerTrack; dtmf?: { digit: string; atMs: number }[]; mediaBeforeStart?: boolean } = {}) {
  if (provider === 'audiosocket') {
    // AudioSocket carries no settings: the call's are the account's defaults.
    await server.deps.store.putTelephonySettings({ accountId, defaults: params, updatedAtMs: SETTINGS_UPDATED_AT_MS });
    return dialProvider({ provider, baseUrl: server.url, audioSocket: server.audioSocket, ...extra });
  }
  return dialProvider({ provider, baseUrl: server.url, accountId, credentials: SECRETS[provider].credentials, params, ...extra });
}

describe.each(SIMULATED_PROVIDERS)('%s', (provider) => {
  it('the greeting plays whole: acknowledged, utterance_played, billed once; the slot is free after the stop', async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await providerAccount(provider);
      const greeting = 'नमस्ते, आपका स्वागत है।';
      const { peer, callId } = await dial(provider, acct.id, { greeting, agent_url: agent.url });
      const started = await agent.waitFor('call_started');
      expect(started).toMatchObject({ provider, call_sid: callId });
      const played = await agent.waitFor('utterance_played');
      expect(played).toMatchObject({ utterance_id: 'greeting' });
      expect(played.duration_ms).toBeGreaterThan(500);
      expect(peer.summary().badMessages).toBe(0);
      // What the caller heard is speech, not silence.
      const heard = peer.heardMulaw();
      expect(heard.filter((byte) => byte !== 0xff && byte !== 0x7f).length).toBeGreaterThan(heard.length / 10);
      await peer.stop();
      if (provider === 'plivo' || provider === 'asterisk') await peer.drop();
      await eventually(() => slotFree(acct.id), 'slot freed');
      await eventually(async () => (await acct.balance()) === 1_000_000 - cp(greeting), 'greeting billed once');
    } finally {
      await agent.close();
    }
  });

  it('a key press cuts the greeting: clear, nothing of it after the clear, interrupted with what was heard', async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await providerAccount(provider);
      const { peer } = await dial(provider, acct.id, { greeting: LONG_GREETING, agent_url: agent.url, barge_in: 'dtmf' }, { dtmf: [{ digit: '5', atMs: 2500 }] });
      if (hasClear(provider)) await peer.waitFor('clear_received', 20_000);
      const interrupted = await agent.waitFor('interrupted', { timeoutMs: 20_000 });
      expect(interrupted).toMatchObject({ utterance_id: 'greeting', cause: 'dtmf' });
      expect(interrupted.played_ms).toBeGreaterThan(0);
      expect(LONG_GREETING.startsWith(interrupted.heard_text)).toBe(true);
      expect(await agent.waitFor('dtmf')).toMatchObject({ digit: '5' });
      const clearAt = hasClear(provider) ? peer.inbound.findIndex((entry) => entry.event === 'clear') : -1;
      const beforeReply = peer.inbound.length;
      agent.send({ type: 'text', text: 'जी, बताइए।', utterance_id: 'reply' });
      const reply = await agent.waitFor('utterance_played', { where: (event) => event.utterance_id === 'reply' });
      if (hasClear(provider)) {
        // Nothing of the cut greeting follows the clear: the agent's next words are the next thing the caller gets,
        // and the only mark after the clear is theirs, in the new generation.
        expect(peer.inbound.slice(clearAt + 1, beforeReply)).toEqual([]);
        expect(peer.inbound.slice(clearAt + 1).filter((entry) => entry.event === 'mark').map((entry) => entry.name)).toEqual(['u2.c0.g1']);
      } else {
        // No clear on the wire: Raaga stopped sending. Of the greeting the caller got no more than the server counts
        // as heard, plus the one frame on the wire when the key came; everything after it is the reply, whole.
        const greetingMs = peer.summary().playout.receivedMs - reply.duration_ms;
        expect(greetingMs).toBeGreaterThan(0);
        expect(greetingMs).toBeLessThanOrEqual(interrupted.played_ms + 40);
        expect(peer.inbound.every((entry) => entry.event === 'media')).toBe(true);
      }
      expect(agent.events.some((event) => event.type === 'utterance_played' && event.utterance_id === 'greeting')).toBe(false);
      await peer.drop();
      await eventually(() => slotFree(acct.id), 'slot freed after the drop');
      expect(1_000_000 - (await acct.balance())).toBeLessThan(cp(LONG_GREETING) + cp('जी, बताइए।'));
    } finally {
      await agent.close();
    }
  });

  it("caller speech cuts the greeting through the provider's own audio format", async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await providerAccount(provider);
      const { peer } = await dial(provider, acct.id, { greeting: LONG_GREETING, agent_url: agent.url }, { caller: new CallerTrack([{ atMs: 3000, mulaw: interruption, label: 'रुको' }]) });
      if (hasClear(provider)) await peer.waitFor('clear_received', 20_000);
      expect(await agent.waitFor('speech_started')).toMatchObject({ type: 'speech_started' });
      expect(await agent.waitFor('interrupted')).toMatchObject({ utterance_id: 'greeting', cause: 'speech' });
      await peer.drop();
    } finally {
      await agent.close();
    }
  });

  it("a filler holds the greeting and it resumes on the provider's own protocol: played to the end, nothing lost, billed once", async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await providerAccount(provider);
      const greeting = 'नमस्ते, राग बैंक में आपका स्वागत है। आपकी कॉल हमारे लिए महत्वपूर्ण है।';
      // The filler comes once the greeting is heard (its first audio reached the caller), not at a fixed time: on a
      // loaded machine the greeting may start late, and a filler before the bot speaks has nothing to hold.
      const caller = new CuedCaller(filler, 'हाँ');
      const { peer } = await dial(provider, acct.id, { greeting, agent_url: agent.url, barge_in_events: '2' }, { caller });
      await peer.waitFor('first_media_in', 20_000);
      caller.cue(peer.elapsedMs() + 300);
      const suspected = await agent.waitFor('interruption_suspected', { timeoutMs: 20_000 });
      // The agent's recognizer heard a backchannel: its verdict decides, not the sound's length, which for this "हाँ"
      // lies near short_max_ms (Silero's probabilities move a window either way when a loaded machine batches them).
      agent.send({ type: 'barge_in_verdict', suspect_id: suspected.suspect_id, verdict: 'resume' });
      expect(await agent.waitFor('resumed', { timeoutMs: 20_000 })).toMatchObject({ suspect_id: suspected.suspect_id, utterance_id: 'greeting', from_ms: suspected.position_ms, reason: 'verdict' });
      expect(await agent.waitFor('utterance_played', { timeoutMs: 20_000 })).toMatchObject({ utterance_id: 'greeting' });
      expect(agent.ofType('interrupted')).toEqual([]);
      const summary = peer.summary();
      if (hasClear(provider)) {
        expect(summary.clears).toBe(1);
        expect(summary.lostMs).toBe(0);
      }
      await peer.drop();
      await eventually(async () => 1_000_000 - (await acct.balance()) === cp(greeting), 'the greeting billed once');
    } finally {
      await agent.close();
    }
  });

  it('REST say and cancel reach the call by its provider call id; REST hangup ends it', async () => {
    const acct = await providerAccount(provider);
    const { peer, callId } = await dial(provider, acct.id, {});
    // REST control finds the call once its stream has started (404 until then). Not the account's slot: on
    // AudioSocket every test's call is the same account's, and the previous call may still be letting its slot go.
    const said = await vi.waitFor(
      async () => {
        const answer = await callControl(server, acct.key, callId, 'say', { text: LONG_GREETING });
        expect(answer.status).not.toBe(404);
        return answer;
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(said).toMatchObject({ status: 202, json: { call_sid: callId, status: 'queued' } });
    await peer.waitFor('first_media_in', 20_000);
    // Cancel cuts what is speaking: a clear on the wire, or on AudioSocket the audio stops (the pacer drops it).
    expect((await callControl(server, acct.key, callId, 'cancel')).status).toBe(200);
    if (hasClear(provider)) await peer.waitFor('clear_received', 20_000);
    const otp = await callControl(server, acct.key, callId, 'say', { text: 'आपका ओटीपी 4 8 2 9 है।' });
    expect(otp.status).toBe(202);
    await eventually(() => peer.summary().playout.receivedMs < cp(LONG_GREETING) * 60, 'less than the whole text was heard');
    const hung = await callControl(server, acct.key, callId, 'hangup', { drain: false });
    expect(hung.status).toBe(202);
    if (provider === 'plivo') {
      // With its auth id and token, Raaga asks Plivo's REST API to end the call; Plivo then closes the stream.
      const expected = { method: 'DELETE', url: `/v1/Account/MAXXXXXXXXXXXXXXXXXX/Call/${callId}/`, authorization: `Basic ${Buffer.from('MAXXXXXXXXXXXXXXXXXX:plivo-token-0123456789').toString('base64')}` };
      await eventually(() => plivoRequests.some((request) => request.url === expected.url), 'Plivo hangup request');
      expect(plivoRequests.find((request) => request.url === expected.url)).toEqual(expected);
      await peer.drop();
    }
    // Asterisk gets HANGUP (AudioSocket its hangup packet) and hangs up; Twilio (REST not configured here), Exotel
    // and Smartflo see their stream closed.
    await peer.closed;
    if (provider === 'asterisk' || provider === 'audiosocket') expect(peer.timeline.some((event) => event.kind === 'hangup_received')).toBe(true);
    await eventually(() => slotFree(acct.id), 'slot freed after hangup');
  });

  it('bad input (media before start, frames the codec cannot read, a message over the size limit): each kind logged once with the call id, the call goes on until the oversized message ends it cleanly', async () => {
    const acct = await providerAccount(provider);
    const greeting = 'नमस्ते, आपका स्वागत है।';
    const { peer, callId } = await dial(provider, acct.id, { greeting }, { mediaBeforeStart: true });
    await peer.waitFor('first_media_in', 20_000);
    for (let i = 0; i < 3; i++) peer.sendRaw(JUNK[provider].frame);
    const problemsOf = (kind: string) => log.lines.filter((line) => line.msg === BAD_INPUT_LOG && line.problem === kind && (line.callSid === callId || line.callSid === undefined) && line.provider === provider);
    await eventually(() => problemsOf(JUNK[provider].problem).some((line) => line.callSid === callId), `the ${JUNK[provider].problem} line`);
    // The call still speaks after the junk: the whole greeting arrives.
    await eventually(() => peer.summary().playout.receivedMs > 1000, 'the greeting goes on');
    if (provider === 'audiosocket') {
      // A packet's length field is 16 bits: nothing can be oversized; the call ends with Asterisk's hangup.
      await peer.stop();
    } else {
      peer.sendRaw(typeof JUNK[provider].frame === 'string' ? 'x'.repeat(70_000) : new Uint8Array(70_000));
      expect(await peer.closed).toBe(1009);
      await eventually(() => problemsOf('oversized').some((line) => line.callSid === callId), 'the oversized line');
      expect(problemsOf('oversized')).toHaveLength(1);
    }
    await eventually(() => slotFree(acct.id), 'slot freed');
    expect(problemsOf(JUNK[provider].problem)).toHaveLength(1);
    expect(problemsOf('media-before-start')).toHaveLength(1);
    expect(1_000_000 - (await acct.balance())).toBeLessThanOrEqual(cp(greeting));
  });

  it('wrong credentials are refused at the upgrade; no call starts', async () => {
    const acct = await providerAccount(provider);
    if (provider === 'audiosocket') {
      // AudioSocket's check is the peer's address: from outside AUDIOSOCKET_ALLOW (loopback 127.0.0.1 only by
      // default) the connection is closed before a byte is read.
      const { peer } = await dialProvider({ provider, baseUrl: server.url, audioSocket: { ...server.audioSocket!, localAddress: '127.0.0.2' } });
      await peer.closed;
      expect(peer.summary().mediaReceived).toBe(0);
      expect(await slotFree(acct.id)).toBe(true);
      return;
    }
    await expect(dialProvider({ provider, baseUrl: server.url, accountId: acct.id, credentials: WRONG[provider], params: { greeting: 'नमस्ते।' } })).rejects.toThrow(/40[13]/);
    expect(await slotFree(acct.id)).toBe(true);
  });
});

describe('plivo REST transfer', () => {
  it("an agent's transfer goes through Plivo's REST API to Raaga's signed transfer XML, which dials the target", async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await providerAccount('plivo');
      const { peer, callId } = await dial('plivo', acct.id, { agent_url: agent.url });
      await agent.waitFor('call_started');
      agent.send({ type: 'transfer', to: '+918000000009', caller_id: '+918000000001', timeout_s: 25 });
      const path = `/v1/Account/MAXXXXXXXXXXXXXXXXXX/Call/${callId}/`;
      await eventually(() => plivoRequests.some((request) => request.method === 'POST' && request.url === path), 'the Plivo transfer request');
      const transfer = plivoRequests.find((request) => request.method === 'POST' && request.url === path)!;
      const alegUrl = `${server.url}/v1/telephony/plivo/transfer/${acct.id}?to=%2B918000000009&caller_id=%2B918000000001&timeout_s=25`;
      expect(transfer).toEqual({ method: 'POST', url: path, authorization: `Basic ${Buffer.from('MAXXXXXXXXXXXXXXXXXX:plivo-token-0123456789').toString('base64')}`, form: { legs: 'aleg', aleg_url: alegUrl, aleg_method: 'GET' } });
      // What Plivo then fetches, signed with the account's token: the XML that dials the target.
      const signed = await fetch(alegUrl, { headers: plivoSignatureHeaders('plivo-token-0123456789', 'GET', alegUrl, {}) });
      expect(signed.status).toBe(200);
      expect(signed.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(await signed.text()).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<Response><Dial callerId="+918000000001" timeout="25"><Number>+918000000009</Number></Dial></Response>');
      expect((await fetch(alegUrl)).status).toBe(403);
      const sipUrl = `${server.url}/v1/telephony/plivo/transfer/${acct.id}?to=${encodeURIComponent('sip:desk@pbx.example.in')}`;
      expect(await (await fetch(sipUrl, { headers: plivoSignatureHeaders('plivo-token-0123456789', 'GET', sipUrl, {}) })).text()).toContain('<Dial><User>sip:desk@pbx.example.in</User></Dial>');
      const badUrl = `${server.url}/v1/telephony/plivo/transfer/${acct.id}?to=${encodeURIComponent('<evil/>')}`;
      const bad = await fetch(badUrl, { headers: plivoSignatureHeaders('plivo-token-0123456789', 'GET', badUrl, {}) });
      expect(bad.status).toBe(422);
      expect(((await bad.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/^to must be a phone number/) });
      const badTimeoutUrl = `${server.url}/v1/telephony/plivo/transfer/${acct.id}?to=%2B918000000009&timeout_s=1`;
      const badTimeout = await fetch(badTimeoutUrl, { headers: plivoSignatureHeaders('plivo-token-0123456789', 'GET', badTimeoutUrl, {}) });
      expect(((await badTimeout.json()) as { error: { message: string } }).error.message).toBe('timeout_s must be an integer 5-600');
      // Plivo moves the call to the new XML and the stream ends.
      await peer.drop();
      expect((await agent.waitFor('call_ended')).reason).toBe('transfer');
      await eventually(() => slotFree(acct.id), 'slot freed after the transfer');
    } finally {
      await agent.close();
    }
  });
});
