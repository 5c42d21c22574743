// Synthesis real-time factor (seconds of compute per second of audio) per language, through the whole
// utterance path (engine worker + shaping + resampling + 8 kHz mu-law encoding), one utterance at a time.

import { join } from 'node:path';
import { SynthesisService } from '../src/core/synthesis/synthesis-service.js';
import { loadVoiceCatalog } from '../src/core/voice-catalog.js';
import { EspeakEngine } from '../src/engine/espeak-engine.js';
import { LANGUAGE_CODES } from '../src/languages.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { round, summary, writeResult } from './lib/stats.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);
const catalog = loadVoiceCatalog(join('models', 'raaga-v1', 'manifest.json'));
const engine = new EspeakEngine({ workers: 1, maxQueue: 64, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
await engine.start();
const service = new SynthesisService(engine, { firstChunkMaxChars: 100, maxChunkChars: 300 });
const voice = catalog.voices()[0]!.name;

const results: Record<string, unknown> = {};
try {
  for (const language of LANGUAGE_CODES) {
    const rtf: number[] = [];
    let audioSeconds = 0;
    for (let i = 0; i <= REPEATS; i++) {
      const utterance = service.utterance({
        text: SAMPLE_TEXTS[language],
        language,
        voice: { voiceName: voice, params: catalog.embeddedParams(voice)!, pitchShiftSemitones: 0, rateMultiplier: 1 },
        format: 'mulaw',
        sampleRateHz: 8000,
        speed: 1,
        mode: 'streaming',
      });
      const started = performance.now();
      for await (const _bytes of utterance.audio(new AbortController().signal));
      const computeSeconds = (performance.now() - started) / 1000;
      audioSeconds = utterance.durationMs / 1000;
      if (i > 0) rtf.push(computeSeconds / audioSeconds); // the first run warms this language
    }
    results[language] = { audioSeconds: round(audioSeconds, 2), rtf: summary(rtf) };
  }
} finally {
  await engine.close();
}
const file = await writeResult('synthesis-rtf', { engine: engine.name, workers: 1, format: 'mulaw', sampleRateHz: 8000, repeats: REPEATS, languages: results });
console.log(
  `synthesis RTF p50 (1 worker, 8 kHz mulaw): ${Object.entries(results)
    .map(([language, r]) => `${language} ${(r as { rtf: { p50: number } }).rtf.p50}`)
    .join(', ')} → ${file}`,
);
