// Call admission under overload, on a real server process: calls ramp to twice TELEPHONY_MAX_CALLS (this many cores'
// default, or BENCH_MAX_CALLS); the admitted speak all along, the excess (Twilio webhooks, Exotel upgrades) arrives
// meanwhile. Admitted/refused, underruns, lag p99, refusal latency, refused calls' billing → bench/results/overload.json.

import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLS_PER_CORE } from '../src/config.js';
import { CallerTrack, type CallerClip } from '../src/sim/caller-audio.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import { CallPeer } from '../src/sim/call-peer.js';
import { ExotelPeerDialect } from '../src/sim/dialects/exotel.js';
import { parseStreamTwiml } from '../src/sim/dialects/twilio-voice-webhook-client.js';
import { sampleValue } from '../test/helpers/metrics.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { startServerProcess } from './lib/server-process.js';
import { round, summary, writeResult } from './lib/stats.js';

const LIMIT = process.env.BENCH_MAX_CALLS ? Number(process.env.BENCH_MAX_CALLS) : CALLS_PER_CORE * availableParallelism();
const TOTAL = 2 * LIMIT;
const MEASURE_MS = Number(process.env.BENCH_MEASURE_MS ?? 10_000);
/** The admitted calls start spread over this long, as real calls do. */
const RAMP_MS = 4000;
const LAG_LIMIT_MS = 20;
const REFUSAL_LIMIT_MS = 100;
/** prom-client's lag monitor reports whole 10 ms sampling intervals: an idle loop reads ~10 ms (see telephony.ts). */
const LAG_RESOLUTION_MS = 10;
const root = fileURLToPath(new URL('../', import.meta.url));
const loadBefore = loadavg()[0] ?? 0;
const ENDLESS = Object.entries(SAMPLE_TEXTS).map(([language, text]) => ({ language, text: `${text} `.repeat(30).slice(0, 2990) }));

// One account per call, so what a refused call was billed is its account's usage alone.
const server = await startServerProcess({
  accounts: TOTAL,
  env: {
    TTS_QUEUE_SIZE: String(4 * LIMIT),
    TTS_WORKER_NICE: process.env.TTS_WORKER_NICE ?? '10',
    ...(process.env.BENCH_MAX_CALLS ? { TELEPHONY_MAX_CALLS: String(LIMIT) } : {}),
  },
});
const base = server.base;
const wsBase = base.replace(/^http/, 'ws');

async function eventLoopLagMs(): Promise<{ p99: number; max: number }> {
  const text = await server.metrics();
  const read = (name: string) => round(Math.max(0, sampleValue(text, name) * 1000 - LAG_RESOLUTION_MS), 2);
  return { p99: read('nodejs_eventloop_lag_p99_seconds'), max: read('nodejs_eventloop_lag_max_seconds') };
}

