// Neural voice pack speed and memory on the medium-profile generated voice (Piper "medium" shapes, random weights):
// real-time factor and time to first audio at 8 kHz mu-law, with 1 and with 2 ONNX workers, for one stream and for
// two concurrent streams; and RSS per loaded voice (measured in child processes, one voice count each).
// Run: npx tsx bench/onnx-voice.ts (BENCH_REPEATS=n to change the sample count).

import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureMediumVoice, TONE_ESPEAK } from '../fixtures/voices/lib/fixture-voices.js';
import { Utterance } from '../src/core/synthesis/utterance.js';
import { PiperEngine, type PiperRoute } from '../src/engine/piper/piper-engine.js';
import { loadPiperSidecar } from '../src/engine/piper/piper-sidecar.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { round, summary, writeResult } from './lib/stats.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 8);
const TEXT = SAMPLE_TEXTS['hi-IN'];
const CHUNKING = { firstChunkMaxChars: 100, maxChunkChars: 300 };
const VOICE = { pitchBaseHz: 100, pitchMaxHz: 140, formants: [], breath: 0, roughness: 2, intonationRange: 50, wordsPerMinute: 175 };
const MB = 2 ** 20;

function engineFor(modelPaths: readonly string[], workers: number): PiperEngine {
  const routes: PiperRoute[] = modelPaths.map((modelPath, i) => ({ voiceName: `v${i}`, language: 'hi-IN', path: modelPath, speakerId: 0 }));
  return new PiperEngine({
    models: modelPaths.map((modelPath) => ({ modelPath, sidecar: loadPiperSidecar(`${modelPath}.json`) })),
    routes,
    workers,
    threadsPerWorker: 1,
    maxQueue: 64,
  });
}

/** One utterance as the HTTP stream runs it: wall time, time to its first bytes, seconds of audio. */
async function speak(engine: PiperEngine, voiceName = 'v0'): Promise<{ rtf: number; ttfaMs: number; audioSeconds: number }> {
  const utterance = new Utterance(
    engine,
    { text: TEXT, language: 'hi-IN', voice: { voiceName, pitchShiftSemitones: 0, rateMultiplier: 1 }, format: 'mulaw', sampleRateHz: 8000, speed: 1, mode: 'streaming' },
    CHUNKING,
  );
  const started = performance.now();
  let ttfaMs = NaN;
  for await (const bytes of utterance.audio(new AbortController().signal)) {
    if (Number.isNaN(ttfaMs) && bytes.length > 0) ttfaMs = performance.now() - started;
  }
  const seconds = (performance.now() - started) / 1000;
  return { rtf: seconds / (utterance.durationMs / 1000), ttfaMs, audioSeconds: utterance.durationMs / 1000 };
}

async function scenario(engine: PiperEngine, streams: number): Promise<{ rtf: ReturnType<typeof summary>; ttfaMs: ReturnType<typeof summary>; audioSeconds: number }> {
  const rtf: number[] = [];
  const ttfa: number[] = [];
  let audioSeconds = 0;
  for (let i = 0; i < REPEATS; i++) {
    const runs = await Promise.all(Array.from({ length: streams }, () => speak(engine)));
    for (const run of runs) {
      rtf.push(run.rtf);
      ttfa.push(run.ttfaMs);
      audioSeconds = run.audioSeconds;
    }
  }
  return { rtf: summary(rtf), ttfaMs: summary(ttfa), audioSeconds: round(audioSeconds, 2) };
}

