// The drain timeline of a live call across SIGTERM (issue 42, docs/operations.md "Shutdown and deploys"): a compiled
// server with one live Twilio call is sent SIGTERM; when /readyz turned 503, when a new call's webhook was refused,
// when the live call spoke a text said after the signal, and, with CALL_DRAIN_LIMIT_MS, when the call heard its
// closing line and the process exited. → bench/results/drain-timeline.json

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import twilio from 'twilio';
import { CallPeer } from '../src/sim/call-peer.js';
import { fetchStreamInstruction } from '../src/sim/dialects/twilio-voice-webhook-client.js';
import { startServerProcess } from '../test/helpers/server-process.js';
import { seedTwilioAccount, TWILIO_AUTH_TOKEN } from '../test/helpers/twilio-account.js';
import { machine, round, writeResult } from './lib/stats.js';

const AUTH_TOKEN = TWILIO_AUTH_TOKEN;
const CALL_DRAIN_LIMIT_MS = Number(process.env.BENCH_CALL_DRAIN_LIMIT_MS ?? 8000);

const dataDir = await mkdtemp(join(tmpdir(), 'raaga-drain-bench-'));
const { accountId, key } = await seedTwilioAccount(dataDir);
const server = await startServerProcess({ RAAGA_DATA_DIR: dataDir, LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '2000', CALL_DRAIN_LIMIT_MS: String(CALL_DRAIN_LIMIT_MS) }, { startTimeoutMs: 60_000 });

async function poll(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

try {
  const webhook = `${server.url}/v1/telephony/twilio/voice/${accountId}`;
  const instruction = await fetchStreamInstruction({ url: `${webhook}?greeting=Namaste`, authToken: AUTH_TOKEN });
  const callSid = instruction.params.CallSid!;
  const peer = await CallPeer.connect({ url: instruction.streamUrl, callSid, customParameters: instruction.parameters, signature: { authToken: AUTH_TOKEN } });
  await peer.waitFor('first_media_in', 30_000);
  const t0 = performance.now();
  const at = () => round(performance.now() - t0, 0);
  server.child.kill('SIGTERM');
  const timeline: Record<string, number | string> = {};
  await poll(async () => (await fetch(`${server.url}/readyz`)).status === 503);
  timeline.readyzNotReadyMs = at();
  const params = { CallSid: `CA${'e'.repeat(32)}`, AccountSid: `AC${'f'.repeat(32)}`, From: '+919800000001', To: '+918000000002', CallStatus: 'ringing', Direction: 'inbound' };
  const refused = await fetch(webhook, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(AUTH_TOKEN, webhook, params) },
    body: new URLSearchParams(params).toString(),
  });
  timeline.newCallAnswer = (await refused.text()).includes('<Reject reason="busy"') ? 'Reject busy' : 'not refused';
  timeline.newCallRefusedMs = at();
  const before = peer.inbound.length;
  await fetch(`${server.url}/v1/calls/${callSid}/say`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'We are still here for you.' }) });
  await poll(async () => peer.inbound.slice(before).some((record) => record.event === 'media'));
  timeline.liveCallSpeaksAfterSignalMs = at();
  await peer.closed;
  timeline.callEndedByServerMs = at();
  const exitCode = await server.exited;
  timeline.processExitedMs = at();
  const heardAfterSignalMs = peer.inbound.slice(before).reduce((sum, record) => sum + (record.event === 'media' ? record.bytes / 8 : 0), 0);
  const result = { at: new Date().toISOString(), machine: machine(), config: { callDrainLimitMs: CALL_DRAIN_LIMIT_MS, shutdownGraceMs: 2000 }, timeline, heardAfterSignalMs: round(heardAfterSignalMs, 0), exitCode };
  const file = await writeResult('drain-timeline', result);
  console.log(JSON.stringify(result, null, 2));
  console.log(`drain-timeline: not ready ${timeline.readyzNotReadyMs} ms, call spoke after the signal ${timeline.liveCallSpeaksAfterSignalMs} ms, hung up ${timeline.callEndedByServerMs} ms, exit ${exitCode} at ${timeline.processExitedMs} ms → ${file}`);
} finally {
  await server.kill();
  await rm(dataDir, { recursive: true, force: true });
}
