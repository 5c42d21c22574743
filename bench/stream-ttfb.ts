// Time to first audio byte and total time of POST /v1/tts/stream, 8 kHz mulaw, per language, over real HTTP
// against the real server (in-process, port 0). One client at a time; medians and p95 over REPEATS requests.

import { startTestServer } from '../test/helpers/test-server.js';
import { LANGUAGE_CODES, type LanguageCode } from '../src/languages.js';
import { summary, writeResult } from './lib/stats.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { timedHttpStream } from './lib/tts-clients.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);

const timedStream = (url: string, key: string, language: LanguageCode, text: string) =>
  timedHttpStream(url, key, { voice: 'priya', language, format: 'mulaw', sampleRateHz: 8000 }, text);

const server = await startTestServer({ TTS_WORKERS: '2' });
try {
  // One account per language: 21 requests each stay far under the growth plan's 300 a minute, without pauses.
  const keyFor = async () => (await server.account('growth', 100_000_000)).keys[0] as string;
  const perLanguage: Record<string, unknown> = {};
  for (const language of LANGUAGE_CODES) {
    const text = SAMPLE_TEXTS[language];
    const key = await keyFor();
    await timedStream(server.url, key, language, text); // warm this language's path
    const ttfb: number[] = [];
    const total: number[] = [];
    let audioSeconds = 0;
    for (let i = 0; i < REPEATS; i++) {
      const run = await timedStream(server.url, key, language, text);
      ttfb.push(run.ttfbMs);
      total.push(run.totalMs);
      audioSeconds = run.bytes / 8000;
    }
    perLanguage[language] = { characters: [...text].length, audioSeconds, ttfbMs: summary(ttfb), totalMs: summary(total) };
  }
  const file = await writeResult('stream-ttfb', { format: 'mulaw', sampleRateHz: 8000, repeats: REPEATS, workers: 2, languages: perLanguage });
  const line = Object.entries(perLanguage)
    .map(([language, r]) => `${language} ${(r as { ttfbMs: { p50: number } }).ttfbMs.p50.toFixed(0)}ms`)
    .join(', ');
  console.log(`stream TTFB p50 (8 kHz mulaw): ${line} → ${file}`);
} finally {
  await server.close();
}
