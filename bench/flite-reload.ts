// Pitfall 3 (docs/flite-notes.md): what each utterance pays for flite's one-instance-per-run design (instantiating
// flite.wasm, reloading the voice file) for the dumped slt (2.5 MB) and rms (3.0 MB) and larger stand-ins (slt's
// parameter model repeated: 9.7 and 28.6 MB), and the real-time factor of whole utterances with and without word
// timings. One thread, as a worker runs it. BENCH_REPEATS (default 30). Output: bench/results/flite-reload.json

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dumpFliteVoice } from '../fixtures/voices/lib/flite-voices.js';
import { fliteModule, runFlite } from '../src/engine/flite/flite-module.js';
import { synthesizeFlite } from '../src/engine/flite/flite-synth.js';
import { TokenPhoneCache } from '../src/engine/flite/flite-token-phones.js';
import { openFliteVoice, type FliteVoiceFile } from '../src/engine/flite/flite-voice.js';
import { inflateFlitevox } from './lib/flitevox-inflate.js';
import { round, summary, writeResult } from './lib/stats.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 30);
const TEXTS = {
  // About 4 s and 12 s of speech.
  short: 'Please hold while I transfer your call to the next available agent.',
  long:
    'Thank you for calling. Your account is active and your last payment was received on the third of June. ' +
    'If you would like to hear your balance, please stay on the line, or press one to speak with an agent now.',
} as const;

function repeat<T>(times: number, action: () => T): T[] {
  return Array.from({ length: times }, action);
}

const compileStartedAt = performance.now();
fliteModule();
const compileMs = performance.now() - compileStartedAt;

const dir = mkdtempSync(join(tmpdir(), 'raaga-flite-reload-'));
try {
  const slt = dumpFliteVoice('slt', dir);
  const files: Record<string, string> = { slt, rms: dumpFliteVoice('rms', dir) };
  for (const copies of [4, 12]) {
    const path = join(dir, `slt-x${copies}.flitevox`);
    writeFileSync(path, inflateFlitevox(readFileSync(slt), copies));
    files[`slt-x${copies}`] = path;
  }
  // Warm-up: the first instances pay for lazy compilation of flite's functions.
  repeat(5, () => runFlite({ args: ['-voice', 'kal', '-t', 'warm up', '-o', 'none'] }));
  const empty = repeat(REPEATS, () => runFlite({ args: ['-voice', 'kal', '-t', ' ', '-o', 'none'] }));
  const results: Record<string, unknown> = {};
  for (const [name, path] of Object.entries(files)) {
    const voice: FliteVoiceFile = openFliteVoice(path);
    const say = (text: string, wordTimings: boolean, cache?: TokenPhoneCache) => {
      const startedAt = performance.now();
      const clip = synthesizeFlite({ voice, text, speed: 1, pitchShiftSemitones: 0, wordTimings }, cache);
      return { ms: performance.now() - startedAt, audioS: clip.samples.length / clip.sampleRateHz, words: clip.words };
    };
    say(TEXTS.short, false);
    // Loading alone: the voice is read, then an empty text.
    const loads = repeat(REPEATS, () => runFlite({ args: ['-voice', voice.guestPath, '-t', ' ', '-o', 'none'], voiceDir: voice.dir }));
    const utterances: Record<string, unknown> = {};
    for (const [length, text] of Object.entries(TEXTS)) {
      const plain = repeat(Math.ceil(REPEATS / 2), () => say(text, false));
      // Word timings worst case: no token cached, one extra analysis run per utterance.
      const uncached = repeat(Math.ceil(REPEATS / 3), () => say(text, true, new TokenPhoneCache()));
      const cache = new TokenPhoneCache();
      say(text, true, cache);
      const cached = repeat(Math.ceil(REPEATS / 3), () => say(text, true, cache));
      const audioS = plain[0]?.audioS ?? NaN;
      utterances[length] = {
        audioS: round(audioS, 2),
        totalMs: summary(plain.map((run) => run.ms)),
        rtf: summary(plain.map((run) => run.ms / 1000 / audioS)),
        rtfWordTimingsUncached: summary(uncached.map((run) => run.ms / 1000 / audioS)),
        rtfWordTimingsCached: summary(cached.map((run) => run.ms / 1000 / audioS)),
        wordsPlaced: (cached[0]?.words?.length ?? 0) > 0,
      };
    }
    results[name] = {
      sizeMB: round(voice.header.sizeBytes / 1e6, 1),
      instantiateMs: summary(loads.map((run) => run.instantiateMs)),
      voiceLoadMs: summary(loads.map((run) => run.runMs)),
      utterances,
    };
  }
  const memory = process.memoryUsage();
  const output = {
    repeats: REPEATS,
    compileMs: round(compileMs, 1),
    emptyRunWithBuiltinVoice: { instantiateMs: summary(empty.map((run) => run.instantiateMs)), runMs: summary(empty.map((run) => run.runMs)) },
    voices: results,
    memoryAfterMB: { rss: round(memory.rss / 2 ** 20, 1), external: round(memory.external / 2 ** 20, 1), heapUsed: round(memory.heapUsed / 2 ** 20, 1) },
  };
  const file = await writeResult('flite-reload', output);
  process.stdout.write(`${JSON.stringify(output, null, 2)}\n${file}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
