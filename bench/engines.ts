// Every engine kind on one machine in one run: CPU seconds per second of audio, first audio of a six-word clause
// (p50/p95, as a phone call asks for it: 8 kHz, shaped in the worker), memory one worker adds, and what that means in
// simultaneously speaking calls per core; ratios to eSpeak measured in the same run. Flite speaks a voice dumped from
// its own built-ins (the same clustergen cost class as the CMU Indic voices), Piper the generated medium-profile
// graph (62 MB), Kokoro the generated graph with Kokoro-82M's layer sizes (random weights cost what trained ones do).
// Each engine runs in a child process of its own so memory and CPU are its alone.
// Run: npx tsx bench/engines.ts  (BENCH_REPEATS=n first-audio samples per engine, default 30; BENCH_ENGINES=espeak,flite)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpFliteVoice } from '../fixtures/voices/lib/flite-voices.js';
import { ensureKokoroProfileVoice, ensureMediumVoice } from '../fixtures/voices/lib/fixture-voices.js';
import { loadVoiceCatalog } from '../src/core/voice-catalog.js';
import { buildEngineRegistry, type PackRequest } from '../src/engine/build-engine-registry.js';
import { EspeakEngine } from '../src/engine/espeak-engine.js';
import type { LanguageCode } from '../src/languages.js';
import { inflateFlitevox } from './lib/flitevox-inflate.js';
import { round, summary, writeResult } from './lib/stats.js';

/** `flite-large`: the same voice with its parameter model repeated to 28.6 MB, the size class of the largest CMU Indic voices. */
const ENGINES = ['espeak', 'flite', 'flite-large', 'piper', 'kokoro'] as const;
type EngineName = (typeof ENGINES)[number];
const REPEATS = Number(process.env.BENCH_REPEATS ?? 30);
/** Six words each; the language each engine's bench voice speaks. */
const CLAUSES: Readonly<Record<EngineName, { language: LanguageCode; text: string }>> = {
  espeak: { language: 'hi-IN', text: 'आपका ऑर्डर कल शाम तक आएगा' },
  flite: { language: 'en-IN', text: 'Your order will arrive by six' },
  'flite-large': { language: 'en-IN', text: 'Your order will arrive by six' },
  piper: { language: 'hi-IN', text: 'आपका ऑर्डर कल शाम तक आएगा' },
  kokoro: { language: 'hi-IN', text: 'आपका ऑर्डर कल शाम तक आएगा' },
};
const VOICE = 'priya';
const MB = 2 ** 20;

async function packFor(engine: EngineName, dir: string): Promise<PackRequest | undefined> {
  const { language } = CLAUSES[engine];
  switch (engine) {
    case 'espeak':
      return undefined;
    case 'flite':
      return { voiceName: VOICE, language, engine: 'flite', path: dumpFliteVoice('slt', dir), sha256: undefined, options: {} };
    case 'flite-large': {
      const path = join(dir, 'slt-x12.flitevox');
      writeFileSync(path, inflateFlitevox(readFileSync(dumpFliteVoice('slt', dir)), 12));
      return { voiceName: VOICE, language, engine: 'flite', path, sha256: undefined, options: {} };
    }
    case 'piper':
      return { voiceName: VOICE, language, engine: 'piper', path: await ensureMediumVoice(), sha256: undefined, options: { speaker: 0 } };
    case 'kokoro': {
      const { modelPath, stylePath } = await ensureKokoroProfileVoice();
      return { voiceName: VOICE, language, engine: 'kokoro', path: modelPath, sha256: undefined, options: { style: stylePath } };
    }
  }
}

