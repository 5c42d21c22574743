// The event-loop guard (issue 42): next to live phone calls, the largest valid request of every kind, one after the
// other: generate and stream in every format × rate at 3,000 characters, the TTS WebSocket, GET /v1/usage over a
// 1M-record ledger, pathological texts and SSML at its limits. For each: the server's longest event-loop block and
// p99 while it ran (prom-client's monitor, reset at every scrape) and the calls' underruns. Goal: no block over 20 ms,
// p99 ≤ 10 ms, zero underruns. BENCH_GUARD_QUICK=1: MP3 and PCM at 8 and 48 kHz only; BENCH_USAGE_RECORDS (1e6).
// → bench/results/event-loop-guard.json

import Database from 'better-sqlite3';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CallPeer } from '../src/sim/call-peer.js';
import { parseStreamTwiml } from '../src/sim/dialects/twilio-voice-webhook-client.js';
import { sampleValue } from '../test/helpers/metrics.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { startServerProcess } from './lib/server-process.js';
import { machine, round, writeResult } from './lib/stats.js';

const QUICK = process.env.BENCH_GUARD_QUICK === '1';
const USAGE_RECORDS = Number(process.env.BENCH_USAGE_RECORDS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_GUARD_CALLS ?? 2);
const FORMATS = QUICK ? ['mp3', 'pcm'] : ['mp3', 'wav', 'pcm', 'mulaw', 'alaw', 'opus'];
const RATES = QUICK ? [8000, 48000] : [8000, 16000, 24000, 48000];
/** prom-client's monitor samples at 10 ms: an idle loop reads ~10 ms (as bench/overload.ts). */
const LAG_RESOLUTION_MS = 10;
const DAY_MS = 86_400_000;
const LONG_TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(67).slice(0, 3000);
const CALL_TEXT = `${SAMPLE_TEXTS['hi-IN']} `.repeat(30).slice(0, 2990);
const loadBefore = loadavg()[0] ?? 0;

