// Barge-in reaction on phone calls, end to end: a server process (src/main.ts, Silero VAD, 300 ms send-ahead),
// simulated Twilio peers (src/sim/) and a conversational agent in this process. Each call's agent
// speaks a long interruptible prompt; the caller says "रुको, मुझे कुछ और पूछना है।" at a varied moment. Measured from
// the caller's speech onset in the inbound audio (its first audible sample, on the stream's clock):
//  → `clear` received by the peer, → `cancellation` and → `interrupted` received by the agent (p50/p95), the peer's
// own reaction (first caller speech frame sent → `clear` received), and the
// leak: ms of bot speech the caller still heard after the onset (peer playout: sent ahead + until `clear`), next to
// what `clear` discarded from the send-ahead buffer. BENCH_BARGE_INS (default 100) calls, BARGE_IN_PARALLEL at once.
// The same interruptions with barge_in_suspect=off (one 250 ms threshold, the rule before holds) run in the same
// process as the baseline. Then the cases a hold must give back: fillers over the prompt (resumed? the gap the caller
// heard, audio heard twice or lost, measured by the simulated provider on the audio itself), and the bot's own echo
// through a closed loop on the line (delay × level): holds per minute of bot speech, cuts, content lost. The
// interruptions run once more with 20 ± 10 ms of network delay each way between the simulated provider and the server.
// And a caller who says one short word, pauses and goes on ("Stop. I want to talk to an agent."): one interruption,
// so the bot must not speak again after the first clear (CONTINUATION_MS in session/barge-in/barge-in-controller.ts):
// bot audio the provider got after that clear, holds, cuts.

import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MULAW_SILENCE } from '../src/audio/mulaw.js';
import { CallerTrack } from '../src/sim/caller-audio.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import { CallPeer } from '../src/sim/call-peer.js';
import { fetchStreamInstruction } from '../src/sim/dialects/twilio-voice-webhook-client.js';
import { loadVoiceCatalog } from '../src/core/voice-catalog.js';
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

// Admission never sheds here (this bench measures reactions, and a loaded shared machine would refuse its calls).
const server = await startServerProcess({ env: { TELEPHONY_PLAYOUT_AHEAD_MS: String(PLAYOUT_AHEAD_MS), TELEPHONY_MIN_SPEECH_MS: String(MIN_SPEECH_MS), TELEPHONY_SHED_LAG_MS: '0' } });
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
  /** `interrupted.played_ms` minus what the peer actually played of the prompt before the clear. */
  readonly positionErrorMs: number;
}

let calls = 0;
/** A provider in another city: 20 ms each way, ± 10 ms of jitter (research/barge-in.md §4.1). */
const NETWORK = { delayMs: 20, jitterMs: 10 };

async function bargeIn(index: number, suspect: 'vad' | 'off' = 'vad', network?: typeof NETWORK): Promise<BargeIn> {
  const account = server.accounts[calls++ % server.accounts.length]!;
  // Speech starts at different points of the prompt's sentences (and frame phases), never before the bot speaks.
  const atMs = 1200 + (index % 7) * 170 + (index % 3) * 7;
  const caller = new CallerTrack([{ atMs, mulaw: interruption, label: 'interrupt' }]);
  const onsetMs = caller.onsets()[0]!.atMs;
  const instruction = await fetchStreamInstruction({
    url: `${server.base}/v1/telephony/twilio/voice/${account.id}?${new URLSearchParams({ agent_url: agentUrl, barge_in: 'speech', language: 'hi-IN', barge_in_suspect: suspect })}`,
  });
  const callSid = instruction.params.CallSid as string;
  const peer = await CallPeer.connect({ url: instruction.streamUrl, callSid, customParameters: instruction.parameters, caller, ...(network ? { network } : {}) });
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
      // The prompt is the call's only audio and nothing of it follows the clear: played = received − thrown away.
      positionErrorMs: Number(interrupted.event.played_ms) - (peer.summary().playout.receivedMs - peer.summary().playout.clearedMs),
    };
  } finally {
    await peer.stop();
    agent.forget(callSid);
  }
}

/** A call whose caller makes a sound that should not interrupt, or none with an echo on the line: how it ends. */
interface Kept {
  readonly held: number;
  readonly resumed: number;
  readonly cut: boolean;
  /** Bot silent at the peer: each clear → the replay that followed it. */
  readonly gapsMs: number[];
  readonly repeatedMs: number;
  readonly lostMs: number;
  readonly botMs: number;
  /** When each clear reached the peer, from the first bot audio (the echo rows' warm-up split). */
  readonly clearsAtMs: number[];
}

