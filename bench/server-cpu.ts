// The whole server as a black box (issue 39): CPU of the server process, all its threads, per second of 8 kHz
// mu-law audio from sequential POST /v1/tts/generate requests (voice sanjay, the prompt cache bypassed), against the
// CPU Debian's native `espeak-ng` spends per second of audio on the same sentences and language voices in the same run
// (its child CPU from /proc/self/stat), each text spoken REPEATS_PER_ROUND times a round by both. Rounds alternate server and native so drift on a noisy machine falls on both.
// Goal: server ÷ native ≤ 2. → bench/results/server-cpu.json

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DEFAULT_ESPEAK_LANGUAGE_IDS } from '../src/engine/espeak/espeak-languages.js';
import type { LanguageCode } from '../src/languages.js';
import { startServerProcess } from './lib/server-process.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { machine, round, summary, writeResult } from './lib/stats.js';

const ROUNDS = Number(process.env.BENCH_REPEATS ?? 8);
const LANGUAGES: readonly LanguageCode[] = ['hi-IN', 'en-IN', 'ta-IN'];
const NATIVE_RATE_HZ = 22050;
const WAV_HEADER_BYTES = 44;

/** User + system CPU seconds of this process's waited-for children (Linux /proc: cutime + cstime, 100 Hz ticks). */
function childCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Each text is spoken this many times a round: the server as that many requests, native in one process. */
const REPEATS_PER_ROUND = 4;

/**
 * Native espeak-ng speaking `text` REPEATS_PER_ROUND times in one process to a WAV on stdout: its CPU and the audio's
 * length. One process for all of it, so its start (loading voice and dictionary) weighs as little as it can.
 */
function native(text: string, language: LanguageCode): { cpuSeconds: number; audioSeconds: number } {
  const before = childCpuSeconds();
  const input = Array.from({ length: REPEATS_PER_ROUND }, () => text).join('\n');
  const run = spawnSync('espeak-ng', ['-v', DEFAULT_ESPEAK_LANGUAGE_IDS[language], '--stdout'], { input, maxBuffer: 256 * 1024 * 1024 });
  if (run.error !== undefined) throw new Error(`native espeak-ng could not run (apt-get install espeak-ng): ${run.error.message}`);
  if (run.status !== 0) throw new Error(`espeak-ng failed: ${run.stderr.toString()}`);
  return { cpuSeconds: childCpuSeconds() - before, audioSeconds: (run.stdout.length - WAV_HEADER_BYTES) / 2 / NATIVE_RATE_HZ };
}

const server = await startServerProcess({ accounts: 1, env: { TTS_WORKERS: '1', PROMPT_CACHE_MAX_BYTES: '0' } });
try {
  const key = server.accounts[0]!.key;
  const generate = async (text: string, language: LanguageCode): Promise<number> => {
    const response = await fetch(`${server.base}/v1/tts/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model_id: 'raaga-v1', voice: 'sanjay', language, text, output_format: 'mulaw', sample_rate: 8000 }),
    });
    if (!response.ok) throw new Error(`generate: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { duration_seconds: number };
    return body.duration_seconds;
  };
  // Warm both paths.
  for (const language of LANGUAGES) {
    await generate(SAMPLE_TEXTS[language], language);
    native(SAMPLE_TEXTS[language], language);
  }
  const serverMsPerAudioS: number[] = [];
  const nativeMsPerAudioS: number[] = [];
  const ratios: number[] = [];
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    let cpu = server.cpuSeconds();
    let audio = 0;
    for (const language of LANGUAGES) for (let i = 0; i < REPEATS_PER_ROUND; i++) audio += await generate(SAMPLE_TEXTS[language], language);
    const serverRate = ((server.cpuSeconds() - cpu) * 1000) / audio;
    cpu = 0;
    audio = 0;
    for (const language of LANGUAGES) {
      const run = native(SAMPLE_TEXTS[language], language);
      cpu += run.cpuSeconds;
      audio += run.audioSeconds;
    }
    const nativeRate = (cpu * 1000) / audio;
    serverMsPerAudioS.push(serverRate);
    nativeMsPerAudioS.push(nativeRate);
    ratios.push(serverRate / nativeRate);
  }
  const result = {
    at: new Date().toISOString(),
    machine: machine(),
    rounds: ROUNDS,
    languages: LANGUAGES,
    request: 'POST /v1/tts/generate, sanjay, mulaw 8000 Hz, prompt cache off, one worker',
    serverCpuMsPerAudioSecond: summary(serverMsPerAudioS),
    nativeCpuMsPerAudioSecond: summary(nativeMsPerAudioS),
    ratioServerToNative: summary(ratios),
  };
  const file = await writeResult('server-cpu', result);
  console.log(JSON.stringify(result, null, 2));
  console.log(`server CPU per audio second ÷ native espeak-ng: p50 ${round(result.ratioServerToNative.p50, 2)} (server ${round(result.serverCpuMsPerAudioSecond.p50, 2)} ms, native ${round(result.nativeCpuMsPerAudioSecond.p50, 2)} ms) → ${file}`);
} finally {
  await server.stop();
}