async function say(callSid: string, key: string, body: object): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${base}/v1/calls/${callSid}/say`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (response.status === 202) return;
    if (response.status !== 404 || attempt > 100) throw new Error(`say answered ${response.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Attempt =
  | { readonly kind: 'admitted'; readonly peer: CallPeer; readonly index: number }
  | { readonly kind: 'refused'; readonly way: 'twilio-reject' | 'twilio-upgrade-503' | 'exotel-upgrade-503'; readonly latencyMs: number; readonly index: number }
  | { readonly kind: 'failed'; readonly reason: string; readonly index: number };

const isUpgrade503 = (error: unknown) => /Unexpected server response: 503/.test(String(error));

/** Call `index`: through Twilio's voice webhook (the first LIMIT and every other excess call) or an Exotel upgrade. */
async function attempt(index: number, caller: CallerTrack): Promise<Attempt> {
  const account = server.accounts[index]!;
  const { language, text } = ENDLESS[index % ENDLESS.length]!;
  const startedAt = performance.now();
  let peer: CallPeer;
  let callSid: string | undefined;
  try {
    if (index < LIMIT || index % 2 === 0) {
      callSid = `CA${index.toString(16).padStart(32, '0')}`;
      const form = { CallSid: callSid, AccountSid: `AC${'0'.repeat(32)}`, From: '+919800000001', To: '+918000000002', CallStatus: 'ringing', Direction: 'inbound' };
      const query = new URLSearchParams({ barge_in: 'speech', language, cache: 'false' });
      const response = await fetch(`${base}/v1/telephony/twilio/voice/${account.id}?${query}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
      const twiml = await response.text();
      if (twiml.includes('<Reject')) return { kind: 'refused', way: 'twilio-reject', latencyMs: performance.now() - startedAt, index };
      const { streamUrl, parameters } = parseStreamTwiml(twiml);
      try {
        peer = await CallPeer.connect({ url: `${wsBase}${new URL(streamUrl).pathname}`, callSid, customParameters: parameters, caller });
      } catch (error) {
        if (isUpgrade503(error)) return { kind: 'refused', way: 'twilio-upgrade-503', latencyMs: performance.now() - startedAt, index };
        throw error;
      }
    } else {
      const query = new URLSearchParams({ barge_in: 'speech', language, cache: 'false' });
      try {
        peer = await CallPeer.connect({ url: `${wsBase}/v1/telephony/exotel/media/${account.id}?${query}`, dialect: new ExotelPeerDialect(), caller });
      } catch (error) {
        if (isUpgrade503(error)) return { kind: 'refused', way: 'exotel-upgrade-503', latencyMs: performance.now() - startedAt, index };
        throw error;
      }
      callSid = peer.start.callSid;
    }
    await say(callSid, account.key, { text, interruptible: false });
    await peer.waitFor('first_media_in', 15_000);
    return { kind: 'admitted', peer, index };
  } catch (error) {
    return { kind: 'failed', reason: String(error), index };
  }
}

const voice = await CallerVoice.start(join(root, 'models/raaga-v1/manifest.json'));
const interruption = await voice.say({ text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN' });
await voice.close();
const talk: CallerClip[] = [];
for (let at = 500; at < 120_000; at += 2600) talk.push({ atMs: at, mulaw: interruption, label: 'talk' });

const attempts: Attempt[] = [];
try {
  // ---- the first LIMIT calls, spread over RAMP_MS ------------------------------------------------
  const first = await Promise.all(
    Array.from({ length: LIMIT }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * RAMP_MS) / LIMIT));
      return attempt(i, new CallerTrack(talk));
    }),
  );
  attempts.push(...first);
  const admittedCalls = () => attempts.flatMap((a) => (a.kind === 'admitted' ? [a] : []));
  const admitted = () => admittedCalls().map((a) => a.peer);
  await new Promise((r) => setTimeout(r, 1500)); // the ramp settles
  await eventLoopLagMs(); // starts prom-client's window
  const peers = admitted();
  const underrunsBefore = peers.map((p) => p.summary().playout.underruns);
  const receivedBefore = peers.map((p) => p.summary().playout.receivedMs);
  const cpuBefore = server.cpuSeconds();

  // ---- the excess, arriving while the admitted calls speak ----------------------------------------
  const excess = Promise.all(
    Array.from({ length: TOTAL - LIMIT }, async (_, j) => {
      await new Promise((r) => setTimeout(r, (j * (MEASURE_MS - 1000)) / (TOTAL - LIMIT)));
      return attempt(LIMIT + j, new CallerTrack(talk));
    }),
  );
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  attempts.push(...(await excess));
  const lag = await eventLoopLagMs();
  const serverCpuPercent = ((server.cpuSeconds() - cpuBefore) / (MEASURE_MS / 1000)) * 100;
  const underruns = peers.reduce((sum, p, i) => sum + p.summary().playout.underruns - underrunsBefore[i]!, 0);
  const slowest = Math.min(...peers.map((p, i) => (p.summary().playout.receivedMs - receivedBefore[i]!) / MEASURE_MS));
  const metrics = await server.metrics();
  const refusalsByReason = Object.fromEntries(
    ['max_calls', 'event_loop_lag'].map((reason) => [
      reason,
      Object.fromEntries(['twilio', 'exotel'].map((provider) => [provider, sampleValue(metrics, `raaga_call_refusals_total{reason="${reason}",provider="${provider}"}`) || 0])),
    ]),
  );

  await Promise.all(admitted().map((p) => p.stop()));
  // Every call has ended and settled (its usage record written) before usage is read.
  await new Promise((r) => setTimeout(r, 2000));
  const usageOf = async (index: number) => {
    const account = server.accounts[index]!;
    const response = await fetch(`${base}/v1/usage`, { headers: { authorization: `Bearer ${account.key}` } });
    return ((await response.json()) as { total: { characters: number } }).total.characters;
  };
  const refused = attempts.flatMap((a) => (a.kind === 'refused' ? [a] : []));
  const failed = attempts.flatMap((a) => (a.kind === 'failed' ? [a] : []));
  const billedToRefused = (await Promise.all(refused.map((a) => usageOf(a.index)))).reduce((sum, chars) => sum + chars, 0);
  const billedToAdmitted = (await Promise.all(admittedCalls().map((a) => usageOf(a.index)))).reduce((sum, chars) => sum + chars, 0);
  const latency = summary(refused.map((a) => a.latencyMs));
  const admittedCount = admitted().length;
  const ok = admittedCount === LIMIT && refused.length === TOTAL - LIMIT && underruns === 0 && lag.p99 < LAG_LIMIT_MS && latency.max < REFUSAL_LIMIT_MS && billedToRefused === 0;
  const result = {
    loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? 0, 2) },
    config: { maxCalls: LIMIT, callsPerCore: LIMIT / availableParallelism(), totalCalls: TOTAL, measureMs: MEASURE_MS, engine: 'espeak-ng-wasm (embedded), 8 kHz mu-law', ttsWorkerNice: Number(process.env.TTS_WORKER_NICE ?? 10) },
    admitted: admittedCount,
    refused: refused.length,
    failed: failed.map((a) => ({ index: a.index, reason: a.reason })),
    refusedByWay: Object.fromEntries(['twilio-reject', 'twilio-upgrade-503', 'exotel-upgrade-503'].map((way) => [way, refused.filter((a) => a.way === way).length])),
    refusalsByReason,
    admittedCalls: {
      underruns,
      eventLoopLagP99Ms: lag.p99,
      eventLoopLagMaxMs: lag.max,
      slowestCallAudioPerSecond: round(slowest, 3),
      serverCpuPercentOfCore: round(serverCpuPercent, 1),
      billedCharacters: billedToAdmitted,
    },
    refusalLatencyMs: latency,
    billedToRefusedCalls: billedToRefused,
    ok,
  };
  const file = await writeResult('overload', result);
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `overload: ${admittedCount} admitted of ${TOTAL} (limit ${LIMIT}), ${refused.length} refused in p50 ${latency.p50} / p95 ${latency.p95} / max ${latency.max} ms; ` +
      `admitted: ${underruns} underruns, lag p99 ${lag.p99} ms; refused billed ${billedToRefused} → ${file}`,
  );
  if (!ok) process.exitCode = 1;
} finally {
  await Promise.all(attempts.flatMap((a) => (a.kind === 'admitted' ? [a.peer.drop()] : [])));
  await server.stop();
}