async function keptCall(index: number, options: { clip?: Uint8Array; echo?: { delayMs: number; erlDb: number; taps: number } }): Promise<Kept> {
  const account = server.accounts[calls++ % server.accounts.length]!;
  const atMs = 1200 + (index % 7) * 170 + (index % 3) * 7;
  const caller = new CallerTrack(options.clip ? [{ atMs, mulaw: options.clip, label: 'filler' }] : []);
  const instruction = await fetchStreamInstruction({
    url: `${server.base}/v1/telephony/twilio/voice/${account.id}?${new URLSearchParams({ agent_url: agentUrl, barge_in: 'speech', language: 'hi-IN' })}`,
  });
  const callSid = instruction.params.CallSid as string;
  const peer = await CallPeer.connect({ url: instruction.streamUrl, callSid, customParameters: instruction.parameters, caller, ...(options.echo ? { echo: options.echo } : {}) });
  const call = await agent.call(callSid, 10_000);
  try {
    const ended = await Promise.any([agent.event(call, 'utterance_played', 60_000), agent.event(call, 'interrupted', 60_000)]);
    const summary = peer.summary();
    const clears = peer.timeline.filter((e) => e.kind === 'clear_received');
    const replays = peer.timeline.filter((e) => e.kind === 'replay_received');
    const gapsMs = clears.flatMap((c) => {
      const replay = replays.find((r) => r.atMs >= c.atMs);
      return replay ? [replay.atMs - c.atMs] : [];
    });
    return {
      held: summary.clears,
      // Every hold that did not end the utterance resumed (the agent did not opt in to hold events: it gives no verdicts).
      resumed: ended.event.type === 'interrupted' ? summary.clears - 1 : summary.clears,
      cut: ended.event.type === 'interrupted',
      gapsMs,
      repeatedMs: summary.repeatedMs,
      lostMs: summary.lostMs,
      botMs: summary.playout.receivedMs - summary.repeatedMs,
      clearsAtMs: clears.map((c) => Math.round(c.atMs - (summary.firstMediaInMs ?? 0))),
    };
  } finally {
    await peer.stop();
    agent.forget(callSid);
  }
}

/** A caller who pauses inside one interruption: what the bot did after the first clear. */
interface Continued {
  readonly holds: number;
  readonly cut: boolean;
  /** Bot audio the provider received after the first clear (re-sent or new): the caller hears the bot over them. */
  readonly botMsAfterFirstClear: number;
  readonly onsetToClearMs: number;
  readonly onsetToInterruptedMs: number;
}

async function continuingCall(index: number, clip: Uint8Array): Promise<Continued> {
  const account = server.accounts[calls++ % server.accounts.length]!;
  const atMs = 1200 + (index % 7) * 170 + (index % 3) * 7;
  const caller = new CallerTrack([{ atMs, mulaw: clip, label: 'continuing' }]);
  const onsetMs = caller.onsets()[0]!.atMs;
  const instruction = await fetchStreamInstruction({
    url: `${server.base}/v1/telephony/twilio/voice/${account.id}?${new URLSearchParams({ agent_url: agentUrl, barge_in: 'speech', language: 'hi-IN' })}`,
  });
  const callSid = instruction.params.CallSid as string;
  const peer = await CallPeer.connect({ url: instruction.streamUrl, callSid, customParameters: instruction.parameters, caller });
  const call = await agent.call(callSid, 10_000);
  const originMs = performance.now() - peer.elapsedMs();
  try {
    const clear = await peer.waitFor('clear_received', 15_000, undefined);
    const interrupted = await agent.event(call, 'interrupted', 15_000).catch(() => undefined);
    // The caller's sentence is over and every decision taken well before this.
    await peer.runUntil(caller.endMs() + 1500);
    const first = peer.inbound.findIndex((entry) => entry.event === 'clear');
    const after = peer.inbound.slice(first + 1).reduce((sum, entry) => sum + (entry.event === 'media' ? entry.bytes : 0), 0);
    return {
      holds: peer.summary().clears,
      cut: interrupted !== undefined,
      botMsAfterFirstClear: after / 8,
      onsetToClearMs: clear.atMs - onsetMs,
      onsetToInterruptedMs: interrupted === undefined ? NaN : interrupted.at - (originMs + onsetMs),
    };
  } finally {
    await peer.stop();
    agent.forget(callSid);
  }
}

