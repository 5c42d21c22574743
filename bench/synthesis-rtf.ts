// Synthesis real-time factor (seconds of compute per second of audio) per language and engine, through the whole
// utterance path (engine worker + shaping + resampling + 8 kHz mu-law encoding), with 1 and with 2 workers: one
// utterance at a time (what one stream waits for), and two at once (aggregate: wall time over all audio made, what
// the machine can sustain). Engines: embedded eSpeak NG, and the medium-profile ONNX voice with a pack per language
// (same graph, the language's eSpeak phonemes). BENCH_REPEATS sets the embedded sample count (default 8).

import { loadavg } from 'node:os';
import { join } from 'node:path';
import { SynthesisService } from '../src/core/synthesis/synthesis-service.js';
import { loadVoiceCatalog } from '../src/core/voice-catalog.js';
import { EspeakEngine } from '../src/engine/espeak-engine.js';
import { PiperEngine } from '../src/engine/piper/piper-engine.js';
import { loadPiperSidecar } from '../src/engine/piper/piper-sidecar.js';
import type { TtsEngine } from '../src/engine/tts-engine.js';
import { LANGUAGE_CODES } from '../src/languages.js';
import { mediumVoiceModels } from './lib/medium-voice-models.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { round, summary, writeResult } from './lib/stats.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 8);
/**
 * A medium ONNX utterance costs ~1 s of a core and 8 packs take 4-8 s to load: 2 runs per language with one worker
 * (each pack is warmed by the engine's start), 1 run and 1 pair with two (with one worker two streams only take turns).
 */
const RUNS = {
  embedded: (_workers: number) => ({ single: REPEATS, pairs: Math.max(1, Math.round(REPEATS / 2)), warm: true }),
  onnx: (workers: number) => ({ single: workers > 1 ? 1 : 2, pairs: workers > 1 ? 1 : 0, warm: false }),
} as const;
const WORKERS = [1, 2] as const;
const catalog = loadVoiceCatalog(join('models', 'raaga-v1', 'manifest.json'));
const voice = catalog.voices()[0]!.name;
type EngineName = keyof typeof RUNS;

interface LanguageResult {
  readonly audioSeconds: number;
  /** One utterance at a time. */
  readonly rtf: ReturnType<typeof summary>;
  /** Two utterances at once: wall time / audio seconds of both, per pair (not measured for ONNX with one worker). */
  readonly rtfTwoStreams?: ReturnType<typeof summary>;
}

async function timed(service: SynthesisService, language: (typeof LANGUAGE_CODES)[number]): Promise<{ seconds: number; audioSeconds: number }> {
  const utterance = service.utterance({
    text: SAMPLE_TEXTS[language],
    language,
    voice: { voiceName: voice, pitchShiftSemitones: 0, rateMultiplier: 1 },
    format: 'mulaw',
    sampleRateHz: 8000,
    speed: 1,
    mode: 'streaming',
  });
  const started = performance.now();
  for await (const _bytes of utterance.audio(new AbortController().signal));
  return { seconds: (performance.now() - started) / 1000, audioSeconds: utterance.durationMs / 1000 };
}

async function measure(engine: TtsEngine, runs: { single: number; pairs: number; warm: boolean }): Promise<Record<string, LanguageResult>> {
  const service = new SynthesisService(engine, { firstChunkMaxChars: 100, maxChunkChars: 300 });
  const results: Record<string, LanguageResult> = {};
  for (const language of LANGUAGE_CODES) {
    if (runs.warm) await timed(service, language); // warms this language
    const rtf: number[] = [];
    let audioSeconds = 0;
    for (let i = 0; i < runs.single; i++) {
      const run = await timed(service, language);
      rtf.push(run.seconds / run.audioSeconds);
      audioSeconds = run.audioSeconds;
    }
    const rtfTwoStreams: number[] = [];
    for (let i = 0; i < runs.pairs; i++) {
      const started = performance.now();
      const pair = await Promise.all([timed(service, language), timed(service, language)]);
      rtfTwoStreams.push((performance.now() - started) / 1000 / (pair[0].audioSeconds + pair[1].audioSeconds));
    }
    results[language] = { audioSeconds: round(audioSeconds, 2), rtf: summary(rtf), ...(rtfTwoStreams.length > 0 ? { rtfTwoStreams: summary(rtfTwoStreams) } : {}) };
  }
  return results;
}

const models = await mediumVoiceModels(LANGUAGE_CODES.map((language) => ({ voice, language })));
const loadBefore = loadavg()[0] ?? NaN;
const engines: Record<EngineName, Record<string, Record<string, LanguageResult>>> = { embedded: {}, onnx: {} };
try {
  for (const workers of WORKERS) {
    const label = `${workers}-worker${workers === 1 ? '' : 's'}`;
    const embedded = new EspeakEngine({ workers, maxQueue: 64, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
    await embedded.start();
    try {
      engines.embedded[label] = await measure(embedded, RUNS.embedded(workers));
    } finally {
      await embedded.close();
    }
    const paths = [...models.modelPaths.entries()];
    const onnx = new PiperEngine({
      models: paths.map(([, modelPath]) => ({ modelPath, sidecar: loadPiperSidecar(`${modelPath}.json`) })),
      routes: paths.map(([language, modelPath]) => ({ voiceName: voice, language, path: modelPath, speakerId: 0 })),
      workers,
      threadsPerWorker: 1,
      maxQueue: 64,
    });
    await onnx.start();
    try {
      engines.onnx[label] = await measure(onnx, RUNS.onnx(workers));
    } finally {
      await onnx.close();
    }
  }
} finally {
  await models.remove();
}

/** Median over languages of each language's p50: one figure per engine and worker count. */
const medianOf = (values: number[]) => round([...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!, 4);
const overview = Object.fromEntries(
  (Object.keys(engines) as EngineName[]).flatMap((engine) =>
    Object.entries(engines[engine]).map(([label, languages]) => {
      const single = medianOf(Object.values(languages).map((r) => r.rtf.p50));
      const pairs = Object.values(languages).flatMap((r) => (r.rtfTwoStreams ? [r.rtfTwoStreams.p50] : []));
      const pair = pairs.length > 0 ? medianOf(pairs) : undefined;
      // Real-time streams one machine sustains at this worker count: 1 / aggregate RTF (of two streams when measured).
      return [`${engine}/${label}`, { rtfP50: single, rtfTwoStreamsP50: pair ?? null, realTimeStreams: round(1 / (pair ?? single), 1) }];
    }),
  ),
);
const file = await writeResult('synthesis-rtf', {
  what: 'seconds of compute per second of audio, whole utterance path to 8 kHz mulaw; one stream, and two streams at once (aggregate)',
  format: 'mulaw',
  sampleRateHz: 8000,
  runs: Object.fromEntries(WORKERS.map((w) => [w, { embedded: RUNS.embedded(w), onnx: RUNS.onnx(w) }])),
  onnxVoice: 'medium-profile generated voice (Piper medium shapes, random weights), 22.05 kHz, one intra-op thread per worker',
  loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? NaN, 2) },
  overview,
  engines,
});
console.log(
  `synthesis RTF p50, median over 8 languages (1 stream / 2 streams aggregate): ${Object.entries(overview)
    .map(([name, r]) => `${name} ${r.rtfP50} / ${r.rtfTwoStreamsP50 ?? '-'}`)
    .join(', ')} → ${file}`,
);
