// What Raaga adds on top of the engine, measured against the engine itself in the same run (issue "Speed and
// capacity", "ratios, not absolutes"):
//  1. first byte: POST /v1/tts/stream's time to first audio byte (prompt cache bypassed) over the engine's own time
//     for the same utterance's first chunk (EspeakEngine.synthesize, warm, in the same process), per language;
//  2. synthesis CPU per second of audio: the embedded engine (eSpeak NG compiled to JavaScript, in workers) against
//     Debian's native `espeak-ng` on the same chunk texts and language voices (child CPU from /proc/self/stat).
// Goal: Raaga's first byte under 2x the engine's first chunk at p50. BENCH_REPEATS (default 10) per language.
// JSON: bench/results/engine-overhead.json.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { splitUtterance } from '../src/core/text/split-utterance.js';
import { DEFAULT_ESPEAK_LANGUAGE_IDS } from '../src/engine/espeak/espeak-languages.js';
import { LANGUAGE_CODES } from '../src/languages.js';
import { startTestServer } from '../test/helpers/test-server.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { round, summary, writeResult } from './lib/stats.js';
import { timedHttpStream } from './lib/tts-clients.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 10);
const FIRST_CHUNK_MAX_CHARS = 100;
const NATIVE_RATE_HZ = 22050;
const WAV_HEADER_BYTES = 44;

/** User + system CPU seconds of this process's waited-for children (Linux /proc: cutime + cstime, 100 Hz ticks). */
function childCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const native = spawnSync('espeak-ng', ['--version'], { encoding: 'utf8' });
if (native.status !== 0) throw new Error('espeak-ng (Debian) is not installed: apt-get install espeak-ng');

const server = await startTestServer({ TTS_WORKERS: '2' });
const engine = server.deps.engine;
const loadBefore = loadavg()[0] ?? NaN;
const perLanguage: Record<string, unknown> = {};
const ratios: number[] = [];
let wasmCpuSeconds = 0;
let wasmAudioSeconds = 0;
let nativeCpuSeconds = 0;
let nativeAudioSeconds = 0;
try {
  const key = (await server.account('growth', 100_000_000)).keys[0]!;
  for (const language of LANGUAGE_CODES) {
    const text = SAMPLE_TEXTS[language];
    const chunks = splitUtterance(text, { firstChunkMaxChars: FIRST_CHUNK_MAX_CHARS, maxChunkChars: 300, language }).filter((chunk) => chunk.text.length > 0);
    const job = (chunkText: string) => ({ text: chunkText, language, voiceName: 'priya', speed: 1, pitchShiftSemitones: 0 });
    const never = new AbortController().signal;
    await engine.synthesize(job(chunks[0]!.text), never); // warm this language in the workers
    await timedHttpStream(server.url, key, { voice: 'priya', language, format: 'mulaw', sampleRateHz: 8000 }, text, { 'cache-control': 'no-store' });
    const engineFirstMs: number[] = [];
    const streamFirstMs: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const started = performance.now();
      await engine.synthesize(job(chunks[0]!.text), never);
      engineFirstMs.push(performance.now() - started);
      streamFirstMs.push((await timedHttpStream(server.url, key, { voice: 'priya', language, format: 'mulaw', sampleRateHz: 8000 }, text, { 'cache-control': 'no-store' })).ttfbMs);
    }
    // CPU per second of audio, every chunk of the text, REPEATS times: the engine in this process (its workers'
    // CPU is this process's), then native espeak-ng as a child.
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < REPEATS; i++) {
      for (const chunk of chunks) {
        const clip = await engine.synthesize(job(chunk.text), never);
        wasmAudioSeconds += clip.samples.length / clip.sampleRateHz;
      }
    }
    const used = process.cpuUsage(cpuBefore);
    wasmCpuSeconds += (used.user + used.system) / 1e6;
    const childBefore = childCpuSeconds();
    for (let i = 0; i < REPEATS; i++) {
      for (const chunk of chunks) {
        const run = spawnSync('espeak-ng', ['-v', DEFAULT_ESPEAK_LANGUAGE_IDS[language], '--stdout', chunk.text], { maxBuffer: 64 * 2 ** 20 });
        if (run.status !== 0) throw new Error(`espeak-ng failed for ${language}: ${run.stderr.toString()}`);
        nativeAudioSeconds += (run.stdout.length - WAV_HEADER_BYTES) / 2 / NATIVE_RATE_HZ;
      }
    }
    nativeCpuSeconds += childCpuSeconds() - childBefore;
    const engineSummary = summary(engineFirstMs);
    const streamSummary = summary(streamFirstMs);
    const ratio = streamSummary.p50 / engineSummary.p50;
    ratios.push(ratio);
    perLanguage[language] = { firstChunkChars: [...chunks[0]!.text].length, engineFirstChunkMs: engineSummary, streamFirstByteMs: streamSummary, streamOverEngineP50: round(ratio, 2) };
  }
} finally {
  await server.close();
}

const wasmCpuPerAudioSecond = wasmCpuSeconds / wasmAudioSeconds;
const nativeCpuPerAudioSecond = nativeCpuSeconds / nativeAudioSeconds;
const file = await writeResult('engine-overhead', {
  what: 'stream first byte (prompt cache bypassed) over the engine\'s own first-chunk time, per language; synthesis CPU per audio second, embedded (WASM) vs native espeak-ng',
  repeatsPerLanguage: REPEATS,
  firstByte: { perLanguage, streamOverEngineP50: summary(ratios) },
  cpuPerAudioSecond: {
    embeddedWasm: round(wasmCpuPerAudioSecond, 4),
    nativeEspeakNg: round(nativeCpuPerAudioSecond, 4),
    wasmOverNative: round(wasmCpuPerAudioSecond / nativeCpuPerAudioSecond, 2),
    note: 'native includes process start per chunk (one espeak-ng run per chunk), so it is an upper bound for native',
  },
  loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? NaN, 2) },
});
console.log(
  `engine overhead: stream first byte / engine first chunk p50 ${summary(ratios).p50.toFixed(2)}x (per-language medians); ` +
    `CPU per audio second wasm ${wasmCpuPerAudioSecond.toFixed(4)} vs native ${nativeCpuPerAudioSecond.toFixed(4)} → ${file}`,
);
