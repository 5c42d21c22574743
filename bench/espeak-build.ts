// The embedded engine's eSpeak NG build (src/engine/espeak/wasm/: 1.52.0 compiled to WebAssembly by
// scripts/build-espeak-ng-wasm.sh) against the npm build it replaced (@echogarden/espeak-ng-emscripten, wasm2js, a dev
// dependency for one release; loaded as it shipped, bench/lib/espeak-wasm2js.ts) in the same process, alternating, and against Debian's native libespeak-ng (the
// espeak-ng package's library, driven with the same calls by bench/lib/espeak-native-timer.c) in a child process
// between them, rounds in A B C / C B A order. Engine time in the calling thread only (no worker hop, no 8 kHz
// shaping: those are the same for every build): CPU ms per second of audio at 22.05 kHz for the Hindi and
// Indian-English IVR texts with priya (breath 1) and imran (breath 6), and the first audio of a six-word clause (the
// synthesis time of the whole clause, the engine's first chunk). Both WebAssembly builds speak the same samples
// (test/integration/engine/espeak-build.test.ts), so this measures cost only.
// Run: npx tsx bench/espeak-build.ts  (BENCH_REPEATS rounds, default 10). JSON: bench/results/espeak-build.json.
// The native reference needs `cc` and `apt-get install espeak-ng libespeak-ng-dev`; without them it is skipped.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ESpeakNGModule, ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import { EspeakInstance } from '../src/engine/espeak/espeak-instance.js';
import { toEspeakInput } from '../src/engine/espeak/espeak-text.js';
import { ESPEAK_VARIANT_DIR, variantFileText } from '../src/engine/espeak/espeak-variant.js';
import type { EmbeddedVoiceParams } from '../src/engine/espeak/espeak-voice-params.js';
import { loadShippedWasm2js } from './lib/espeak-wasm2js.js';
import { round, summary, writeResult } from './lib/stats.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';

