// Admission per process over real sockets, one server at TELEPHONY_MAX_CALLS=1 with a settable event-loop lag: a
// second call is refused in each provider's own way before any audio (nothing reserved or billed, counted by reason),
// the next call after the first ends is taken; while the lag is high every way in refuses and /readyz is not ready.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { dialProvider, SIMULATED_PROVIDERS, type SimulatedProvider } from '../../src/sim/dial-provider.js';
import { fetchPlivoAnswer } from '../../src/sim/dialects/plivo-answer-client.js';
import { fetchStreamInstruction } from '../../src/sim/dialects/twilio-voice-webhook-client.js';
import { metricValue } from '../helpers/metrics.js';
import { capturingLogger, eventually, unsignedAccount } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const AUDIOSOCKET_ACCOUNT = 'acct_admission_as';
const REJECT_BUSY = '<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>';
const PLIVO_BUSY = '<?xml version="1.0" encoding="UTF-8"?>\n<Response><Hangup reason="busy"/></Response>';

let server: TestServer;
const lag = { ms: 0 };
const log = capturingLogger();

beforeAll(async () => {
  server = await startTestServer({ TTS_WORKERS: '1', TELEPHONY_MAX_CALLS: '1', AUDIOSOCKET_PORT: '0', AUDIOSOCKET_ACCOUNT }, { vad: null, eventLoopLag: { p99Ms: () => lag.ms }, logger: log.logger });
  await server.deps.store.createAccount({ id: AUDIOSOCKET_ACCOUNT, plan: 'growth', credits: 100_000 });
});
afterAll(async () => {
  await server?.close();
});

const admission = () => server.deps.telephony!.callAdmission;
const ws = (path: string) => `${server.url.replace(/^http/, 'ws')}${path}`;
const credits = async (accountId: string) => (await server.deps.store.getAccount(accountId))!.credits;
const refusals = (reason: string, provider: string) => metricValue(server, `raaga_call_refusals_total{reason="${reason}",provider="${provider}"}`);

async function slotFree(accountId: string): Promise<boolean> {
  const result = await server.deps.store.admit({ accountId, limits: { requestsPerMinute: 1000, concurrentRequests: 1 }, countRate: false, slotHolderId: 'probe' });
  if (result.ok) await server.deps.store.releaseSlot(accountId, 'probe');
  return result.ok;
}

/** A WebSocket upgrade the server must refuse: its status, Retry-After and error envelope. */
function refusedUpgrade(url: string): Promise<{ status: number | undefined; retryAfter: string | undefined; error: { code: string; message: string } }> {
  const socket = new WebSocket(url);
  socket.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.terminate();
      reject(new Error(`${url} was upgraded`));
    });
    socket.once('unexpected-response', (request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode, retryAfter: response.headers['retry-after'], error: (JSON.parse(body) as { error: { code: string; message: string } }).error });
      });
    });
  });
}

async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: response.status, text: await response.text() };
}

/** The media path each provider's stream dials for an account (unsigned accounts: no credentials needed). */
function mediaUrl(provider: Exclude<SimulatedProvider, 'twilio' | 'plivo' | 'audiosocket'>, accountId: string): string {
  return ws(provider === 'smartflo' ? `/v1/telephony/smartflo/media/${accountId}/any-secret` : `/v1/telephony/${provider}/media/${accountId}`);
}

async function dial(provider: SimulatedProvider, accountId: string) {
  if (provider === 'audiosocket') return dialProvider({ provider, baseUrl: server.url, audioSocket: server.audioSocket });
  return dialProvider({ provider, baseUrl: server.url, accountId });
}

/** A silent call holding this process's one slot (an Exotel stream of an account of its own). */
async function holdTheSlot() {
  const holder = await unsignedAccount(server);
  const { peer } = await dialProvider({ provider: 'exotel', baseUrl: server.url, accountId: holder.id });
  // The slot is taken once the stream's start is authenticated, not at the upgrade.
  await eventually(() => admission().liveCalls === 1, 'the holder took the slot');
  return peer;
}

