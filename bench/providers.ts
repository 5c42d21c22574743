// Every provider's call path, measured the same way against one server process (embedded store, Silero VAD):
// the simulated provider (src/sim/, in that provider's dialect, reached as that provider reaches Raaga,
// with its credentials) and a conversational agent in this process. Per provider:
//  1. agent `text` → first media frame at the peer (BENCH_PROVIDER_TEXTS texts on one call, cancelled in between);
//  2. barge-in: the agent speaks a long prompt, the caller says "रुको, मुझे कुछ और पूछना है।" at a varied moment
//     (BENCH_PROVIDER_BARGE_INS calls); first caller-speech frame sent → the cut seen by the peer (its `clear`, or
//     on AudioSocket, which has no clear, the end of the bot's last frame), and speech onset → `interrupted` at the
//     agent. Exotel and Smartflo send caller audio in 100 ms messages, so their figures include that batching.
// JSON: bench/results/providers.json.

import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TelephonySettings } from '../src/store/store.js';
import { CallerTrack } from '../src/sim/caller-audio.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import type { CallPeer } from '../src/sim/call-peer.js';
import { dialProvider, SIMULATED_PROVIDERS, type ProviderCredentials, type SimulatedProvider } from '../src/sim/dial-provider.js';
import { startRecordingAgent, type AgentCall } from './lib/recording-agent.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { startServerProcess } from './lib/server-process.js';
import { round, summary, writeResult } from './lib/stats.js';

const TEXTS = Number(process.env.BENCH_PROVIDER_TEXTS ?? 20);
const BARGE_INS = Number(process.env.BENCH_PROVIDER_BARGE_INS ?? 20);
const PARALLEL = 5;
const root = fileURLToPath(new URL('../', import.meta.url));
const PROMPT =
  'नमस्ते, राग बैंक में आपका स्वागत है। आपकी कॉल हमारे लिए महत्वपूर्ण है। कृपया लाइन पर बने रहें, हमारा प्रतिनिधि जल्द ही आपसे बात करेगा। ' +
  'इस बीच आप हमारी वेबसाइट पर भी जानकारी देख सकते हैं।';

/** Each provider's account credentials, stored before the server starts and presented by the simulator. */
const PROVIDERS: Record<SimulatedProvider, { settings: Partial<TelephonySettings>; credentials: ProviderCredentials }> = {
  twilio: { settings: { credentials: { twilioAuthToken: 'bench-twilio-auth-token-0123456789' } }, credentials: { twilioAuthToken: 'bench-twilio-auth-token-0123456789' } },
  smartflo: { settings: { credentials: { smartfloToken: 'sf_bench_0123456789abcdefghij' } }, credentials: { smartfloToken: 'sf_bench_0123456789abcdefghij' } },
  exotel: { settings: { credentials: { exotelCredentials: 'bench:exotel-secret-0123' } }, credentials: { exotelCredentials: 'bench:exotel-secret-0123' } },
  plivo: { settings: { credentials: { plivoAuthId: 'MABENCHBENCHBENCH001', plivoAuthToken: 'bench-plivo-token-0123456789' } }, credentials: { plivoAuthToken: 'bench-plivo-token-0123456789' } },
  asterisk: { settings: { credentials: { asteriskCredentials: 'asterisk:bench-secret-0123' } }, credentials: { asteriskCredentials: 'asterisk:bench-secret-0123' } },
  audiosocket: { settings: {}, credentials: {} },
};
const accountOf = (provider: SimulatedProvider) => `acct_bench_${provider}`;

// ---- the agent: in the barge-in phase it speaks PROMPT as soon as a call starts ----------------------------

let phase: 'text' | 'barge-in' = 'text';
const agent = await startRecordingAgent((socket) => {
  if (phase === 'barge-in') socket.send(JSON.stringify({ type: 'text', utterance_id: 'prompt', text: PROMPT }));
});
const agentUrl = agent.url;
const agentEvent = agent.event;

// ---- the server ------------------------------------------------------------------------------------------