async function batches<T>(count: number, run: (index: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  while (out.length < count) {
    const batch = Math.min(PARALLEL, count - out.length);
    const base = out.length;
    // Calls of a batch start 100 ms apart, as real calls do.
    out.push(...(await Promise.all(Array.from({ length: batch }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 100));
      return run(base + i);
    }))));
  }
  return out;
}

const FILLER_TEXTS = [{ text: 'हाँ', language: 'hi-IN' }, { text: 'hmm', language: 'en-IN' }, { text: 'ok', language: 'en-IN' }, { text: 'हम्म', language: 'hi-IN' }] as const;
const fillerVoice = await CallerVoice.start(join(root, 'models/raaga-v1/manifest.json'));
const fillers = await Promise.all(FILLER_TEXTS.map((f) => fillerVoice.say({ text: f.text, language: f.language, speed: 1.5 })));
await fillerVoice.close();
/**
 * "Stop. I want to talk to an agent." with eSpeak's own full-stop pause, and the "stop, … I want to talk to an
 * agent", in every catalog voice at 1 and 1.25x: "stop" alone is often under short_max_ms, and the pause between the
 * words lasts 0-440 ms (bench/barge-in-pauses.ts).
 */
const CONTINUING_TEXTS = ['Stop. I want to talk to an agent.', 'stop, … I want to talk to an agent.'];
const continuingVoice = await CallerVoice.start(join(root, 'models/raaga-v1/manifest.json'));
const continuingClips: { text: string; voice: string; speed: number; clip: Uint8Array }[] = [];
for (const text of CONTINUING_TEXTS) {
  for (const name of loadVoiceCatalog(join(root, 'models/raaga-v1/manifest.json')).voices().map((v) => v.name)) {
    for (const speed of [1, 1.25]) continuingClips.push({ text, voice: name, speed, clip: await continuingVoice.say({ text, language: 'en-IN', voice: name, speed }) });
  }
}
await continuingVoice.close();
/** The echo estimate needs some bot speech to form; holds before this are its warm-up. */
const ECHO_WARM_UP_MS = 5000;
const ECHO_PATHS = [120, 250].flatMap((delayMs) => [-10, -20, -30].map((erlDb) => ({ delayMs, erlDb, taps: 6 })));

let results: BargeIn[] = [];
let baseline: BargeIn[] = [];
let delayed: BargeIn[] = [];
let kept: Kept[] = [];
let continued: (Continued & { text: string; voice: string; speed: number })[] = [];
const echoes: { path: (typeof ECHO_PATHS)[number]; kept: Kept }[] = [];
try {
  await bargeIn(0); // warm-up: engine, VAD session, first call path
  results = await batches(BARGE_INS, (i) => bargeIn(i));
  baseline = await batches(Math.ceil(BARGE_INS / 2), (i) => bargeIn(i, 'off'));
  delayed = await batches(Math.ceil(BARGE_INS / 2), (i) => bargeIn(i, 'vad', NETWORK));
  kept = await batches(Math.ceil(BARGE_INS / 2), (i) => keptCall(i, { clip: fillers[i % fillers.length]! }));
  echoes.push(...(await Promise.all(ECHO_PATHS.map(async (path, i) => ({ path, kept: await keptCall(i, { echo: path }) })))));
  continued = await batches(continuingClips.length, async (i) => {
    const { clip, ...label } = continuingClips[i]!;
    return { ...label, ...(await continuingCall(i, clip)) };
  });
} finally {
  await server.stop();
  agent.close();
}

