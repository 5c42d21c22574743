// H2: connections that prove nothing never hold a call slot, over real sockets on one server at TELEPHONY_MAX_CALLS=2
// (pending budget 8, 3 per source address; the media clock is a fake one). Bare Twilio upgrades and silent AudioSocket
// connections, more of them than there are slots, leave room for genuine calls, which speak; /readyz stays ready with
// only bare sockets and says saturated once real calls hold both slots; the bare ones are closed with 1008 at
// TELEPHONY_START_TIMEOUT_MS on the fake clock; the budget refuses a new upgrade (503), in all and per address.

import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { dialProvider } from '../../src/sim/dial-provider.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { metricValue } from '../helpers/metrics.js';
import { eventually, placeCall, RawStream, SETTINGS_UPDATED_AT_MS, unsignedAccount } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const AUTH_TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed';
const AUDIOSOCKET_ACCOUNT = 'acct_h2_audiosocket';
const START_TIMEOUT_MS = 5000;
const GREETING = 'नमस्ते, आपका स्वागत है। आपका खाता सक्रिय है और आपकी किस्त कल देय है।';
const REJECT_BUSY = '<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>';

let server: TestServer;
const clock = new FakeClock();
/** Every socket a test opened, closed after it whatever happened. */
const opened: { close(): void }[] = [];

beforeAll(async () => {
  server = await startTestServer(
    {
      TTS_WORKERS: '1',
      TELEPHONY_MAX_CALLS: '2',
      TELEPHONY_MAX_PENDING_STREAMS: '8',
      TELEPHONY_MAX_PENDING_PER_SOURCE: '3',
      TELEPHONY_START_TIMEOUT_MS: String(START_TIMEOUT_MS),
      AUDIOSOCKET_PORT: '0',
      AUDIOSOCKET_ACCOUNT,
      AUDIOSOCKET_ALLOW: '127.0.0.0/8',
    },
    { vad: null, app: (deps) => ({ telephony: { ...deps.telephony!, clock } }) },
  );
  await server.deps.store.createAccount({ id: AUDIOSOCKET_ACCOUNT, plan: 'growth', credits: 100_000 });
  // AudioSocket carries no settings: its calls greet with the account's defaults.
  await server.deps.store.putTelephonySettings({ accountId: AUDIOSOCKET_ACCOUNT, defaults: { greeting: GREETING }, updatedAtMs: SETTINGS_UPDATED_AT_MS });
});
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.close();
  await eventually(() => admission().pendingConnections === 0 && admission().liveCalls === 0, 'every connection of the test gone');
});
afterAll(async () => {
  await server?.close();
});

const admission = () => server.deps.telephony!.callAdmission;
const twilioMedia = () => `${server.url.replace(/^http/, 'ws')}/v1/telephony/twilio/media`;
const refusals = (reason: string, provider: string) => metricValue(server, `raaga_call_refusals_total{reason="${reason}",provider="${provider}"}`);

async function readyz(): Promise<{ status: number; ready: string; saturated: boolean }> {
  const response = await fetch(`${server.url}/readyz`);
  const json = (await response.json()) as { status: string; checks: { calls_saturated: boolean } };
  return { status: response.status, ready: json.status, saturated: json.checks.calls_saturated };
}

/** A WebSocket upgrade of the Twilio media path from `localAddress` that sends nothing at all: no start, no key. */
async function bareUpgrade(localAddress: string): Promise<RawStream> {
  const stream = new RawStream(new WebSocket(twilioMedia(), { localAddress }));
  opened.push({ close: () => stream.socket.terminate() });
  await stream.opened;
  return stream;
}

/** An upgrade the server must refuse before upgrading: its status and error envelope. */
function refusedUpgrade(localAddress: string): Promise<{ status: number | undefined; error: { code: string; message: string } }> {
  const socket = new WebSocket(twilioMedia(), { localAddress });
  socket.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('the upgrade was taken'));
    });
    socket.once('unexpected-response', (request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode, error: (JSON.parse(body) as { error: { code: string; message: string } }).error });
      });
    });
  });
}

/** A raw AudioSocket TCP connection from `localAddress` that sends nothing (no UUID packet); resolves once connected. */
async function silentAudioSocket(localAddress: string): Promise<{ socket: Socket; closed: Promise<Buffer> }> {
  const { host, port } = server.audioSocket!;
  const socket = connect({ host, port, localAddress });
  opened.push({ close: () => socket.destroy() });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<Buffer>((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks))));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed };
}

