// Time to first audio byte and total time of POST /v1/tts/stream, 8 kHz mulaw, per language, over real HTTP
// against the real server (in-process, port 0). One client at a time; medians and p95 over REPEATS requests.

import { request as httpRequest } from 'node:http';
import { startTestServer } from '../test/helpers/test-server.js';
import { LANGUAGE_CODES, type LanguageCode } from '../src/languages.js';
import { summary, writeResult } from './lib/stats.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);

function timedStream(url: string, key: string, language: LanguageCode, text: string): Promise<{ ttfbMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const target = new URL(`${url}/v1/tts/stream`);
    const started = performance.now();
    let ttfbMs = -1;
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          if (ttfbMs < 0) ttfbMs = performance.now() - started;
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ ttfbMs, totalMs: performance.now() - started, bytes }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ model_id: 'raaga-v1', voice: 'priya', language, text, output_format: 'mulaw', sample_rate: 8000 }));
  });
}

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