describe.each(SIMULATED_PROVIDERS)('%s, with the process at its one call', (provider) => {
  it("a second call is refused the provider's way before any audio; nothing is reserved or billed; after the first ends the next is taken", async () => {
    const refused = provider === 'audiosocket' ? { id: AUDIOSOCKET_ACCOUNT } : await unsignedAccount(server);
    const before = { credits: await credits(refused.id), refusals: await refusals('max_calls', provider) };
    let expected = 1;
    // Twilio and Plivo answer a webhook first, while a slot is still free; their stream then finds none.
    const instruction = provider === 'twilio' ? await fetchStreamInstruction({ url: `${server.url}/v1/telephony/twilio/voice/${refused.id}` }) : undefined;
    const plivoAnswer = provider === 'plivo' ? await fetchPlivoAnswer({ url: `${server.url}/v1/telephony/plivo/answer/${refused.id}` }) : undefined;
    const holder = await holdTheSlot();
    try {
      switch (provider) {
        case 'twilio': {
          // The caller hears busy: the webhook rejects before anything else.
          expect(await postForm(`${server.url}/v1/telephony/twilio/voice/${refused.id}`, { CallSid: `CA${'1'.repeat(32)}`, AccountSid: `AC${'1'.repeat(32)}` })).toEqual({ status: 200, text: REJECT_BUSY });
          const upgrade = await refusedUpgrade(ws(new URL(instruction!.streamUrl).pathname));
          expect(upgrade).toMatchObject({ status: 503, retryAfter: '5', error: { code: 'server_busy' } });
          expected = 2;
          break;
        }
        case 'plivo': {
          expect(await postForm(`${server.url}/v1/telephony/plivo/answer/${refused.id}`, { CallUUID: '0b9f6c6e-8d4c-4e57-9a1e-000000000001' })).toEqual({ status: 200, text: PLIVO_BUSY });
          const stream = new URL(plivoAnswer!.streamUrl);
          expect(await refusedUpgrade(ws(`${stream.pathname}${stream.search}`))).toMatchObject({ status: 503, retryAfter: '5', error: { code: 'server_busy' } });
          expected = 2;
          break;
        }
        case 'audiosocket': {
          // AudioSocket's own refusal: the hangup packet, then the connection ends; not one audio packet.
          const { peer } = await dial('audiosocket', refused.id);
          await peer.closed;
          expect(peer.timeline.some((event) => event.kind === 'hangup_received')).toBe(true);
          expect(peer.summary().mediaReceived).toBe(0);
          break;
        }
        default: {
          const upgrade = await refusedUpgrade(mediaUrl(provider, refused.id));
          expect(upgrade).toMatchObject({ status: 503, retryAfter: '5', error: { code: 'server_busy', message: expect.stringMatching(/limit of simultaneous calls/) } });
        }
      }
      expect(await refusals('max_calls', provider)).toBe(before.refusals + expected);
      expect(admission().liveCalls).toBe(1);
      expect(await credits(refused.id)).toBe(before.credits);
      expect(await slotFree(refused.id)).toBe(true);
    } finally {
      await holder.drop();
    }
    await eventually(() => admission().liveCalls === 0, 'the holder released its slot');
    const { peer } = await dial(provider, refused.id);
    await eventually(() => server.deps.telephony!.calls.localCalls() === 1, `the ${provider} call taken once the process had room`);
    await peer.drop();
    await eventually(() => admission().liveCalls === 0 && server.deps.telephony!.calls.localCalls() === 0, 'the call ended and freed its slot');
  });
});

it('a plain GET on a media path (no upgrade) is answered 400 and takes no slot', async () => {
  const acct = await unsignedAccount(server);
  const response = await fetch(`${server.url}/v1/telephony/exotel/media/${acct.id}`);
  expect(response.status).toBe(400);
  expect(admission().liveCalls).toBe(0);
  // The one slot is still there for a call.
  const peer = await holdTheSlot();
  await peer.drop();
  await eventually(() => admission().liveCalls === 0, 'its slot freed');
});