const pick = (key: keyof BargeIn, from: BargeIn[] = results) => summary(from.map((r) => r[key]));
const share = (n: number, of: number) => (of === 0 ? null : round((100 * n) / of, 1));
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
  /** |interrupted.played_ms − what the peer played before the clear| (research/barge-in.md §4.3 "position error"). */
  positionErrorAbsMs: summary(results.map((r) => Math.abs(r.positionErrorMs))),
  positionErrorMs: pick('positionErrorMs'),
  baselineSuspectOff: {
    n: baseline.length,
    onsetToClearMs: pick('toClearMs', baseline),
    onsetToInterruptedMs: pick('toInterruptedMs', baseline),
    leakedAfterOnsetMs: pick('leakedMs', baseline),
  },
  withNetworkDelay: {
    what: `holds, with ${NETWORK.delayMs} ms ± ${NETWORK.jitterMs} ms each way between the provider and the server; times as the provider sees them`,
    n: delayed.length,
    onsetToClearMs: pick('toClearMs', delayed),
    firstSpeechFrameSentToClearMs: pick('frameSentToClearMs', delayed),
    leakedAfterOnsetMs: pick('leakedMs', delayed),
  },
  fillers: {
    what: `${FILLER_TEXTS.map((f) => f.text).join(', ')} at 1.5x over the prompt`,
    n: kept.length,
    heldPct: share(kept.filter((k) => k.held > 0).length, kept.length),
    cutPct: share(kept.filter((k) => k.cut).length, kept.length),
    resumedPct: share(kept.filter((k) => !k.cut && k.resumed > 0).length, kept.length),
    gapAtPeerMs: summary(kept.flatMap((k) => k.gapsMs)),
    repeatedMs: summary(kept.filter((k) => k.resumed > 0).map((k) => k.repeatedMs)),
    callsWithLostAudio: kept.filter((k) => k.lostMs > 0).length,
  },
  echoOnly: echoes.map(({ path, kept: k }) => ({
    delayMs: path.delayMs,
    erlDb: path.erlDb,
    holdsPerMinute: round(k.held / (k.botMs / 60_000), 2),
    holds: k.held,
    holdsAtMs: k.clearsAtMs,
    /** research/barge-in.md §4.3 counts false pauses "after warm-up": here, after the first 5 s of bot audio. */
    holdsPerMinuteAfterWarmUp: round(k.clearsAtMs.filter((at) => at >= ECHO_WARM_UP_MS).length / (Math.max(1, k.botMs - ECHO_WARM_UP_MS) / 60_000), 2),
    cut: k.cut,
    lostMs: k.lostMs,
    repeatedMs: k.repeatedMs,
  })),
  continuing: {
    what: `${CONTINUING_TEXTS.join(' / ')} (every voice, 1 and 1.25x) over the prompt: one interruption with a pause in it`,
    n: continued.length,
    cutPct: share(continued.filter((c) => c.cut).length, continued.length),
    callsWithOneHold: continued.filter((c) => c.holds === 1).length,
    callsWithBotAudioAfterFirstClear: continued.filter((c) => c.botMsAfterFirstClear > 0).length,
    botMsAfterFirstClear: summary(continued.map((c) => c.botMsAfterFirstClear)),
    onsetToClearMs: summary(continued.map((c) => c.onsetToClearMs)),
    onsetToInterruptedMs: summary(continued.filter((c) => c.cut).map((c) => c.onsetToInterruptedMs)),
    /** Calls that held more than once or got bot audio after the first clear. */
    stuttered: continued.filter((c) => c.holds > 1 || c.botMsAfterFirstClear > 0).map((c) => ({ text: c.text, voice: c.voice, speed: c.speed, holds: c.holds, botMsAfterFirstClear: c.botMsAfterFirstClear })),
  },
  loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? NaN, 2) },
});
const clear = pick('toClearMs');
const interrupted = pick('toInterruptedMs');
const leaked = pick('leakedMs');
console.log(
  `barge-in (n=${results.length}): onset→clear p50 ${clear.p50.toFixed(0)} p95 ${clear.p95.toFixed(0)} ms, onset→interrupted p50 ${interrupted.p50.toFixed(0)} ` +
    `p95 ${interrupted.p95.toFixed(0)} ms; bot audio heard after onset p50 ${leaked.p50.toFixed(0)} p95 ${leaked.p95.toFixed(0)} ms ` +
    `(send-ahead ${PLAYOUT_AHEAD_MS} ms, min speech ${MIN_SPEECH_MS} ms); suspect=off onset→clear p50 ${pick('toClearMs', baseline).p50.toFixed(0)} ` +
    `p95 ${pick('toClearMs', baseline).p95.toFixed(0)} ms; ${NETWORK.delayMs}±${NETWORK.jitterMs} ms each way: onset→clear p50 ${pick('toClearMs', delayed).p50.toFixed(0)} p95 ${pick('toClearMs', delayed).p95.toFixed(0)} ms; fillers cut ${kept.filter((k) => k.cut).length}/${kept.length}, lost audio in ${kept.filter((k) => k.lostMs > 0).length}; ` +
    `echo-only cuts ${echoes.filter((e) => e.kept.cut).length}/${echoes.length}; a caller who pauses and goes on: bot audio after the first clear in ` +
    `${continued.filter((c) => c.botMsAfterFirstClear > 0).length}/${continued.length} calls (max ${Math.max(0, ...continued.map((c) => c.botMsAfterFirstClear))} ms), ` +
    `one hold in ${continued.filter((c) => c.holds === 1).length} → ${file}`,
);