/** Usage records written with SQL before the server opens the store (a file upgraded from v4 fills its rollup). */
function seedUsage(dataDir: string, accountId: string): void {
  if (USAGE_RECORDS === 0) return;
  const db = new Database(join(dataDir, 'raaga.db'));
  const insert = db.prepare(
    'INSERT INTO usage (at_ms, account_id, key_id, endpoint, call_id, voice, language, engine, characters, audio_seconds, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const start = Date.now() - 390 * DAY_MS;
  const step = (389 * DAY_MS) / USAGE_RECORDS;
  const voices = ['priya', 'aarav', 'meera', 'sanjay'];
  const languages = ['hi-IN', 'en-IN', 'ta-IN', 'bn-IN'];
  db.transaction(() => {
    for (let i = 0; i < USAGE_RECORDS; i++) {
      insert.run(Math.floor(start + i * step), accountId, 'k1', 'generate', null, voices[i % 4], languages[(i >> 2) % 4], 'espeak', 1 + (i % 300), 1.5, 'completed');
    }
  })();
  const rollup = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'usage_rollup%'").all() as { name: string }[];
  if (rollup.length > 0) {
    // As an upgraded file: the store fills its rollup from the records when the server opens it.
    for (const { name } of rollup) db.exec(`DROP TABLE ${name}`);
    db.pragma('user_version = 4');
  }
  db.close();
}

// The engine and encoder threads niced, as on a machine that serves calls (docs/operations.md): the event loop then
// wins a contended core, and what is left of a block is the loop's own work.
const server = await startServerProcess({
  accounts: CALLS + 2,
  env: { TTS_WORKER_NICE: process.env.TTS_WORKER_NICE ?? '10' },
  prepareDataDir: (dataDir) => seedUsage(dataDir, 'acct_bench_0'),
});
const wsBase = server.base.replace(/^http/, 'ws');
const tenant = server.accounts[0]!;

async function lag(): Promise<{ maxMs: number; p99Ms: number }> {
  const text = await server.metrics();
  const read = (name: string) => round(Math.max(0, sampleValue(text, name) * 1000 - LAG_RESOLUTION_MS), 1);
  return { maxMs: read('nodejs_eventloop_lag_max_seconds'), p99Ms: read('nodejs_eventloop_lag_p99_seconds') };
}

async function startCall(index: number): Promise<CallPeer> {
  const account = server.accounts[index + 1]!;
  const callSid = `CA${(index + 1).toString(16).padStart(32, '0')}`;
  const form = { CallSid: callSid, AccountSid: `AC${'0'.repeat(32)}`, From: '+919800000001', To: '+918000000002', CallStatus: 'ringing', Direction: 'inbound' };
  const response = await fetch(`${server.base}/v1/telephony/twilio/voice/${account.id}?language=hi-IN&cache=false`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const { streamUrl, parameters } = parseStreamTwiml(await response.text());
  const peer = await CallPeer.connect({ url: `${wsBase}${new URL(streamUrl).pathname}`, callSid, customParameters: parameters });
  for (let i = 0; i < 4; i++) {
    for (let attempt = 0; ; attempt++) {
      const said = await fetch(`${server.base}/v1/calls/${callSid}/say`, { method: 'POST', headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: CALL_TEXT, interruptible: false }) });
      if (said.status === 202) break;
      if (attempt > 200) throw new Error(`say answered ${said.status}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  await peer.waitFor('first_media_in', 30_000);
  return peer;
}

const json = (body: unknown) => ({ method: 'POST', headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify(body) });
const synthesis = (text: string, format: string, rate: number, language = 'en-IN') => ({ model_id: 'raaga-v1', voice: 'priya', language, text, output_format: format, sample_rate: rate });

async function drain(response: Response): Promise<string> {
  const bytes = (await response.arrayBuffer()).byteLength;
  return `${response.status} ${bytes} B`;
}

async function websocket(text: string, format: string, rate: number): Promise<string> {
  const socket = new WebSocket(`${wsBase}/v1/tts/websocket`, { headers: { authorization: `Bearer ${tenant.key}`, 'cache-control': 'no-store' } });
  let bytes = 0;
  return new Promise((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'config', model_id: 'raaga-v1', voice: 'priya', language: 'en-IN', output_format: format, sample_rate: rate })));
    socket.on('message', (data: Buffer, isBinary) => {
      if (isBinary) return void (bytes += data.length);
      const message = JSON.parse(String(data)) as { type: string };
      if (message.type === 'configured') socket.send(JSON.stringify({ type: 'text', text }));
      else if (message.type === 'end_of_utterance') {
        socket.close(1000);
        resolve(`end_of_utterance ${bytes} B`);
      } else if (message.type === 'error') reject(new Error(String(data)));
    });
    socket.on('error', reject);
  });
}

type Kind = { readonly name: string; readonly run: () => Promise<string> };
const kinds: Kind[] = [];
for (const format of FORMATS) {
  for (const rate of RATES) {
    kinds.push({ name: `generate ${format} ${rate}`, run: async () => drain(await fetch(`${server.base}/v1/tts/generate`, json(synthesis(LONG_TEXT, format, rate)))) });
    kinds.push({ name: `stream ${format} ${rate}`, run: async () => drain(await fetch(`${server.base}/v1/tts/stream`, json(synthesis(LONG_TEXT, format, rate)))) });
  }
  kinds.push({ name: `websocket ${format} 48000`, run: () => websocket(LONG_TEXT, format, 48000) });
}
const from = new Date(Date.now() - 398 * DAY_MS).toISOString().slice(0, 10);
for (const groupBy of ['day', 'voice', 'language', 'key']) {
  kinds.push({ name: `usage ${USAGE_RECORDS} records group_by=${groupBy}`, run: async () => drain(await fetch(`${server.base}/v1/usage?from=${from}&group_by=${groupBy}&timezone=Asia/Kolkata`, { headers: { authorization: `Bearer ${tenant.key}` } })) });
}
const PATHOLOGICAL: Record<string, [string, string]> = {
  'digit-dash chain en-IN': ['1-'.repeat(1500), 'en-IN'],
  'digit-dash chain bn-IN': ['1-'.repeat(1500), 'bn-IN'],
  'rupee amounts': ['₹1 '.repeat(1000), 'hi-IN'],
  'dotted name': ['a.'.repeat(1498) + 'com', 'en-IN'],
  'ssml 400 nested <s>': [`<speak>${'<s>'.repeat(400)}Hello${'</s>'.repeat(400)}</speak>`, 'en-IN'],
  'ssml 100 breaks': [`<speak>${'a <break time="10ms"/> '.repeat(100)}</speak>`, 'en-IN'],
};
for (const [name, [text, language]] of Object.entries(PATHOLOGICAL)) {
  kinds.push({ name: `pathological ${name}`, run: async () => drain(await fetch(`${server.base}/v1/tts/stream`, json(synthesis(text, 'pcm', 8000, language)))) });
}

const peers: CallPeer[] = [];
try {
  for (let i = 0; i < CALLS; i++) peers.push(await startCall(i));
  await new Promise((r) => setTimeout(r, 1500));
  await lag(); // resets the server's histogram
  const idle = await (async () => {
    await new Promise((r) => setTimeout(r, 3000));
    return lag();
  })();
  const rows: Record<string, unknown>[] = [];
  for (const kind of kinds) {
    const underrunsBefore = peers.map((peer) => peer.summary().playout.underruns);
    await lag();
    const started = performance.now();
    const outcome = await kind.run().catch((error: unknown) => `failed: ${String(error).slice(0, 200)}`);
    const ms = performance.now() - started;
    const loop = await lag();
    const underruns = peers.reduce((sum, peer, i) => sum + peer.summary().playout.underruns - underrunsBefore[i]!, 0);
    rows.push({ kind: kind.name, outcome, ms: round(ms, 0), longestBlockMs: loop.maxMs, p99Ms: loop.p99Ms, underruns });
    console.error(`${kind.name}: ${outcome}, ${round(ms, 0)} ms, block ${loop.maxMs} ms, p99 ${loop.p99Ms} ms, underruns ${underruns}`);
  }
  const worst = rows.reduce((max, row) => Math.max(max, row.longestBlockMs as number), 0);
  const worstP99 = rows.reduce((max, row) => Math.max(max, row.p99Ms as number), 0);
  const underruns = rows.reduce((sum, row) => sum + (row.underruns as number), 0);
  const result = {
    at: new Date().toISOString(),
    machine: machine(),
    loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? 0, 2) },
    config: { calls: CALLS, usageRecords: USAGE_RECORDS, quick: QUICK, lagResolutionMs: LAG_RESOLUTION_MS, ttsWorkerNice: Number(process.env.TTS_WORKER_NICE ?? 10) },
    idleWithCalls: idle,
    summary: { longestBlockMs: worst, worstP99Ms: worstP99, underruns, ok: worst <= 20 && worstP99 <= 10 && underruns === 0 },
    rows,
  };
  const file = await writeResult('event-loop-guard', result);
  console.log(`event-loop-guard: ${rows.length} request kinds next to ${CALLS} calls: longest block ${worst} ms, worst p99 ${worstP99} ms, ${underruns} underruns → ${file}`);
} finally {
  await Promise.all(peers.map((peer) => peer.drop()));
  await server.stop();
}
