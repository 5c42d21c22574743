// Phone calls against a real server process (bench/lib/server-process.ts: embedded store, Silero VAD), driven by
// simulated Twilio peers (src/sim/) and a fake agent in this process:
//  1. agent `text` → first media frame at the peer, over BENCH_TEXTS texts;
//  2. capacity: simultaneous calls with the bot speaking continuously and VAD running on caller speech, ramped until
//     a call hears an underrun or the server's event-loop lag p99 (prom-client, per scrape) reaches 20 ms; once with
//     every call synthesizing (call parameter cache=false), once with half the calls speaking a cached prompt.
// Barge-in reaction is measured by bench/barge-in.ts. Peers run on the same machine as the server (2 cores here), so
// capacity is a floor. The server's CPU per call is measured apart from the peers (its own process), and a fixed
// reference job (bench/lib/reference-workload.ts) runs before and after the ramps, so calls per reference-core
// compare across days. BENCH_RAMPS=synthesizing skips the half-cached ramp; BENCH_TEXTS=0 the first part;
// BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the server (scripts/cpu-profile-summary.ts reads it).
// BENCH_ENGINE=flite or flite-large: the calls speak en-IN with a Flite voice of 2.5 MB or 28.6 MB (bench/lib/
// flite-models-dir.ts) instead of eSpeak's eight languages.
// JSON: bench/results/telephony.json.

