// Time to first audio byte and total time, over real sockets against the real server (in-process, port 0): POST
// /v1/tts/stream and the WebSocket (`text` → first binary frame → end_of_utterance), 8 kHz mulaw and 24 kHz pcm,
// a 60- and a 1000-character Hindi text, the embedded eSpeak engine ('priya') and the medium-profile ONNX voice
// ('aarav', routed to the pack by the models dir), at 1, 4 and 16 concurrent clients (each its own account, so plan
// limits never refuse). Each client sends its requests back to back; embedded and ONNX cells run in turn, so each
// ratio compares figures of the same minutes. The ONNX 1000-character cells cost ~10 s of a core per request: by
// default only http+mulaw and ws+pcm at 1 client run; BENCH_FULL=1 runs them all (10 more cells, about 8 more minutes on 2 cores).
// BENCH_QUICK=1 cuts every sample count by four (development).

import { availableParallelism, loadavg } from 'node:os';
import { startTestServer, type TestServer } from '../test/helpers/test-server.js';
import { mediumVoiceModels } from './lib/medium-voice-models.js';
import { LONG_HINDI, SHORT_HINDI } from './lib/sample-texts.js';
import { round, summary, writeResult } from './lib/stats.js';
import { TimedWebSocketSession, timedHttpStream, type AudioRequest, type TimedUtterance } from './lib/tts-clients.js';

const FULL = process.env.BENCH_FULL === '1';
const QUICK = process.env.BENCH_QUICK === '1';
const CONCURRENCY = [1, 4, 16] as const;
const ENGINES = { embedded: 'priya', onnx: 'aarav' } as const;
const TEXTS = { short: SHORT_HINDI, long: LONG_HINDI } as const;
const FORMATS = { 'mulaw-8k': { format: 'mulaw', sampleRateHz: 8000 }, 'pcm-24k': { format: 'pcm', sampleRateHz: 24000 } } as const;
/** Samples wanted per cell (at least one request per client). */
const TARGET: Record<keyof typeof ENGINES, Record<keyof typeof TEXTS, number>> = { embedded: { short: 24, long: 8 }, onnx: { short: 8, long: 1 } };

type Engine = keyof typeof ENGINES;
type Length = keyof typeof TEXTS;
type Transport = 'http' | 'ws';
type FormatName = keyof typeof FORMATS;

interface Cell {
  readonly engine: Engine;
  readonly transport: Transport;
  readonly format: FormatName;
  readonly text: Length;
  readonly concurrency: number;
  readonly n: number;
  readonly audioSeconds: number;
  readonly ttfbMs: ReturnType<typeof summary>;
  readonly totalMs: ReturnType<typeof summary>;
  /** Seconds of audio delivered per second of wall time, all clients together. */
  readonly audioSecondsPerSecond: number;
}

function onnxLongRuns(transport: Transport, format: FormatName, concurrency: number): boolean {
  if (FULL) return true;
  return concurrency === 1 && ((transport === 'http' && format === 'mulaw-8k') || (transport === 'ws' && format === 'pcm-24k'));
}

function bytesPerSecond(format: FormatName): number {
  const { format: kind, sampleRateHz } = FORMATS[format];
  return kind === 'pcm' ? sampleRateHz * 2 : sampleRateHz;
}