async function signedAccount(): Promise<string> {
  const account = await server.account('growth', 100_000);
  await server.deps.store.putTelephonySettings({ accountId: account.id, credentials: { twilioAuthToken: AUTH_TOKEN }, updatedAtMs: SETTINGS_UPDATED_AT_MS });
  return account.id;
}

describe('H2: Twilio media upgrades without credentials', () => {
  it('more bare upgrades than TELEPHONY_MAX_CALLS hold no slot: signed calls are admitted and speak; /readyz says saturated only once they hold the slots; the bare ones are closed 1008 at the deadline', async () => {
    // Six bare sockets, three from each of two addresses: three times TELEPHONY_MAX_CALLS.
    const bare: RawStream[] = [];
    for (const address of ['127.0.0.2', '127.0.0.3']) for (let i = 0; i < 3; i++) bare.push(await bareUpgrade(address));
    await eventually(() => admission().pendingConnections === 6, 'the six bare sockets counted as pending');
    expect(admission().liveCalls).toBe(0);
    expect(await readyz()).toEqual({ status: 200, ready: 'ready', saturated: false });

    // Alice's genuine signed call: the voice webhook answers (no busy), the stream is admitted and speaks.
    const alice = await signedAccount();
    const first = await placeCall(server, alice, { authToken: AUTH_TOKEN, query: { greeting: GREETING } });
    opened.push({ close: () => void first.peer.drop() });
    await first.peer.waitFor('first_media_in', 10_000);
    expect(admission().liveCalls).toBe(1);
    expect(await readyz()).toEqual({ status: 200, ready: 'ready', saturated: false });

    // A second one takes the last slot: now real calls fill the process and /readyz says so.
    const second = await placeCall(server, alice, { authToken: AUTH_TOKEN, query: { greeting: GREETING } });
    opened.push({ close: () => void second.peer.drop() });
    await second.peer.waitFor('first_media_in', 10_000);
    expect(admission().liveCalls).toBe(2);
    expect(await readyz()).toEqual({ status: 503, ready: 'not_ready', saturated: true });
    // Full of real calls, the process refuses a new one: the caller hears busy, a new upgrade gets 503 max_calls.
    const webhook = await fetch(`${server.url}/v1/telephony/twilio/voice/${(await unsignedAccount(server)).id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ CallSid: `CA${'9'.repeat(32)}`, AccountSid: `AC${'9'.repeat(32)}` }).toString(),
    });
    expect(await webhook.text()).toBe(REJECT_BUSY);
    expect(await refusedUpgrade('127.0.0.4')).toMatchObject({ status: 503, error: { code: 'server_busy', message: expect.stringMatching(/limit of simultaneous calls/) } });
    expect(bare.every((stream) => stream.socket.readyState === WebSocket.OPEN)).toBe(true);

    // The start deadline, on the media clock: every bare socket is closed as a policy violation, no call touched.
    await clock.advance(START_TIMEOUT_MS);
    for (const stream of bare) expect(await stream.closed).toEqual({ code: 1008, reason: 'no start' });
    await eventually(() => admission().pendingConnections === 0, 'the bare sockets gave back their places');
    expect(admission().liveCalls).toBe(2);
    expect(first.peer.summary().closeCode).toBeUndefined();
    expect(second.peer.summary().closeCode).toBeUndefined();
    await first.peer.stop();
    await second.peer.stop();
    await eventually(() => admission().liveCalls === 0, 'the calls freed their slots');
    expect(await readyz()).toEqual({ status: 200, ready: 'ready', saturated: false });
  });

  it('a start with no or invalid credentials is closed 1008 at once and takes no slot', async () => {
    const none = await bareUpgrade('127.0.0.2');
    none.start(`CA${'1'.repeat(32)}`, {});
    expect(await none.closed).toEqual({ code: 1008, reason: 'unauthenticated start: no raaga_token or raaga_api_key parameter' });
    const forged = await bareUpgrade('127.0.0.2');
    forged.start(`CA${'2'.repeat(32)}`, { raaga_api_key: `rk_live_${'x'.repeat(40)}` });
    expect(await forged.closed).toEqual({ code: 1008, reason: 'unknown or revoked API key' });
    expect(admission().liveCalls).toBe(0);
    await eventually(() => admission().pendingConnections === 0, 'their places freed');
  });

  it('one address holds at most TELEPHONY_MAX_PENDING_PER_SOURCE; another address, and the same once one closes, is still taken', async () => {
    const before = await refusals('pending_per_source', 'twilio');
    const held = [await bareUpgrade('127.0.0.5'), await bareUpgrade('127.0.0.5'), await bareUpgrade('127.0.0.5')];
    expect(await refusedUpgrade('127.0.0.5')).toMatchObject({ status: 503, error: { code: 'server_busy', message: expect.stringMatching(/from this address.*TELEPHONY_MAX_PENDING_PER_SOURCE/) } });
    expect(await refusals('pending_per_source', 'twilio')).toBe(before + 1);
    await bareUpgrade('127.0.0.6');
    held[0]!.socket.close();
    await held[0]!.closed;
    await eventually(() => admission().pendingConnections === 3, 'the closed one gave back its place');
    await bareUpgrade('127.0.0.5');
    expect(admission().liveCalls).toBe(0);
  });

  it('a full pending budget refuses a new upgrade (503), not a call: an authenticated call keeps speaking and ends normally', async () => {
    const alice = await signedAccount();
    const call = await placeCall(server, alice, { authToken: AUTH_TOKEN, query: { greeting: GREETING } });
    opened.push({ close: () => void call.peer.drop() });
    await call.peer.waitFor('first_media_in', 10_000);
    const before = await refusals('pending_streams', 'twilio');
    for (const address of ['127.0.0.7', '127.0.0.8']) for (let i = 0; i < 3; i++) await bareUpgrade(address);
    await bareUpgrade('127.0.0.9');
    await bareUpgrade('127.0.0.9');
    expect(admission().pendingConnections).toBe(8);
    expect(await refusedUpgrade('127.0.0.10')).toMatchObject({ status: 503, error: { code: 'server_busy', message: expect.stringMatching(/TELEPHONY_MAX_PENDING_STREAMS/) } });
    expect(await refusals('pending_streams', 'twilio')).toBe(before + 1);
    expect(admission().liveCalls).toBe(1);
    expect(call.peer.summary().closeCode).toBeUndefined();
    await call.peer.stop();
    await eventually(() => admission().liveCalls === 0, 'the call freed its slot');
  });
});

describe('H2: AudioSocket connections that send nothing', () => {
  it('more silent connections than TELEPHONY_MAX_CALLS hold no slot: a real AudioSocket call speaks; the silent ones are closed at the deadline', async () => {
    const silent = [];
    for (const address of ['127.0.0.2', '127.0.0.3']) for (let i = 0; i < 2; i++) silent.push(await silentAudioSocket(address));
    await eventually(() => admission().pendingConnections === 4, 'the four silent connections counted as pending');
    expect(admission().liveCalls).toBe(0);
    expect(await readyz()).toEqual({ status: 200, ready: 'ready', saturated: false });

    const { peer } = await dialProvider({ provider: 'audiosocket', baseUrl: server.url, audioSocket: { ...server.audioSocket!, localAddress: '127.0.0.4' } });
    opened.push({ close: () => void peer.drop() });
    await eventually(() => admission().liveCalls === 1, 'the AudioSocket call took a slot once its UUID packet came');
    expect(admission().pendingConnections).toBe(4);
    await peer.waitFor('first_media_in', 10_000);
    // The media clock has not moved: every silent connection is still there beside the call.
    expect(silent.every(({ socket }) => socket.readyState === 'open')).toBe(true);
    await peer.drop();
    await eventually(() => admission().liveCalls === 0, 'the call freed its slot');

    // The rest of the deadline: each silent connection is ended by the server (a FIN; AudioSocket has no close code).
    await clock.advance(START_TIMEOUT_MS);
    for (const connection of silent) expect((await connection.closed).length).toBe(0);
    await eventually(() => admission().pendingConnections === 0, 'the silent connections gave back their places');
  });

  it('one address holds at most TELEPHONY_MAX_PENDING_PER_SOURCE silent connections: the next is hung up at once', async () => {
    const before = await refusals('pending_per_source', 'audiosocket');
    for (let i = 0; i < 3; i++) await silentAudioSocket('127.0.0.11');
    const refused = await silentAudioSocket('127.0.0.11');
    // AudioSocket's own refusal: the hangup packet (kind 0x00, length 0), then the connection ends.
    expect([...(await refused.closed)]).toEqual([0x00, 0x00, 0x00]);
    expect(await refusals('pending_per_source', 'audiosocket')).toBe(before + 1);
    expect(admission().pendingConnections).toBe(3);
  });
});