/** Child mode: load the tone voice plus `count` medium voices in one worker, use each, print RSS. */
async function rssChild(count: number, mediumModel: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'raaga-rss-'));
  try {
    const paths = [fileURLToPath(new URL(`../fixtures/voices/${TONE_ESPEAK.name}/model.onnx`, import.meta.url))];
    // Distinct paths to the same file: each is a separate session, as distinct voices would be.
    for (let i = 0; i < count; i++) {
      const path = join(dir, `medium-${i}.onnx`);
      await symlink(mediumModel, path);
      await symlink(`${mediumModel}.json`, `${path}.json`);
      paths.push(path);
    }
    const engine = engineFor(paths, 1);
    await engine.start();
    const atReady = engine.workerReports()[0]?.rssBytes ?? NaN;
    for (let i = 1; i < paths.length; i++) await speak(engine, `v${i}`);
    const afterUse = process.memoryUsage.rss();
    await engine.close();
    process.stdout.write(`${JSON.stringify({ count, atReadyMB: atReady / MB, afterUseMB: afterUse / MB })}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * How much of a second core this run really had: wall time of one CPU-bound process vs two at once (1.0 = two
 * free cores, 2.0 = the two shared one core). On a shared machine this is what the 1 vs 2 worker figures rest on.
 */
async function cpuContention(): Promise<number> {
  const burn = (): Promise<void> =>
    new Promise((resolve) => spawn(process.execPath, ['-e', 'let x = 0; for (let i = 0; i < 2e8; i++) x = (x + i * 7) % 1000003;']).on('exit', () => resolve()));
  let started = performance.now();
  await burn();
  const one = performance.now() - started;
  started = performance.now();
  await Promise.all([burn(), burn()]);
  return round((performance.now() - started) / one, 2);
}

function slope(points: { count: number; value: number }[]): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.count, 0) / n;
  const my = points.reduce((s, p) => s + p.value, 0) / n;
  const num = points.reduce((s, p) => s + (p.count - mx) * (p.value - my), 0);
  const den = points.reduce((s, p) => s + (p.count - mx) ** 2, 0);
  return num / den;
}

const mediumModel = await ensureMediumVoice();
const rssArg = process.argv.indexOf('--rss-child');
if (rssArg >= 0) {
  await rssChild(Number(process.argv[rssArg + 1]), mediumModel);
  process.exit(0);
}

const sizeBytes = (await stat(mediumModel)).size;
// The CPU is shared with whatever else runs; the load average says how much these figures are worth.
const loadBefore = loadavg();
const contentionBefore = await cpuContention();
const results: Record<string, { single: Awaited<ReturnType<typeof scenario>>; twoStreams: Awaited<ReturnType<typeof scenario>>; startMs: number }> = {};
for (const workers of [1, 2]) {
  const engine = engineFor([mediumModel], workers);
  const startedAt = performance.now();
  await engine.start();
  const startMs = round(performance.now() - startedAt, 0);
  try {
    await speak(engine); // first utterance per worker count is not measured
    results[`${workers}-worker${workers === 1 ? '' : 's'}`] = { startMs, single: await scenario(engine, 1), twoStreams: await scenario(engine, 2) };
  } finally {
    await engine.close();
  }
}

const rss = [0, 1, 2, 3].map((count) => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--rss-child', String(count)], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`rss child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop() as string) as { count: number; atReadyMB: number; afterUseMB: number };
});
const perVoiceAtReadyMB = round(slope(rss.map((r) => ({ count: r.count, value: r.atReadyMB }))), 1);
const perVoiceAfterUseMB = round(slope(rss.map((r) => ({ count: r.count, value: r.afterUseMB }))), 1);

const one = results['1-worker']!;
const two = results['2-workers']!;
const ratio = (a: number, b: number) => round(a / b, 2);
const file = await writeResult('onnx-voice', {
  voice: { profile: 'piper-medium (random weights)', sizeMB: round(sizeBytes / MB, 1), sampleRateHz: 22050 },
  format: 'mulaw',
  sampleRateHz: 8000,
  text: { language: 'hi-IN', codePoints: [...TEXT].length },
  repeats: REPEATS,
  threads: { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' },
  workers: results,
  ratios1to2Workers: {
    singleStream: { rtfP50: ratio(one.single.rtf.p50, two.single.rtf.p50), ttfaP50: ratio(one.single.ttfaMs.p50, two.single.ttfaMs.p50) },
    twoStreams: {
      rtfP50: ratio(one.twoStreams.rtf.p50, two.twoStreams.rtf.p50),
      rtfP95: ratio(one.twoStreams.rtf.p95, two.twoStreams.rtf.p95),
      ttfaP50: ratio(one.twoStreams.ttfaMs.p50, two.twoStreams.ttfaMs.p50),
      ttfaP95: ratio(one.twoStreams.ttfaMs.p95, two.twoStreams.ttfaMs.p95),
    },
  },
  loadAverage1m: { before: round(loadBefore[0] ?? NaN, 2), after: round(loadavg()[0] ?? NaN, 2) },
  twoProcessSlowdown: { before: contentionBefore, after: await cpuContention() },
  rss: { perVoicePerWorkerAtReadyMB: perVoiceAtReadyMB, perVoicePerWorkerAfterUseMB: perVoiceAfterUseMB, oneWorkerNoMediumVoiceMB: round(rss[0]!.afterUseMB, 1), samples: rss },
});
console.log(
  `onnx medium voice, 8 kHz mulaw, ${one.single.audioSeconds} s of audio: RTF p50 ${one.single.rtf.p50} (1 worker) / ${two.single.rtf.p50} (2); ` +
    `2 streams RTF p50 ${one.twoStreams.rtf.p50} / ${two.twoStreams.rtf.p50}, TTFA p50 ${one.twoStreams.ttfaMs.p50} / ${two.twoStreams.ttfaMs.p50} ms ` +
    `(p95 ${one.twoStreams.ttfaMs.p95} / ${two.twoStreams.ttfaMs.p95}); RSS +${perVoiceAtReadyMB} MB per voice per worker at ready, ` +
    `+${perVoiceAfterUseMB} MB after use; load ${round(loadBefore[0] ?? NaN, 1)} → ${file}`,
);
