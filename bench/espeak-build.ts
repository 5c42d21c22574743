// The embedded engine's eSpeak NG build as it loads now (src/engine/espeak/espeak-build.ts: the random-number remainder
// without the emulated 64-bit division; no `breath` line for a voice without breath) against the package's own file
// with the variant files as written before, in the same process, alternating, on the same texts: CPU milliseconds per
// second of audio at 22.05 kHz, per language, for a voice with a little breath (priya, 1), a breathy one (imran, 6)
// and one without (sanjay). Both builds give the same samples (test/integration/engine/espeak-build.test.ts), so this
// measures cost only. BENCH_REPEATS (default 7) rounds. JSON: bench/results/espeak-build.json.

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ESpeakNGModule, ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import { createEspeakModule } from '../src/engine/espeak/espeak-build.js';
import { DEFAULT_ESPEAK_LANGUAGE_IDS } from '../src/engine/espeak/espeak-languages.js';
import { ESPEAK_VARIANT_DIR, variantFileText } from '../src/engine/espeak/espeak-variant.js';
import type { EmbeddedVoiceParams } from '../src/engine/espeak/espeak-voice-params.js';
import { LANGUAGE_CODES } from '../src/languages.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { round, summary, writeResult } from './lib/stats.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 7);
const VOICES = ['priya', 'imran', 'sanjay'];
const root = fileURLToPath(new URL('../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'models/raaga-v1/manifest.json'), 'utf8')) as {
  voices: Array<{ voice_name: string; embedded: EmbeddedVoiceParams }>;
};

/** The variant file as written before this change: a breath line even when its amounts are 0. */
function variantBefore(name: string, params: EmbeddedVoiceParams): string {
  const now = variantFileText(name, params, 0);
  return now.includes('\nbreath ') ? now : now.replace('\nroughness', '\nbreath 0 0 0 0 0 0 0 0\nroughness');
}

interface Build {
  readonly module: ESpeakNGModule;
  readonly worker: ESpeakNGWorker;
}

async function build(module: ESpeakNGModule, variant: (name: string, params: EmbeddedVoiceParams) => string): Promise<Build> {
  for (const voice of manifest.voices.filter((v) => VOICES.includes(v.voice_name))) {
    module.FS.writeFile(ESPEAK_VARIANT_DIR + voice.voice_name, variant(voice.voice_name, voice.embedded));
  }
  return { module, worker: new module.eSpeakNGWorker() };
}

/** CPU ms per second of audio for one text (this thread's user + system time). */
function cost(target: Build, language: string, voice: string, text: string): number {
  const { worker } = target;
  if (worker.set_voice(`${language}+${voice}`) !== 0) throw new Error(`no voice ${language}+${voice}`);
  worker.set_rate(170);
  let samples = 0;
  const before = process.cpuUsage();
  worker.synthesize(text, (chunk) => {
    samples += chunk.length;
  });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / (samples / worker.samplerate);
}

const packageOwn = ((await import('@echogarden/espeak-ng-emscripten')) as { default: () => Promise<ESpeakNGModule> }).default;
const before = await build(await packageOwn(), variantBefore);
const after = await build(await createEspeakModule(), (name, params) => variantFileText(name, params, 0));
const loadBefore = loadavg()[0];

const samples: Record<string, { before: number[]; after: number[] }> = {};
const texts = LANGUAGE_CODES.map((code) => ({ code, language: DEFAULT_ESPEAK_LANGUAGE_IDS[code], text: SAMPLE_TEXTS[code] }));
// One warm-up round loads every language's data into both instances and lets V8 optimise both builds.
for (const { language, text } of texts) for (const voice of VOICES) for (const target of [before, after]) cost(target, language, voice, text);
for (let round_ = 0; round_ < REPEATS; round_++) {
  for (const { code, language, text } of texts) {
    for (const voice of VOICES) {
      const cell = (samples[`${voice} ${code}`] ??= { before: [], after: [] });
      // Alternate which build goes first, so neither always runs on a warmer cache.
      if (round_ % 2 === 0) {
        cell.before.push(cost(before, language, voice, text));
        cell.after.push(cost(after, language, voice, text));
      } else {
        cell.after.push(cost(after, language, voice, text));
        cell.before.push(cost(before, language, voice, text));
      }
    }
  }
}

const perVoice: Record<string, unknown> = {};
for (const voice of VOICES) {
  const cells = Object.entries(samples).filter(([key]) => key.startsWith(`${voice} `));
  const beforeAll = cells.flatMap(([, cell]) => cell.before);
  const afterAll = cells.flatMap(([, cell]) => cell.after);
  const ratios = cells.flatMap(([, cell]) => cell.after.map((value, i) => value / cell.before[i]!));
  perVoice[voice] = {
    cpuMsPerAudioSecondBefore: summary(beforeAll),
    cpuMsPerAudioSecondAfter: summary(afterAll),
    afterOverBefore: summary(ratios),
    perLanguage: Object.fromEntries(cells.map(([key, cell]) => [key.slice(voice.length + 1), { before: summary(cell.before).p50, after: summary(cell.after).p50 }])),
  };
}
const file = await writeResult('espeak-build', { repeats: REPEATS, loadBefore, loadAfter: loadavg()[0], perVoice });
for (const voice of VOICES) {
  const v = perVoice[voice] as { cpuMsPerAudioSecondBefore: { p50: number }; cpuMsPerAudioSecondAfter: { p50: number }; afterOverBefore: { p50: number; p95: number } };
  console.log(
    `espeak-build ${voice}: ${round(v.cpuMsPerAudioSecondBefore.p50, 2)} → ${round(v.cpuMsPerAudioSecondAfter.p50, 2)} ms CPU per audio second (after/before p50 ${round(v.afterOverBefore.p50, 2)}, p95 ${round(v.afterOverBefore.p95, 2)})`,
  );
}
console.log(`→ ${file}`);