describe('POST /v1/calls at the limit', () => {
  it('is 503 server_busy with Retry-After, before anything is placed or billed', async () => {
    const caller = await unsignedAccount(server);
    const before = await refusals('max_calls', 'exotel');
    const holder = await holdTheSlot();
    try {
      const response = await fetch(`${server.url}/v1/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${caller.keys[0]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'exotel', to: '+919812345678', from: '+918047112299', greeting: 'नमस्ते' }),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('server_busy');
      expect(await refusals('max_calls', 'exotel')).toBe(before + 1);
      expect(await credits(caller.id)).toBe(100_000);
    } finally {
      await holder.drop();
    }
    await eventually(() => admission().liveCalls === 0, 'the holder released its slot');
  });
});

describe('shedding while the event loop lags', () => {
  const readyz = async () => {
    const response = await fetch(`${server.url}/readyz`);
    return { status: response.status, json: (await response.json()) as { status: string; checks: { shedding_calls: boolean } } };
  };

  it('refuses every way in with reason event_loop_lag and /readyz is not ready; once the lag falls calls are taken again', async () => {
    const acct = await unsignedAccount(server);
    const before = { twilio: await refusals('event_loop_lag', 'twilio'), exotel: await refusals('event_loop_lag', 'exotel'), audiosocket: await refusals('event_loop_lag', 'audiosocket') };
    expect((await readyz()).status).toBe(200);

    lag.ms = 100;
    expect(await readyz()).toEqual({ status: 503, json: expect.objectContaining({ status: 'not_ready', checks: expect.objectContaining({ shedding_calls: true }) }) });
    await expect(fetchStreamInstruction({ url: `${server.url}/v1/telephony/twilio/voice/${acct.id}` })).rejects.toThrow('the voice webhook rejected the call (busy)');
    // Who asks is checked before capacity: an account that takes no unsigned requests still answers a stranger 403.
    const stranger = await server.account('growth', 1000);
    const unsigned = await fetch(`${server.url}/v1/telephony/twilio/voice/${stranger.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `CallSid=CA${'e'.repeat(32)}`,
    });
    expect(unsigned.status).toBe(403);
    expect(await refusedUpgrade(mediaUrl('exotel', acct.id))).toMatchObject({ status: 503, error: { code: 'server_busy', message: expect.stringMatching(/lags/) } });
    const { peer } = await dial('audiosocket', AUDIOSOCKET_ACCOUNT);
    await peer.closed;
    expect(peer.timeline.some((event) => event.kind === 'hangup_received')).toBe(true);
    const placed = await fetch(`${server.url}/v1/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acct.keys[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'twilio', to: '+919812345678', from: '+14155550100' }),
    });
    expect(placed.status).toBe(503);
    expect(await refusals('event_loop_lag', 'twilio')).toBe(before.twilio + 2);
    expect(await refusals('event_loop_lag', 'exotel')).toBe(before.exotel + 1);
    expect(await refusals('event_loop_lag', 'audiosocket')).toBe(before.audiosocket + 1);
    expect(admission().liveCalls).toBe(0);

    // Under half the threshold, not merely under it, ends the shedding: no flapping around the line.
    lag.ms = 30;
    expect((await readyz()).status).toBe(503);
    lag.ms = 5;
    expect(await readyz()).toEqual({ status: 200, json: expect.objectContaining({ status: 'ready', checks: expect.objectContaining({ shedding_calls: false }) }) });
    const call = await dial('twilio', acct.id);
    await eventually(() => server.deps.telephony!.calls.localCalls() === 1, 'a call taken after the lag fell');
    await call.peer.drop();
    await eventually(() => admission().liveCalls === 0, 'its slot freed');
    expect(log.lines.filter((line) => line.msg === 'shedding load: new calls refused while the event loop lags')).toHaveLength(1);
    expect(log.lines.filter((line) => line.msg === 'load shedding over: new calls accepted again')).toHaveLength(1);
    expect(log.lines.filter((line) => line.msg?.startsWith('new calls refused') && line.reason === 'event_loop_lag').length).toBeGreaterThanOrEqual(1);
  });
});