const voice = await CallerVoice.start(join(root, 'models/raaga-v1/manifest.json'));
const interruption = await voice.say({ text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN' });
await voice.close();

const CALL_SETTINGS = { agent_url: agentUrl, barge_in: 'speech', language: 'hi-IN' };
const server = await startServerProcess({
  accountIds: SIMULATED_PROVIDERS.map(accountOf),
  // What is measured is each call path, not admission: a loaded machine's lag must not shed the bench's own calls.
  env: { AUDIOSOCKET_PORT: '0', AUDIOSOCKET_ACCOUNT: accountOf('audiosocket'), TELEPHONY_SHED_LAG_MS: '0' },
  prepare: async (store) => {
    for (const provider of SIMULATED_PROVIDERS) {
      // AudioSocket carries no parameters: its calls take the account's defaults.
      const defaults = provider === 'audiosocket' ? { defaults: CALL_SETTINGS } : {};
      await store.putTelephonySettings({ accountId: accountOf(provider), ...PROVIDERS[provider].settings, ...defaults, updatedAtMs: Date.now() });
    }
  },
});
const loadBefore = loadavg()[0] ?? NaN;

async function dial(provider: SimulatedProvider, caller?: CallerTrack): Promise<{ peer: CallPeer; agentCall: AgentCall }> {
  const { peer, callId } = await dialProvider({
    provider,
    baseUrl: server.base,
    accountId: accountOf(provider),
    credentials: PROVIDERS[provider].credentials,
    params: provider === 'audiosocket' ? {} : CALL_SETTINGS,
    audioSocket: server.audioSocket,
    ...(caller ? { caller } : {}),
  });
  return { peer, agentCall: await agent.call(callId, 10_000) };
}

// ---- 1. agent text → first media ---------------------------------------------------------------------------

async function textToFirstAudio(provider: SimulatedProvider): Promise<number[]> {
  const { peer, agentCall } = await dial(provider);
  await agentEvent(agentCall, 'call_started', 10_000);
  const texts = Object.entries(SAMPLE_TEXTS);
  const values: number[] = [];
  try {
    for (let i = 0; i < TEXTS + 3; i++) {
      const [language, text] = texts[i % texts.length]!;
      const configuredAfter = performance.now();
      agentCall.socket.send(JSON.stringify({ type: 'config', voice: 'priya', language }));
      await agentEvent(agentCall, 'configured', 5000, configuredAfter);
      const sentAt = peer.elapsedMs();
      const before = peer.inbound.length;
      agentCall.socket.send(JSON.stringify({ type: 'text', text }));
      while (!peer.inbound.slice(before).some((entry) => entry.event === 'media')) await new Promise((resolve) => setImmediate(resolve));
      const first = peer.inbound.slice(before).find((entry) => entry.event === 'media')!;
      if (i >= 3) values.push(first.atMs - sentAt); // the first few warm the engine per language
      const cancelledAfter = performance.now();
      agentCall.socket.send(JSON.stringify({ type: 'cancel' }));
      await agentEvent(agentCall, 'cancellation', 5000, cancelledAfter);
    }
  } finally {
    await peer.stop();
  }
  return values;
}

// ---- 2. barge-in ------------------------------------------------------------------------------------------

interface BargeIn {
  /** First frame carrying caller speech sent → the peer saw the bot cut (clear, or its audio stopped). */
  readonly frameSentToCutMs: number;
  readonly onsetToInterruptedMs: number;
  readonly cutBy: string;
}

async function bargeIn(provider: SimulatedProvider, index: number): Promise<BargeIn> {
  // Speech starts at different points of the prompt's sentences (and frame phases), never before the bot speaks.
  const atMs = 1200 + (index % 7) * 170 + (index % 3) * 7;
  const caller = new CallerTrack([{ atMs, mulaw: interruption, label: 'interrupt' }]);
  const onsetMs = caller.onsets()[0]!.atMs;
  const { peer, agentCall } = await dial(provider, caller);
  const originMs = performance.now() - peer.elapsedMs();
  try {
    const interrupted = await agentEvent(agentCall, 'interrupted', 15_000);
    // Let the audio-stopped view settle: no bot audio for longer than its gap after the cut.
    await peer.runUntil(peer.elapsedMs() + 300);
    const { bargeInMs, bargeInBy } = peer.summary();
    if (bargeInMs === undefined) throw new Error(`${provider}: no cut seen by the peer`);
    return { frameSentToCutMs: bargeInMs, onsetToInterruptedMs: interrupted.at - (originMs + onsetMs), cutBy: bargeInBy ?? 'unknown' };
  } finally {
    await peer.stop();
  }
}

const perProvider: Record<string, unknown> = {};
try {
  for (const provider of SIMULATED_PROVIDERS) {
    phase = 'text';
    const text = await textToFirstAudio(provider);
    phase = 'barge-in';
    await bargeIn(provider, 0); // warm-up
    const results: BargeIn[] = [];
    while (results.length < BARGE_INS) {
      const batch = Math.min(PARALLEL, BARGE_INS - results.length);
      const base = results.length;
      results.push(
        ...(await Promise.all(
          Array.from({ length: batch }, async (_, i) => {
            await new Promise((resolve) => setTimeout(resolve, i * 100));
            return bargeIn(provider, base + i);
          }),
        )),
      );
    }
    perProvider[provider] = {
      agentTextToFirstAudioMs: summary(text),
      bargeIn: {
        cutSeenAs: [...new Set(results.map((r) => r.cutBy))],
        firstSpeechFrameSentToCutMs: summary(results.map((r) => r.frameSentToCutMs)),
        onsetToInterruptedMs: summary(results.map((r) => r.onsetToInterruptedMs)),
      },
      loadAverage1m: round(loadavg()[0] ?? NaN, 2),
    };
    const row = perProvider[provider] as { agentTextToFirstAudioMs: { p50: number; p95: number }; bargeIn: { firstSpeechFrameSentToCutMs: { p50: number; p95: number } } };
    console.log(
      `${provider.padEnd(11)} text→first audio p50 ${row.agentTextToFirstAudioMs.p50.toFixed(0)} p95 ${row.agentTextToFirstAudioMs.p95.toFixed(0)} ms; ` +
        `speech frame→cut p50 ${row.bargeIn.firstSpeechFrameSentToCutMs.p50.toFixed(0)} p95 ${row.bargeIn.firstSpeechFrameSentToCutMs.p95.toFixed(0)} ms`,
    );
  }
} finally {
  await server.stop();
  agent.close();
}

const file = await writeResult('providers', {
  what: 'per provider, over its own protocol: agent text → first media frame at the peer; barge-in: first caller-speech frame sent → cut seen by the peer (clear, or bot audio stopped on AudioSocket), speech onset → interrupted at the agent',
  config: { texts: TEXTS, bargeIns: BARGE_INS, parallelCalls: PARALLEL, engine: 'embedded eSpeak NG, 8 kHz', vad: 'Silero (server default)', playoutAheadMs: 300 },
  providers: perProvider,
  loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? NaN, 2) },
});
console.log(`→ ${file}`);