/** In the child: one engine, one worker, measured. */
async function measure(engine: EngineName): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'raaga-bench-engines-'));
  const pack = await packFor(engine, dir);
  const catalog = loadVoiceCatalog(fileURLToPath(new URL('../models/raaga-v1/manifest.json', import.meta.url)));
  const { language, text } = CLAUSES[engine];
  const rssBefore = process.memoryUsage.rss();
  const embedded = new EspeakEngine({ workers: 1, maxQueue: 64, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
  const failures: string[] = [];
  const registry = buildEngineRegistry(embedded, pack ? [pack] : [], {
    workers: 1,
    threadsPerWorker: 1,
    maxQueue: 64,
    modelsDir: dir,
    onEvent: (event) => void (event.type === 'pack-failed' && failures.push(event.reason)),
  });
  await registry.start();
  if (registry.kindFor(VOICE, language) !== (pack?.engine ?? 'espeak')) throw new Error(`${engine} does not serve the bench voice: ${failures.join('; ')}`);
  // With a pack installed, eSpeak's worker is in the process too: its share is the eSpeak run's own figure.
  const rssReady = process.memoryUsage.rss();
  const job = { text, language, voiceName: VOICE, speed: 1, pitchShiftSemitones: 0, deliverAtRateHz: 8000 };
  const never = new AbortController().signal;
  for (let i = 0; i < 3; i++) await registry.synthesize(job, never);
  const firstAudioMs: number[] = [];
  let audioSeconds = 0;
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    const clip = await registry.synthesize(job, never);
    firstAudioMs.push(performance.now() - started);
    audioSeconds += clip.samples.length / clip.sampleRateHz;
  }
  const cpu = process.cpuUsage(cpuBefore);
  const wallSeconds = (performance.now() - wallBefore) / 1000;
  const rssAfter = process.memoryUsage.rss();
  await registry.close();
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    engine,
    language,
    clause: text,
    clauseAudioSeconds: round(audioSeconds / REPEATS),
    firstAudioMs: summary(firstAudioMs),
    cpuSecondsPerAudioSecond: round(cpuSeconds / audioSeconds, 4),
    wallSecondsPerAudioSecond: round(wallSeconds / audioSeconds, 4),
    rssAddedAtReadyMiB: round((rssReady - rssBefore) / MB, 1),
    rssAddedAfterRunMiB: round((rssAfter - rssBefore) / MB, 1),
    speakingCallsPerCore: round(audioSeconds / cpuSeconds, 1),
  };
}

if (process.argv[2] === '--child') {
  const engine = process.argv[3] as EngineName;
  const result = await measure(engine);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

const selected = (process.env.BENCH_ENGINES?.split(',') ?? [...ENGINES]).filter((name): name is EngineName => (ENGINES as readonly string[]).includes(name));
const loadBefore = loadavg()[0];
const results: Record<string, unknown>[] = [];
for (const engine of selected) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', engine], { encoding: 'utf8', maxBuffer: 16 * MB });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) {
    console.error(`engine ${engine} failed (exit ${run.status}):\n${run.stderr.slice(-2000)}`);
    process.exitCode = 1;
    continue;
  }
  results.push(JSON.parse(line) as Record<string, unknown>);
}
const espeak = results.find((result) => result.engine === 'espeak');
const cost = (result: Record<string, unknown>) => result.cpuSecondsPerAudioSecond as number;
// A pack engine's process also holds the eSpeak worker (the registry's last engine): its own worker is the difference.
const rss = (result: Record<string, unknown> | undefined) => (result?.rssAddedAtReadyMiB as number | undefined) ?? NaN;
const withRatios: Record<string, unknown>[] = results.map((result) => ({
  ...result,
  cpuRatioToEspeak: espeak ? round(cost(result) / cost(espeak), 2) : null,
  workerMiB: result === espeak ? rss(result) : round(rss(result) - rss(espeak), 1),
}));
const file = await writeResult('engines', { repeats: REPEATS, loadAverage: { before: loadBefore, after: loadavg()[0] }, engines: withRatios });
for (const result of withRatios) {
  const first = result.firstAudioMs as { p50: number; p95: number };
  console.log(
    `${String(result.engine).padEnd(7)} cpu/audio ${String(result.cpuSecondsPerAudioSecond).padEnd(7)} (x${result.cpuRatioToEspeak} eSpeak)  first audio p50 ${first.p50} ms p95 ${first.p95} ms  +${result.workerMiB} MiB/worker  ${result.speakingCallsPerCore} speaking calls/core`,
  );
}
console.log(`bench engines: ${file}`);
