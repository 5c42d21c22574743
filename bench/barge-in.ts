// Barge-in reaction on phone calls, end to end: a server process (src/main.ts, Silero VAD, 300 ms send-ahead),
// simulated Twilio peers (src/telephony/peer/) and a conversational agent in this process. Each call's agent
// speaks a long interruptible prompt; the caller says "रुको, मुझे कुछ और पूछना है।" at a varied moment. Measured from
// the caller's speech onset in the inbound audio (its first audible sample, on the stream's clock):
//  → `clear` received by the peer, → `cancellation` and → `interrupted` received by the agent (p50/p95), the peer's
// own reaction (first caller speech frame sent → `clear` received), and the
// leak: ms of bot speech the caller still heard after the onset (peer playout: sent ahead + until `clear`), next to
// what `clear` discarded from the send-ahead buffer. BENCH_BARGE_INS (default 100) calls, BARGE_IN_PARALLEL at once.

import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MULAW_SILENCE } from '../src/audio/mulaw.js';
import { CallerTrack } from '../src/telephony/peer/caller-audio.js';
import { CallerVoice } from '../src/telephony/peer/caller-speech.js';
import { CallPeer } from '../src/telephony/peer/call-peer.js';
import { fetchStreamInstruction } from '../src/telephony/twilio/voice-webhook-client.js';
import { startRecordingAgent } from './lib/recording-agent.js';
import { startServerProcess } from './lib/server-process.js';
import { round, summary, writeResult } from './lib/stats.js';

const BARGE_INS = Number(process.env.BENCH_BARGE_INS ?? 100);
const PARALLEL = 10;
const PLAYOUT_AHEAD_MS = 300;
const MIN_SPEECH_MS = 250;
const root = fileURLToPath(new URL('../', import.meta.url));
const PROMPT =
  'नमस्ते, राग बैंक में आपका स्वागत है। आपकी कॉल हमारे लिए महत्वपूर्ण है। कृपया लाइन पर बने रहें, हमारा प्रतिनिधि जल्द ही आपसे बात करेगा। ' +
  'इस बीच आप हमारी वेबसाइट पर भी जानकारी देख सकते हैं।';

/** The agent: on `call_started` it speaks PROMPT; it keeps every event with its arrival time (performance.now). */
const agent = await startRecordingAgent((socket) => socket.send(JSON.stringify({ type: 'text', utterance_id: 'prompt', text: PROMPT })));
const agentUrl = agent.url;