const ROUNDS = Number(process.env.BENCH_REPEATS ?? 10);
/** Syntheses per CPU measurement (process.cpuUsage counts microseconds: a batch keeps its rounding small). */
const BATCH = 8;
/** Six-word clauses timed per build and round. */
const FIRST_AUDIO_RUNS = 24;
const SIX_WORDS = 'आपका ऑर्डर कल शाम तक आएगा';
const DEBIAN_DATA = '/usr/lib/x86_64-linux-gnu/espeak-ng-data';
const root = fileURLToPath(new URL('../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'models/raaga-v1/manifest.json'), 'utf8')) as {
  voices: Array<{ voice_name: string; embedded: EmbeddedVoiceParams }>;
};
const params = (name: string) => manifest.voices.find((voice) => voice.voice_name === name)!.embedded;

interface Cell {
  readonly name: string;
  readonly voice: string;
  readonly language: string;
  readonly text: string;
  readonly rate: number;
  readonly range: number;
}

const cell = (voice: string, language: 'hi' | 'en', text: string, name: string): Cell => ({
  name,
  voice,
  language,
  text: toEspeakInput(text).text,
  rate: params(voice).wordsPerMinute,
  range: params(voice).intonationRange,
});
const CELLS: readonly Cell[] = [
  cell('priya', 'hi', SAMPLE_TEXTS['hi-IN'], 'priya hi'),
  cell('priya', 'en', SAMPLE_TEXTS['en-IN'], 'priya en'),
  cell('imran', 'hi', SAMPLE_TEXTS['hi-IN'], 'imran hi'),
  cell('imran', 'en', SAMPLE_TEXTS['en-IN'], 'imran en'),
];
const FIRST = cell('priya', 'hi', SIX_WORDS, 'six-word');

/** One build in this process: speaks a cell, returns its sample count. */
interface Build {
  readonly name: 'wasm' | 'wasm2js';
  speak(cell: Cell): number;
}

async function ownBuild(): Promise<Build> {
  const espeak = await EspeakInstance.create();
  for (const name of ['priya', 'imran']) espeak.fs.writeFile(ESPEAK_VARIANT_DIR + name, variantFileText(name, params(name), 0));
  return {
    name: 'wasm',
    speak(target) {
      espeak.useVoice(`${target.language}+${target.voice}`);
      espeak.setRate(target.rate);
      espeak.setRange(target.range);
      return espeak.synthesize(target.text).samples.length;
    },
  };
}

const shipped = await loadShippedWasm2js();

async function npmBuild(): Promise<Build> {
  const module: ESpeakNGModule = await shipped.init();
  const worker: ESpeakNGWorker = new module.eSpeakNGWorker();
  for (const name of ['priya', 'imran']) module.FS.writeFile(ESPEAK_VARIANT_DIR + name, variantFileText(name, params(name), 0));
  let loaded = '';
  return {
    name: 'wasm2js',
    speak(target) {
      const voice = `${target.language}+${target.voice}`;
      if (voice !== loaded && worker.set_voice(voice) === 0) loaded = voice;
      worker.set_rate(target.rate);
      worker.set_range(target.range);
      let samples = 0;
      worker.synthesize(target.text, (chunk) => {
        samples += chunk.length;
      });
      return samples;
    },
  };
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU ms per audio second of BATCH syntheses of `target`. */
function batchCost(build: Build, target: Cell): number {
  const before = cpuMs();
  let samples = 0;
  for (let i = 0; i < BATCH; i++) samples += build.speak(target);
  return (cpuMs() - before) / (samples / 22050);
}

function firstAudio(build: Build): number[] {
  build.speak(FIRST);
  return Array.from({ length: FIRST_AUDIO_RUNS }, () => {
    const started = performance.now();
    build.speak(FIRST);
    return performance.now() - started;
  });
}

/** The native timer, built for this run, and Debian's data with the two variants; undefined when unavailable. */
function nativeTimer(dir: string): { readonly binary: string; readonly data: string } | { readonly skipped: string } {
  const binary = join(dir, 'espeak-native-timer');
  const compile = spawnSync('cc', ['-O2', '-o', binary, join(root, 'bench/lib/espeak-native-timer.c'), '-lespeak-ng'], { encoding: 'utf8' });
  if (compile.status !== 0) return { skipped: `cc failed (needs libespeak-ng-dev): ${(compile.stderr ?? compile.error?.message ?? '').slice(0, 300)}` };
  const data = join(dir, 'espeak-ng-data');
  try {
    cpSync(DEBIAN_DATA, data, { recursive: true, dereference: true });
  } catch (error) {
    return { skipped: `no Debian eSpeak NG data at ${DEBIAN_DATA} (apt-get install espeak-ng): ${String(error)}` };
  }
  for (const name of ['priya', 'imran']) writeFileSync(join(data, 'voices/!v', name), variantFileText(name, params(name), 0));
  return { binary, data };
}

/** One native process: BATCH runs of each cell and FIRST_AUDIO_RUNS of the six-word clause. */
function runNative(timer: { binary: string; data: string }): { costs: number[]; firstMs: number[] } {
  const cells = [...CELLS, FIRST];
  const input = cells.map((target) => `${target.language}+${target.voice}\t${target.rate}\t${target.range}\t${target.text}`).join('\n');
  const runs = Math.max(BATCH, FIRST_AUDIO_RUNS);
  const run = spawnSync(timer.binary, [timer.data, '3', String(runs)], { input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`native timer failed: ${run.stderr}`);
  const rows = run.stdout.trim().split('\n').map((line) => line.split('\t').map(Number) as [number, number, number, number]);
  const costs = CELLS.map((_, index) => {
    const batch = rows.filter(([i]) => i === index).slice(0, BATCH);
    return batch.reduce((sum, [, cpuNs]) => sum + cpuNs / 1e6, 0) / (batch.reduce((sum, [, , , samples]) => sum + samples, 0) / 22050);
  });
  const firstMs = rows.filter(([i]) => i === CELLS.length).map(([, , wallNs]) => wallNs / 1e6);
  return { costs, firstMs };
}

const scratch = mkdtempSync(join(tmpdir(), 'raaga-bench-espeak-'));
const timer = nativeTimer(scratch);
const builds = [await ownBuild(), await npmBuild()];
const loadBefore = loadavg()[0];

type BuildName = 'wasm' | 'wasm2js' | 'native';
const costs: Record<BuildName, number[][]> = { wasm: CELLS.map(() => []), wasm2js: CELLS.map(() => []), native: CELLS.map(() => []) };
const first: Record<BuildName, number[]> = { wasm: [], wasm2js: [], native: [] };
// Warm-up: every cell's voice and dictionary loaded, and V8 through its tiers, in both builds.
for (let i = 0; i < 3; i++) for (const build of builds) for (const target of [...CELLS, FIRST]) build.speak(target);
for (let r = 0; r < ROUNDS; r++) {
  const order: BuildName[] = r % 2 === 0 ? ['wasm', 'wasm2js', 'native'] : ['native', 'wasm2js', 'wasm'];
  for (const name of order) {
    if (name === 'native') {
      if ('skipped' in timer) continue;
      const native = runNative(timer);
      native.costs.forEach((value, index) => costs.native[index]!.push(value));
      first.native.push(...native.firstMs);
      continue;
    }
    const build = builds.find((candidate) => candidate.name === name)!;
    CELLS.forEach((target, index) => costs[name][index]!.push(batchCost(build, target)));
    first[name].push(...firstAudio(build));
  }
}
rmSync(scratch, { recursive: true, force: true });

/** Per round and cell, a over b: the paired ratio (both measured in the same round). */
const paired = (a: BuildName, b: BuildName) => CELLS.flatMap((_, index) => costs[a][index]!.map((value, r) => value / costs[b][index]![r]!)).filter(Number.isFinite);
const perCell = (name: BuildName) => Object.fromEntries(CELLS.map((target, index) => [target.name, summary(costs[name][index]!)]));
const result = {
  rounds: ROUNDS,
  batch: BATCH,
  loadAverage: { before: loadBefore, after: loadavg()[0] },
  wasm2js: shipped.rewritten ? 'the package file with the remainder helper rewritten, as shipped' : 'the package file unchanged (the rewrite no longer applies)',
  native: 'skipped' in timer ? { skipped: timer.skipped } : { library: 'Debian libespeak-ng1 (espeak-ng package), same calls' },
  cpuMsPerAudioSecond: { wasm: perCell('wasm'), wasm2js: perCell('wasm2js'), native: perCell('native') },
  firstAudioMs: { wasm: summary(first.wasm), wasm2js: summary(first.wasm2js), native: summary(first.native) },
  ratios: {
    wasmOverWasm2js: summary(paired('wasm', 'wasm2js')),
    wasmOverNative: summary(paired('wasm', 'native')),
    firstAudioWasmOverWasm2js: round(summary(first.wasm).p50 / summary(first.wasm2js).p50, 3),
    firstAudioWasmOverNative: round(summary(first.wasm).p50 / summary(first.native).p50, 3),
  },
  targets: { wasmOverWasm2jsAtMost: 0.5, wasmOverNativeAtMost: 1.5 },
};
const file = await writeResult('espeak-build', result);
for (const target of CELLS) {
  const line = (['wasm', 'wasm2js', 'native'] as const).map((name) => `${name} ${result.cpuMsPerAudioSecond[name][target.name]!.p50}`).join('  ');
  console.log(`espeak-build ${target.name.padEnd(8)} CPU ms per audio s, p50: ${line}`);
}
console.log(
  `espeak-build six-word first audio p50/p95 ms: wasm ${result.firstAudioMs.wasm.p50}/${result.firstAudioMs.wasm.p95}  wasm2js ${result.firstAudioMs.wasm2js.p50}/${result.firstAudioMs.wasm2js.p95}  native ${result.firstAudioMs.native.p50}/${result.firstAudioMs.native.p95}`,
);
console.log(
  `espeak-build paired CPU ratio p50 (p95): wasm/wasm2js ${result.ratios.wasmOverWasm2js.p50} (${result.ratios.wasmOverWasm2js.p95}), wasm/native ${result.ratios.wasmOverNative.p50} (${result.ratios.wasmOverNative.p95})`,
);
console.log(`→ ${file}`);