async function runCell(server: TestServer, engine: Engine, transport: Transport, format: FormatName, text: Length, concurrency: number): Promise<Cell> {
  const target = Math.max(1, Math.round(TARGET[engine][text] / (QUICK ? 4 : 1)));
  const perClient = Math.max(1, Math.ceil(target / concurrency));
  const audio: AudioRequest = { voice: ENGINES[engine], language: 'hi-IN', ...FORMATS[format] };
  const keys = await Promise.all(Array.from({ length: concurrency }, async () => (await server.account('growth', 100_000_000)).keys[0] as string));
  const sessions = transport === 'ws' ? await Promise.all(keys.map((key) => TimedWebSocketSession.open(server.url, key, audio))) : [];
  const runs: TimedUtterance[] = [];
  const started = performance.now();
  try {
    await Promise.all(
      keys.map(async (key, client) => {
        for (let i = 0; i < perClient; i++) {
          runs.push(transport === 'ws' ? await sessions[client]!.speak(TEXTS[text]) : await timedHttpStream(server.url, key, audio, TEXTS[text]));
        }
      }),
    );
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const audioBytes = runs.reduce((sum, run) => sum + run.bytes, 0);
  return {
    engine,
    transport,
    format,
    text,
    concurrency,
    n: runs.length,
    audioSeconds: round(runs[0]!.bytes / bytesPerSecond(format), 2),
    ttfbMs: summary(runs.map((run) => run.ttfbMs)),
    totalMs: summary(runs.map((run) => run.totalMs)),
    audioSecondsPerSecond: round(audioBytes / bytesPerSecond(format) / wallSeconds, 1),
  };
}

const models = await mediumVoiceModels([{ voice: ENGINES.onnx, language: 'hi-IN' }]);
const loadBefore = loadavg()[0] ?? NaN;
const server = await startTestServer({ RAAGA_MODELS_DIR: models.dir, TTS_WORKERS: '2', ONNX_WORKERS: '2' });
const cells: Cell[] = [];
const startedAt = performance.now();
try {
  // Warm both engines, both formats and both transports once; not measured.
  const warmKey = (await server.account('growth', 100_000_000)).keys[0] as string;
  for (const engine of Object.keys(ENGINES) as Engine[]) {
    for (const format of Object.keys(FORMATS) as FormatName[]) {
      await timedHttpStream(server.url, warmKey, { voice: ENGINES[engine], language: 'hi-IN', ...FORMATS[format] }, SHORT_HINDI);
    }
  }
  for (const text of Object.keys(TEXTS) as Length[]) {
    for (const transport of ['http', 'ws'] as const) {
      for (const format of Object.keys(FORMATS) as FormatName[]) {
        for (const concurrency of CONCURRENCY) {
          for (const engine of Object.keys(ENGINES) as Engine[]) {
            if (engine === 'onnx' && text === 'long' && !onnxLongRuns(transport, format, concurrency)) continue;
            const cell = await runCell(server, engine, transport, format, text, concurrency);
            cells.push(cell);
            console.error(
              `  ${engine} ${transport} ${format} ${text} c=${concurrency}: ttfb p50 ${cell.ttfbMs.p50.toFixed(0)} p95 ${cell.ttfbMs.p95.toFixed(0)} ms, ` +
                `total p50 ${cell.totalMs.p50.toFixed(0)} p95 ${cell.totalMs.p95.toFixed(0)} ms (n=${cell.n})`,
            );
          }
        }
      }
    }
  }
} finally {
  await server.close();
  await models.remove();
}

const find = (engine: Engine, transport: Transport, format: FormatName, text: Length, concurrency: number) =>
  cells.find((c) => c.engine === engine && c.transport === transport && c.format === format && c.text === text && c.concurrency === concurrency);
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : round(a / b, 2));
const onnxOverEmbedded = cells
  .filter((c) => c.engine === 'onnx')
  .map((c) => {
    const base = find('embedded', c.transport, c.format, c.text, c.concurrency);
    return { transport: c.transport, format: c.format, text: c.text, concurrency: c.concurrency, ttfbP50: ratio(c.ttfbMs.p50, base?.ttfbMs.p50), totalP50: ratio(c.totalMs.p50, base?.totalMs.p50) };
  });
const longOverShort = cells
  .filter((c) => c.text === 'long')
  .map((c) => {
    const base = find(c.engine, c.transport, c.format, 'short', c.concurrency);
    return { engine: c.engine, transport: c.transport, format: c.format, concurrency: c.concurrency, ttfbP50: ratio(c.ttfbMs.p50, base?.ttfbMs.p50), totalP50: ratio(c.totalMs.p50, base?.totalMs.p50) };
  });
const overOneClient = cells
  .filter((c) => c.concurrency > 1)
  .map((c) => {
    const base = find(c.engine, c.transport, c.format, c.text, 1);
    return { engine: c.engine, transport: c.transport, format: c.format, text: c.text, concurrency: c.concurrency, ttfbP50: ratio(c.ttfbMs.p50, base?.ttfbMs.p50), totalP50: ratio(c.totalMs.p50, base?.totalMs.p50) };
  });
const file = await writeResult('latency', {
  what: 'TTFB and total time, POST /v1/tts/stream and WebSocket text→first binary frame→end_of_utterance, per engine, format, text length and concurrency',
  language: 'hi-IN',
  texts: { short: [...SHORT_HINDI].length, long: [...LONG_HINDI].length },
  engines: { embedded: `eSpeak NG (voice ${ENGINES.embedded})`, onnx: `medium-profile ONNX voice, 22.05 kHz (voice ${ENGINES.onnx})` },
  workers: { tts: 2, onnx: 2, cores: availableParallelism() },
  full: FULL,
  quick: QUICK,
  wallSeconds: round((performance.now() - startedAt) / 1000, 1),
  loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? NaN, 2) },
  cells,
  ratios: { onnxOverEmbedded, longOverShort, overOneClient },
});
const pick = (engine: Engine, text: Length, c: number) => find(engine, 'http', 'mulaw-8k', text, c);
const fmt = (cell: Cell | undefined) => (cell ? `${cell.ttfbMs.p50.toFixed(0)}/${cell.totalMs.p50.toFixed(0)}` : 'n/a');
console.log(
  `latency (http mulaw 8k, ttfb/total p50 ms): embedded short c1 ${fmt(pick('embedded', 'short', 1))} c16 ${fmt(pick('embedded', 'short', 16))}, ` +
    `long c1 ${fmt(pick('embedded', 'long', 1))}; onnx short c1 ${fmt(pick('onnx', 'short', 1))} c16 ${fmt(pick('onnx', 'short', 16))}, ` +
    `long c1 ${fmt(pick('onnx', 'long', 1))} → ${file}`,
);