const voice = await CallerVoice.start(join(root, 'models/raaga-v1/manifest.json'));
const interruption = await voice.say({ text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN' });
await voice.close();

const server = await startServerProcess({ env: { TELEPHONY_PLAYOUT_AHEAD_MS: String(PLAYOUT_AHEAD_MS), TELEPHONY_MIN_SPEECH_MS: String(MIN_SPEECH_MS) } });
const loadBefore = loadavg()[0] ?? NaN;

interface BargeIn {
  readonly toSpeechStartedMs: number;
  readonly toClearMs: number;
  /** The peer's view: first frame carrying caller speech sent → `clear` received. */
  readonly frameSentToClearMs: number;
  readonly toCancellationMs: number;
  readonly toInterruptedMs: number;
  readonly leakedMs: number;
  readonly clearedMs: number;
  readonly playedMs: number;
}

let calls = 0;
async function bargeIn(index: number): Promise<BargeIn> {
  const account = server.accounts[calls++ % server.accounts.length]!;
  // Speech starts at different points of the prompt's sentences (and frame phases), never before the bot speaks.
  const atMs = 1200 + (index % 7) * 170 + (index % 3) * 7;
  const caller = new CallerTrack([{ atMs, mulaw: interruption, label: 'interrupt' }]);
  const onsetMs = caller.onsets()[0]!.atMs;
  const instruction = await fetchStreamInstruction({
    url: `${server.base}/v1/telephony/twilio/voice/${account.id}?${new URLSearchParams({ agent_url: agentUrl, barge_in: 'speech', language: 'hi-IN' })}`,
  });
  const callSid = instruction.params.CallSid as string;
  const peer = await CallPeer.connect({ url: instruction.streamUrl, callSid, customParameters: instruction.parameters, caller });
  const call = await agent.call(callSid, 10_000);
  // The stream's time zero on this process's performance clock.
  const originMs = performance.now() - peer.elapsedMs();
  try {
    const clear = await peer.waitFor('clear_received', 15_000, undefined);
    const [speechStarted, cancellation, interrupted] = await Promise.all([
      agent.event(call, 'speech_started', 5000),
      agent.event(call, 'cancellation', 5000),
      agent.event(call, 'interrupted', 5000),
    ]);
    // What the caller heard after the onset: the bot's audio until `clear` stopped it (the agent sends nothing more).
    await peer.runUntil(clear.atMs + 200);
    const heard = peer.heardMulaw();
    let last = -1;
    for (let i = Math.round(onsetMs * 8); i < heard.length; i++) if (heard[i] !== MULAW_SILENCE) last = i;
    const onsetAt = originMs + onsetMs;
    return {
      toSpeechStartedMs: speechStarted.at - onsetAt,
      toClearMs: clear.atMs - onsetMs,
      frameSentToClearMs: peer.summary().bargeInMs!, // defined: `clear` came after the caller's speech
      toCancellationMs: cancellation.at - onsetAt,
      toInterruptedMs: interrupted.at - onsetAt,
      leakedMs: last < 0 ? 0 : (last + 1) / 8 - onsetMs,
      clearedMs: peer.summary().playout.clearedMs,
      playedMs: Number(interrupted.event.played_ms),
    };
  } finally {
    await peer.stop();
    agent.forget(callSid);
  }
}

const results: BargeIn[] = [];
try {
  await bargeIn(0); // warm-up: engine, VAD session, first call path
  while (results.length < BARGE_INS) {
    const batch = Math.min(PARALLEL, BARGE_INS - results.length);
    const base = results.length;
    // Calls of a batch start 100 ms apart, as real calls do.
    results.push(...(await Promise.all(Array.from({ length: batch }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 100));
      return bargeIn(base + i);
    }))));
  }
} finally {
  await server.stop();
  agent.close();
}

const pick = (key: keyof BargeIn) => summary(results.map((r) => r[key]));
const file = await writeResult('barge-in', {
  what: 'caller speech onset (first audible sample of the inbound audio, stream clock) → clear at the peer, cancellation / interrupted at the agent; leaked = bot audio heard after the onset',
  config: { playoutAheadMs: PLAYOUT_AHEAD_MS, minSpeechMs: MIN_SPEECH_MS, parallelCalls: PARALLEL, engine: 'embedded eSpeak NG, 8 kHz mu-law', vad: 'Silero (server default)' },
  n: results.length,
  onsetToSpeechStartedMs: pick('toSpeechStartedMs'),
  onsetToClearMs: pick('toClearMs'),
  /** Every value, in call order (the offsets cycle through 21 phases of the prompt and the 20 ms frames). */
  onsetToClearMsEach: results.map((r) => Math.round(r.toClearMs)),
  firstSpeechFrameSentToClearMs: pick('frameSentToClearMs'),
  onsetToCancellationMs: pick('toCancellationMs'),
  onsetToInterruptedMs: pick('toInterruptedMs'),
  leakedAfterOnsetMs: pick('leakedMs'),
  discardedByClearMs: pick('clearedMs'),
  interruptedPlayedMs: pick('playedMs'),
  loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? NaN, 2) },
});
const clear = pick('toClearMs');
const interrupted = pick('toInterruptedMs');
const leaked = pick('leakedMs');
console.log(
  `barge-in (n=${results.length}): onset→clear p50 ${clear.p50.toFixed(0)} p95 ${clear.p95.toFixed(0)} ms, onset→interrupted p50 ${interrupted.p50.toFixed(0)} ` +
    `p95 ${interrupted.p95.toFixed(0)} ms; bot audio heard after onset p50 ${leaked.p50.toFixed(0)} p95 ${leaked.p95.toFixed(0)} ms ` +
    `(send-ahead ${PLAYOUT_AHEAD_MS} ms, min speech ${MIN_SPEECH_MS} ms) → ${file}`,
);
