// A deploy keeps live calls (docs/operations.md, "Shutdown"): on SIGTERM the compiled server turns /readyz 503 at
// once, refuses new calls the way overload does (Twilio's webhook answers <Reject reason="busy"/>, POST /v1/calls and
// new API requests 503 with Retry-After), and lets a live call go on, controlled by REST, past the HTTP grace, until
// it ends; then it exits 0. Past CALL_DRAIN_LIMIT_MS a call hears its closing line and is hung up. A second signal
// ends the process at once.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import twilio from 'twilio';
import { afterEach, expect, it } from 'vitest';
import { mulawToPcm16 } from '../../src/audio/mulaw.js';
import { CallPeer } from '../../src/sim/call-peer.js';
import { fetchStreamInstruction } from '../../src/sim/dialects/twilio-voice-webhook-client.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { eventually } from '../helpers/telephony.js';
import { authHeaders } from '../helpers/test-server.js';
import { seedTwilioAccount, TWILIO_AUTH_TOKEN } from '../helpers/twilio-account.js';

const AUTH_TOKEN = TWILIO_AUTH_TOKEN;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverWithTwilioAccount(env: Record<string, string>): Promise<{ server: ServerProcess; accountId: string; key: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'raaga-drain-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const { accountId, key } = await seedTwilioAccount(dataDir);
  const server = await startServerProcess({ RAAGA_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env }, { startTimeoutMs: 60_000 });
  cleanups.push(server.kill);
  return { server, accountId, key };
}

async function liveCall(server: ServerProcess, accountId: string, greeting: string): Promise<{ peer: CallPeer; callSid: string }> {
  const instruction = await fetchStreamInstruction({ url: `${server.url}/v1/telephony/twilio/voice/${accountId}?greeting=${encodeURIComponent(greeting)}`, authToken: AUTH_TOKEN });
  expect(instruction.twiml).toContain('<Connect');
  const callSid = instruction.params.CallSid!;
  const peer = await CallPeer.connect({ url: instruction.streamUrl, callSid, customParameters: instruction.parameters, signature: { authToken: AUTH_TOKEN } });
  cleanups.push(() => peer.drop());
  await peer.waitFor('first_media_in', 30_000);
  return { peer, callSid };
}

/** Twilio's voice webhook for a new call, signed as Twilio signs it: the TwiML it is answered with. */
async function newCallTwiml(url: string): Promise<{ status: number; twiml: string }> {
  const params = { CallSid: `CA${'e'.repeat(32)}`, AccountSid: `AC${'f'.repeat(32)}`, From: '+919800000001', To: '+918000000002', CallStatus: 'ringing', Direction: 'inbound' };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, params) },
    body: new URLSearchParams(params).toString(),
  });
  return { status: response.status, twiml: await response.text() };
}

/** Media the caller received after `index` of its inbound records, as PCM16. */
function mediaAfter(peer: CallPeer, index: number): Int16Array {
  const bytes = peer.inbound.slice(index).flatMap((record) => (record.event === 'media' ? [record.audio] : []));
  return mulawToPcm16(Buffer.concat(bytes));
}

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length);
}

async function readiness(server: ServerProcess): Promise<{ status: number; body: { checks: { shutting_down: boolean } } }> {
  const response = await fetch(`${server.url}/readyz`);
  return { status: response.status, body: (await response.json()) as { checks: { shutting_down: boolean } } };
}

it('SIGTERM: not ready at once, new calls and requests refused, the live call goes on past the grace until it ends, then exit 0', async () => {
  // No grace for HTTP requests: anything the call does after the signal happens after the grace is over.
  const { server, accountId, key } = await serverWithTwilioAccount({ SHUTDOWN_GRACE_MS: '0', CALL_DRAIN_LIMIT_MS: '600000' });
  const { peer, callSid } = await liveCall(server, accountId, 'Namaste');
  expect((await readiness(server)).status).toBe(200);

  server.child.kill('SIGTERM');
  await eventually(async () => (await readiness(server)).status === 503, '/readyz to say not ready');
  expect((await readiness(server)).body.checks.shutting_down).toBe(true);

  // A new call: refused as a full server refuses it, with TwiML the caller hears as busy.
  const refused = await newCallTwiml(`${server.url}/v1/telephony/twilio/voice/${accountId}`);
  expect(refused.status).toBe(200);
  expect(refused.twiml).toMatch(/<Reject reason="busy"\s*\/>/);
  // New API work: the spec's 503 envelope with Retry-After; an outbound call the same.
  for (const [path, body] of [
    ['/v1/calls', { provider: 'twilio', to: '+919812345678', from: '+919812345679' }],
    ['/v1/tts/generate', { model_id: 'raaga-v1', voice: 'priya', language: 'en-IN', text: 'Hello.' }],
  ] as const) {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: authHeaders(key), body: JSON.stringify(body) });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).not.toBeNull();
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('server_shutting_down');
  }

  // The live call is still controlled and still speaks.
  const before = peer.inbound.length;
  const said = await fetch(`${server.url}/v1/calls/${callSid}/say`, { method: 'POST', headers: authHeaders(key), body: JSON.stringify({ text: 'We are still here for you.' }) });
  expect(said.status).toBe(202);
  await eventually(() => mediaAfter(peer, before).length >= 8000, 'a second of the text said after SIGTERM', 30_000);
  expect(rms(mediaAfter(peer, before))).toBeGreaterThan(300);
  expect(server.child.exitCode).toBeNull();

  // The caller hangs up: nothing is left, and the process exits cleanly.
  await peer.stop();
  expect(await server.exited).toBe(0);
  expect(server.output()).toContain('draining: no call left');
  expect(server.output()).not.toContain('call drain limit reached');
});

it('past CALL_DRAIN_LIMIT_MS a live call hears its closing line, then the server hangs up and exits 0', async () => {
  const { server, accountId } = await serverWithTwilioAccount({ SHUTDOWN_GRACE_MS: '0', CALL_DRAIN_LIMIT_MS: '1000' });
  const { peer } = await liveCall(server, accountId, 'Namaste');
  server.child.kill('SIGTERM');
  // The server ends the call: the stream closes from its side, with no stop from the caller.
  await peer.closed;
  expect(peer.timeline.some((event) => event.kind === 'stop_sent')).toBe(false);
  expect(await server.exited).toBe(0);
  expect(server.output()).toContain('call drain limit reached');
  // What the caller heard last: the closing line (English, the call's language), after what was speaking was cleared.
  const lastClear = peer.inbound.map((record) => record.event).lastIndexOf('clear');
  const closing = mediaAfter(peer, lastClear + 1);
  expect(closing.length).toBeGreaterThan(8000 * 2);
  expect(rms(closing)).toBeGreaterThan(300);
});

it('a second SIGTERM during the drain ends the process at once, calls and all', async () => {
  const { server, accountId } = await serverWithTwilioAccount({ CALL_DRAIN_LIMIT_MS: '600000' });
  const { peer } = await liveCall(server, accountId, 'Namaste');
  server.child.kill('SIGTERM');
  await eventually(async () => (await readiness(server)).status === 503, 'the drain to begin');
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain('second signal: stopping at once');
  await peer.closed;
});
