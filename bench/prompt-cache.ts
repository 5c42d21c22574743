// The prompt cache's effect on each endpoint: time to the first audio byte (generate: to the whole response) for a
// cached utterance (hit) and the same utterance synthesized (miss: `Cache-Control: no-store`; on calls a greeting
// nobody said before, the same text with a closing number, so that calls go through a normal call), per language, against the real server in
// this process (eSpeak workers, prompt cache on). Goal (issue "Speed and capacity"): a hit's first byte under 10 %
// of a miss's at p50. BENCH_REPEATS (default 10) per language and endpoint. JSON: bench/results/prompt-cache.json.

import { loadavg } from 'node:os';
import { LANGUAGE_CODES } from '../src/languages.js';
import { CallPeer } from '../src/sim/call-peer.js';
import { fetchStreamInstruction } from '../src/sim/dialects/twilio-voice-webhook-client.js';
import { startTestServer } from '../test/helpers/test-server.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { round, summary, writeResult } from './lib/stats.js';
import { TimedWebSocketSession, timedHttpStream } from './lib/tts-clients.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 10);
const NO_STORE = { 'cache-control': 'no-store' };
const AUDIO = { voice: 'priya', format: 'mulaw', sampleRateHz: 8000 } as const;

const server = await startTestServer({ TTS_WORKERS: '2', PROMPT_CACHE_MAX_BYTES: String(64 * 2 ** 20) });
const loadBefore = loadavg()[0] ?? NaN;
const samples: Record<'generate' | 'stream' | 'websocket' | 'call', { hit: number[]; miss: number[] }> = {
  generate: { hit: [], miss: [] },
  stream: { hit: [], miss: [] },
  websocket: { hit: [], miss: [] },
  call: { hit: [], miss: [] },
};

async function timedGenerate(key: string, language: string, text: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.url}/v1/tts/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model_id: 'raaga-v1', voice: AUDIO.voice, language, text, output_format: AUDIO.format, sample_rate: AUDIO.sampleRateHz }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`generate answered ${response.status}`);
  return performance.now() - started;
}

/** A call whose greeting is `greeting`: ms from the stream's start to its first media frame. */
async function timedCall(accountId: string, language: string, greeting: string): Promise<number> {
  const instruction = await fetchStreamInstruction({ url: `${server.url}/v1/telephony/twilio/voice/${accountId}?${new URLSearchParams({ greeting, language, voice: AUDIO.voice })}` });
  const peer = await CallPeer.connect({ url: instruction.streamUrl, callSid: instruction.params.CallSid!, customParameters: instruction.parameters });
  try {
    const first = await peer.waitFor('first_media_in', 15_000);
    return first.atMs;
  } finally {
    await peer.drop();
  }
}

try {
  let callNumber = 0;
  for (const language of LANGUAGE_CODES) {
    const text = SAMPLE_TEXTS[language];
    const account = await server.account('growth', 100_000_000);
    const key = account.keys[0]!;
    await server.deps.store.putTelephonySettings({ accountId: account.id, allowUnsigned: true, updatedAtMs: Date.now() });
    // Warm the language's engine path and put the text in the cache (a stream and a generate synthesized whole).
    await timedHttpStream(server.url, key, { ...AUDIO, language }, text);
    await timedGenerate(key, language, text, {});
    const ws = await TimedWebSocketSession.open(server.url, key, { ...AUDIO, language });
    const wsMiss = await TimedWebSocketSession.open(server.url, key, { ...AUDIO, language }, NO_STORE);
    try {
      for (let i = 0; i < REPEATS; i++) {
        samples.stream.miss.push((await timedHttpStream(server.url, key, { ...AUDIO, language }, text, NO_STORE)).ttfbMs);
        samples.stream.hit.push((await timedHttpStream(server.url, key, { ...AUDIO, language }, text)).ttfbMs);
        samples.generate.miss.push(await timedGenerate(key, language, text, NO_STORE));
        samples.generate.hit.push(await timedGenerate(key, language, text, {}));
        samples.websocket.miss.push((await wsMiss.speak(text)).ttfbMs);
        samples.websocket.hit.push((await ws.speak(text)).ttfbMs);
      }
    } finally {
      await ws.close();
      await wsMiss.close();
    }
    // Calls speak 8 kHz mu-law in streaming mode, as the WebSocket session above did: its entry serves the greeting.
    // Misses: a greeting nobody said before (the same text with a closing number).
    for (let i = 0; i < REPEATS; i++) {
      samples.call.miss.push(await timedCall(account.id, language, `${text} ${++callNumber}`));
      samples.call.hit.push(await timedCall(account.id, language, text));
    }
  }
} finally {
  await server.close();
}

const endpoints = Object.fromEntries(
  Object.entries(samples).map(([endpoint, { hit, miss }]) => {
    const hitSummary = summary(hit);
    const missSummary = summary(miss);
    return [endpoint, { missMs: missSummary, hitMs: hitSummary, hitOverMissP50: round(hitSummary.p50 / missSummary.p50, 3) }];
  }),
);
const file = await writeResult('prompt-cache', {
  what: 'time to first audio byte (generate: whole response) for a cached utterance (hit) and the same synthesized (miss), 8 kHz mu-law, 8 languages',
  repeatsPerLanguage: REPEATS,
  endpoints,
  loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? NaN, 2) },
});
console.log(
  `prompt cache hit/miss p50: ${Object.entries(endpoints)
    .map(([endpoint, r]) => `${endpoint} ${r.hitMs.p50.toFixed(1)}/${r.missMs.p50.toFixed(1)} ms (${(r.hitOverMissP50 * 100).toFixed(1)} %)`)
    .join(', ')} → ${file}`,
);