import { once } from 'node:events';
import { statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { CallerTrack, type CallerClip } from '../src/sim/caller-audio.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import { CallPeer } from '../src/sim/call-peer.js';
import { fetchStreamInstruction } from '../src/sim/dialects/twilio-voice-webhook-client.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { sampleValue } from '../test/helpers/metrics.js';
import { fliteModelsDir, type FliteSizeClass } from './lib/flite-models-dir.js';
import { measureReference, REFERENCE_CORE_MS, type ReferenceMeasure } from './lib/reference-workload.js';
import { startServerProcess } from './lib/server-process.js';
import { round, summary, writeResult } from './lib/stats.js';

const TEXTS = Number(process.env.BENCH_TEXTS ?? 100);
const LEVELS = (process.env.BENCH_CALL_LEVELS ?? '16,32,48,64,80,96,112,128,144,150,160').split(',').map(Number);
const loadBefore = loadavg()[0];
const MEASURE_MS = Number(process.env.BENCH_MEASURE_MS ?? 10_000);
/** Calls of a level start spread over this long, as real calls do (not all in the same millisecond). */
const STAGGER_MS = 2000;
const LAG_LIMIT_MS = 20;
const RAMPS = (process.env.BENCH_RAMPS ?? 'synthesizing,half-cached').split(',');
const root = fileURLToPath(new URL('../', import.meta.url));

const ENGINE = process.env.BENCH_ENGINE ?? 'espeak';
if (!['espeak', 'flite', 'flite-large'].includes(ENGINE)) throw new Error(`BENCH_ENGINE=${ENGINE}: espeak, flite or flite-large`);
const fliteModels = ENGINE === 'espeak' ? undefined : await fliteModelsDir(ENGINE as FliteSizeClass);

/** Per language, a text of ~3000 code points: the bot speaks for minutes; languages vary the chunk lengths. */
const ENDLESS = Object.entries(SAMPLE_TEXTS)
  .filter(([language]) => fliteModels === undefined || language === 'en-IN')
  .map(([language, text]) => ({ language, text: `${text} `.repeat(30).slice(0, 2990) }));

// ---- the server process ----------------------------------------------------------------------------

const MAX_CALLS = Math.max(...LEVELS);
const GROWTH_CONCURRENT_CALLS = 10;
// Every call keeps a clause in synthesis and the next one queued: the default queue (64 clauses) turns calls away
// with tts_workers_busy beyond ~32 calls starting at once, so the bench sizes it as an operator of 150 calls would.
// The engine threads yield to the event loop, as on a machine dedicated to calls (TTS_WORKER_NICE=0 measures without).
const server = await startServerProcess({
  accounts: Math.ceil(MAX_CALLS / GROWTH_CONCURRENT_CALLS),
  // Admission per process would refuse calls past 16 per core and shed them on lag: this bench finds the limit itself.
  // Every simulated provider connects from loopback: the cap on unauthenticated connections per address is off.
  env: { ...(fliteModels === undefined ? {} : { RAAGA_MODELS_DIR: fliteModels.dir }), TTS_QUEUE_SIZE: String(4 * MAX_CALLS), TTS_WORKER_NICE: process.env.TTS_WORKER_NICE ?? '10', TELEPHONY_MAX_CALLS: String(MAX_CALLS), TELEPHONY_SHED_LAG_MS: '0', TELEPHONY_MAX_PENDING_PER_SOURCE: '0' },
});
const base = server.base;

/** prom-client samples with a 10 ms timer and reports whole intervals (an idle loop reads ~10.1 ms): subtract it. */
const LAG_RESOLUTION_MS = 10;

/** The server's event-loop lag p99 and max since the previous scrape (prom-client resets its histogram on each collect). */
async function eventLoopLagMs(): Promise<{ p99: number; max: number }> {
  const text = await server.metrics();
  const read = (name: string) => round(Math.max(0, sampleValue(text, name) * 1000 - LAG_RESOLUTION_MS), 2);
  return { p99: read('nodejs_eventloop_lag_p99_seconds'), max: read('nodejs_eventloop_lag_max_seconds') };
}

/** The VAD batcher's counters (raaga_vad_windows_total / raaga_vad_inferences_total). */
async function vadCounters(): Promise<{ windows: number; inferences: number }> {
  const text = await server.metrics();
  return { windows: sampleValue(text, 'raaga_vad_windows_total'), inferences: sampleValue(text, 'raaga_vad_inferences_total') };
}

/** REST call control reaches a call once its `start` is processed (a few ms after the socket opens). */
async function say(call: { callSid: string; key: string }, body: object): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${base}/v1/calls/${call.callSid}/say`, {
      method: 'POST',
      headers: { authorization: `Bearer ${call.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status === 202) return;
    if (response.status !== 404 || attempt > 100) throw new Error(`say answered ${response.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let callCount = 0;
async function placeCall(query: Record<string, string>, caller?: CallerTrack): Promise<{ peer: CallPeer; callSid: string; key: string }> {
  const account = server.accounts[callCount++ % server.accounts.length]!;
  const instruction = await fetchStreamInstruction({ url: `${base}/v1/telephony/twilio/voice/${account.id}?${new URLSearchParams(query)}` });
  const callSid = instruction.params.CallSid as string;
  const peer = await CallPeer.connect({ url: instruction.streamUrl, callSid, customParameters: instruction.parameters, ...(caller ? { caller } : {}) });
  return { peer, callSid, key: account.key };
}

// The machine's speed now, before anything of the bench runs (and again after the ramps).
const referenceBefore = await measureReference();
console.log(`reference job: ${referenceBefore.referenceCoreMs} ms of CPU (a reference core: ${REFERENCE_CORE_MS} ms)`);

const voice = await CallerVoice.start(join(root, 'models/raaga-v1/manifest.json'));
const interruption = await voice.say({ text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN' });
await voice.close();

try {
  // ---- 1. agent text → first media frame -----------------------------------------------------------
  const agentServer = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(agentServer, 'listening');
  const agentUrl = `ws://127.0.0.1:${(agentServer.address() as AddressInfo).port}/agent`;
  const agentSocket = new Promise<WebSocket>((resolve) => agentServer.once('connection', resolve));
  const { peer: textPeer } = await placeCall({ agent_url: agentUrl, cache: 'false' }); // synthesis, not the prompt cache
  const agent = await agentSocket;
  const waitType = (type: string) =>
    new Promise<void>((resolve) => {
      const onMessage = (data: Buffer, isBinary: boolean) => {
        if (!isBinary && (JSON.parse(data.toString()) as { type: string }).type === type) {
          agent.off('message', onMessage);
          resolve();
        }
      };
      agent.on('message', onMessage);
    });
  const textToMediaMs: number[] = [];
  const texts = Object.values(SAMPLE_TEXTS);
  // The first two rounds over the languages load each language's voice data into both engine workers (a cold
  // language costs a few hundred ms once per worker): measured are the texts after them.
  const warmUpTexts = 2 * texts.length;
  for (let i = 0; i < (TEXTS > 0 ? warmUpTexts + TEXTS : 0); i++) {
    const language = Object.keys(SAMPLE_TEXTS)[i % texts.length]!;
    const configured = waitType('configured');
    agent.send(JSON.stringify({ type: 'config', voice: 'priya', language }));
    await configured;
    const sentAt = textPeer.elapsedMs();
    const before = textPeer.inbound.length;
    agent.send(JSON.stringify({ type: 'text', text: texts[i % texts.length] }));
    while (!textPeer.inbound.slice(before).some((e) => e.event === 'media')) await new Promise((r) => setImmediate(r));
    const first = textPeer.inbound.slice(before).find((e) => e.event === 'media')!;
    if (i >= warmUpTexts) textToMediaMs.push(first.atMs - sentAt);
    const cancelled = waitType('cancellation');
    agent.send(JSON.stringify({ type: 'cancel' }));
    await cancelled;
  }
  await textPeer.stop();
  for (const client of agentServer.clients) client.terminate();
  agentServer.close();

  // ---- 2. capacity ---------------------------------------------------------------------------------
  const talk: CallerClip[] = [];
  for (let at = 500; at < 60_000; at += 2600) talk.push({ atMs: at, mulaw: interruption, label: 'talk' });

  /**
   * Calls ramped through LEVELS until one fails. Every other call speaks a prompt already in the cache when
   * `cachedPrompts`; all others synthesize (cache=false), so earlier levels' audio cannot turn into hits.
   */
  async function ramp(cachedPrompts: boolean): Promise<{ sustained: number; levels: Record<string, unknown>[] }> {
    const levels: Record<string, unknown>[] = [];
    let sustained = 0;
    let allPassed = true;
    for (const calls of LEVELS) {
      // The bot speaks one long non-interruptible text; the caller keeps talking, so VAD runs the model throughout.
      const attempts = await Promise.allSettled(
        Array.from({ length: calls }, async (_, i) => {
          await new Promise((r) => setTimeout(r, (i * STAGGER_MS) / calls));
          const { language, text } = ENDLESS[i % ENDLESS.length]!;
          const cached = cachedPrompts && i % 2 === 0;
          const call = await placeCall({ barge_in: 'speech', language, ...(cached ? {} : { cache: 'false' }) }, new CallerTrack(talk));
          try {
            await say(call, { text, interruptible: false });
            await call.peer.waitFor('first_media_in', 15_000);
            return call;
          } catch (error) {
            await call.peer.stop();
            throw error;
          }
        }),
      );
      const placed = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value] : []));
      const refused = attempts.flatMap((attempt) => (attempt.status === 'rejected' ? [String(attempt.reason)] : []));
      if (refused.length > 0) {
        // A level whose calls cannot all start (refused, or no audio within 15 s) has failed: say why, end the rest.
        levels.push({ calls, ok: false, callsNotStarted: refused.length, firstReason: refused[0], loadAverage1m: { end: round(loadavg()[0] ?? 0, 2) } });
        console.log(`${cachedPrompts ? 'half cached' : 'uncached'} ${calls} calls: ${JSON.stringify(levels.at(-1))}`);
        await Promise.all(placed.map((c) => c.peer.stop()));
        allPassed = false;
        if (process.env.BENCH_KEEP_GOING !== '1') break;
        continue;
      }
      await new Promise((r) => setTimeout(r, 1500)); // ramp settles
      await eventLoopLagMs();
      const underrunsBefore = placed.map((c) => c.peer.summary().playout.underruns);
      const receivedBefore = placed.map((c) => c.peer.summary().playout.receivedMs);
      const cpuBefore = server.cpuSeconds();
      const vadBefore = await vadCounters();
      const loadAtStart = loadavg()[0] ?? 0;
      await new Promise((r) => setTimeout(r, MEASURE_MS));
      const lag = await eventLoopLagMs();
      const vadAfter = await vadCounters();
      // The server process's CPU (event loop + engine and VAD threads) over the window, in % of one core.
      const serverCpuPercent = ((server.cpuSeconds() - cpuBefore) / (MEASURE_MS / 1000)) * 100;
      const underruns = placed.reduce((sum, c, i) => sum + c.peer.summary().playout.underruns - underrunsBefore[i]!, 0);
      const realtime = placed.map((c, i) => (c.peer.summary().playout.receivedMs - receivedBefore[i]!) / MEASURE_MS);
      const minRealtime = Math.min(...realtime);
      // Calls' worth of audio the server delivered: on a machine that cannot keep every call fed, the CPU it spent
      // per second of audio still says what a speaking call costs.
      const speakingCalls = realtime.reduce((sum, r) => sum + Math.min(1, r), 0);
      const ok = underruns === 0 && lag.p99 < LAG_LIMIT_MS && minRealtime > 0.95;
      levels.push({
        calls,
        underruns,
        eventLoopLagP99Ms: lag.p99,
        eventLoopLagMaxMs: lag.max,
        slowestCallAudioPerSecond: round(minRealtime, 3),
        serverCpuPercentOfCore: round(serverCpuPercent, 1),
        cpuPerCallPercentOfCore: round(serverCpuPercent / calls, 2),
        callsPerCoreByCpu: round((100 * calls) / serverCpuPercent, 1),
        speakingCalls: round(speakingCalls, 1),
        cpuPerSpeakingCallPercentOfCore: round(serverCpuPercent / speakingCalls, 2),
        vadWindowsPerInference: round((vadAfter.windows - vadBefore.windows) / (vadAfter.inferences - vadBefore.inferences), 1),
        // Silero windows run per call and second of the window (31.25 per stream while the caller makes sound).
        vadWindowsPerCallSecond: round((vadAfter.windows - vadBefore.windows) / calls / (MEASURE_MS / 1000), 1),
        loadAverage1m: { start: round(loadAtStart, 2), end: round(loadavg()[0] ?? 0, 2) },
        ok,
      });
      console.log(`${cachedPrompts ? 'half cached' : 'uncached'} ${calls} calls: ${JSON.stringify(levels.at(-1))}`);
      await Promise.all(placed.map((c) => c.peer.stop()));
      await new Promise((r) => setTimeout(r, 1000));
      if (ok && allPassed) sustained = calls;
      allPassed &&= ok;
      if (!ok && process.env.BENCH_KEEP_GOING !== '1') break;
    }
    return { sustained, levels };
  }

  /**
   * Fills the cache with every ENDLESS prompt: a call starts each one and hangs up, and the server finishes it in the
   * background (one at a time: a fill is skipped while the engine has work queued, so a skipped one is tried again).
   */
  async function warmPrompts(): Promise<void> {
    const stored = async () => sampleValue(await server.metrics(), 'raaga_prompt_cache_events_total{event="store"}');
    for (const { language, text } of ENDLESS) {
      const before = await stored();
      for (let attempt = 0; (await stored()) === before; attempt++) {
        if (attempt === 5) throw new Error(`the ${language} prompt was not cached after ${attempt} calls`);
        const call = await placeCall({ language });
        await say(call, { text, interruptible: false });
        await call.peer.waitFor('first_media_in', 15_000);
        await call.peer.stop();
        const until = Date.now() + 30_000;
        while ((await stored()) === before && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  const skipped = { sustained: 0, levels: [] };
  const uncached = RAMPS.includes('synthesizing') ? await ramp(false) : skipped;
  if (RAMPS.includes('half-cached')) await warmPrompts();
  const halfCached = RAMPS.includes('half-cached') ? await ramp(true) : skipped;
  const referenceAfter = await measureReference();
  // The reference job's CPU time over both measures: how many reference cores one core of today is worth.
  const referenceCoreMs = (referenceBefore.referenceCoreMs + referenceAfter.referenceCoreMs) / 2;
  const perReferenceCore = (callsPerCore: number) => round((callsPerCore * referenceCoreMs) / REFERENCE_CORE_MS, 1);
  const capacity = (result: { sustained: number; levels: Record<string, unknown>[] }) => {
    const sustainedLevel = result.levels.find((level) => level.calls === result.sustained);
    const callsPerCoreByCpu = (sustainedLevel?.callsPerCoreByCpu as number | undefined) ?? null;
    return {
      sustainedCalls: result.sustained,
      callsPerCore: round(result.sustained / availableParallelism(), 1),
      callsPerReferenceCore: perReferenceCore(result.sustained / availableParallelism()),
      cpuPerCallPercentOfCore: (sustainedLevel?.cpuPerCallPercentOfCore as number | undefined) ?? null,
      /** 100 / the server's CPU per call (% of a core) at the sustained level: calls one core carries, the server alone. */
      callsPerCoreByCpu,
      callsPerReferenceCoreByCpu: callsPerCoreByCpu === null ? null : perReferenceCore(callsPerCoreByCpu),
      levels: result.levels.map((level) => ({
        ...level,
        ...(typeof level.callsPerCoreByCpu === 'number' ? { callsPerReferenceCoreByCpu: perReferenceCore(level.callsPerCoreByCpu) } : {}),
      })),
    };
  };
  const reference = (measure: ReferenceMeasure) => ({ referenceCoreMs: measure.referenceCoreMs, wallMs: measure.wallMs });

  const textToMedia = summary(textToMediaMs);
  const file = await writeResult(ENGINE === 'espeak' ? 'telephony' : `telephony-${ENGINE}`, {
    loadAverage1m: { before: round(loadBefore ?? 0, 2), after: round(loadavg()[0] ?? 0, 2) },
    reference: { referenceCoreMs: round(referenceCoreMs, 1), referenceCoreNominalMs: REFERENCE_CORE_MS, before: reference(referenceBefore), after: reference(referenceAfter) },
    config: { playoutAheadMs: 300, minSpeechMs: 250, measureMs: MEASURE_MS, lagLimitMs: LAG_LIMIT_MS, engine: fliteModels === undefined ? 'espeak-ng-wasm (embedded), 8 kHz mu-law' : `flite ${ENGINE} (${round(statSync(fliteModels.voicePath).size / 2 ** 20, 1)} MiB voice, en-IN), 8 kHz mu-law` },
    agentTextToFirstMediaMs: textToMedia,
    capacity: capacity(uncached),
    capacityHalfCachedPrompts: capacity(halfCached),
  });
  console.log(
    `telephony: text→first media p50 ${textToMedia.p50} ms p95 ${textToMedia.p95} ms; ` +
      `${uncached.sustained} simultaneous calls (${halfCached.sustained} with half of them cached prompts) with zero ` +
      `underruns and lag p99 < ${LAG_LIMIT_MS} ms; reference job ${round(referenceCoreMs, 1)} ms (nominal ${REFERENCE_CORE_MS}) → ${file}`,
  );
} finally {
  await server.stop();
}
