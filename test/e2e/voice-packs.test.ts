// The server with neural voice packs in its voice bank, over real HTTP: installed packs speak their pairs (the
// tone voice's audio decodes to the ids eSpeak gives), broken packs are logged at start with path and reason and
// fall back to the embedded engine, /readyz waits for the warmed sessions, GET /v1/voices does not change.

import { rm } from 'node:fs/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVoiceCatalog } from '../../src/core/voice-catalog.js';
import { EspeakPhonemizer } from '../../src/engine/espeak/espeak-phonemizer.js';
import { phonemizeText } from '../../src/engine/piper/piper-phonemizer.js';
import { loadPiperSidecar } from '../../src/engine/piper/piper-sidecar.js';
import { decodeAudio } from '../helpers/decode-audio.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { decodeStream } from '../helpers/tone-decoder.js';
import { fixtureModelPath, modelsDirWithPacks, REPO_MANIFEST, TONE_ESPEAK, TONE_TEXT } from '../helpers/voice-packs.js';

let server: TestServer;
let modelsDir: string;
let key: string;
const logs: Record<string, unknown>[] = [];
const TEXT = 'नमस्ते, आपका खाता सक्रिय है।';

beforeAll(async () => {
  modelsDir = await modelsDirWithPacks([
    { voice: 'aarav', language: 'hi-IN', fixture: TONE_ESPEAK, speaker: 2 },
    { voice: 'meera', language: 'en-IN', fixture: TONE_TEXT },
    { voice: 'meera', language: 'hi-IN', broken: 'corrupt-model' },
    { voice: 'rahul', language: 'hi-IN', broken: 'bad-sidecar' },
    { voice: 'pooja', language: 'hi-IN', broken: 'missing' },
  ]);
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  server = await startTestServer({ RAAGA_MODELS_DIR: modelsDir, ONNX_WORKERS: '1', TTS_WORKERS: '1' }, { logger });
  key = (await server.account('growth', 100_000)).keys[0] as string;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(modelsDir, { recursive: true, force: true });
});

async function generate(voice: string, language: string, text: string): Promise<Float32Array> {
  const response = await fetch(`${server.url}/v1/tts/generate`, {
    method: 'POST',
    headers: authHeaders(key),
    body: JSON.stringify({ model_id: 'raaga-v1', voice, language, text, output_format: 'pcm', sample_rate: 24000 }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { audio: string };
  return (await decodeAudio(Buffer.from(body.audio, 'base64'), 'pcm', 24000)).samples;
}

async function expectedIds(text: string): Promise<number[][]> {
  const sidecar = loadPiperSidecar(`${fixtureModelPath(TONE_ESPEAK)}.json`);
  return [phonemizeText(text, sidecar, await EspeakPhonemizer.create()).sentences.flat()];
}

describe('voice packs in the server', () => {
  it('is ready only with warmed sessions, and GET /v1/voices is the catalog as before', async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const warmed = logs.find((line) => line.msg === 'voice pack engine worker event');
    expect(warmed?.engineEvent).toMatchObject({ type: 'worker-ready', report: { failed: [expect.objectContaining({ path: expect.stringContaining('broken-corrupt-model') })] } });
    const plain = loadVoiceCatalog(REPO_MANIFEST);
    for (const groupBy of ['language', 'voice'] as const) {
      const response = await fetch(`${server.url}/v1/voices?group_by=${groupBy}`, { headers: authHeaders(key) });
      expect(await response.json()).toEqual(groupBy === 'language' ? plain.groupByLanguage() : plain.groupByVoice());
    }
  });

  it('speaks an installed pair with its pack and speaker (22.05 kHz voice, 24 kHz output)', async () => {
    const decoded = decodeStream(await generate('aarav', 'hi-IN', TEXT), 24000, TONE_ESPEAK.sidecar.tone_encoding);
    expect(decoded.clauses.flat()).toEqual((await expectedIds(TEXT)).flat());
    expect(decoded.speakers).toEqual(new Set([2]));
  });

  it('speaks a 16 kHz character pack', async () => {
    const decoded = decodeStream(await generate('meera', 'en-IN', 'hello'), 24000, TONE_TEXT.sidecar.tone_encoding);
    const map = TONE_TEXT.sidecar.phoneme_id_map as Record<string, number[]>;
    expect(decoded.clauses).toEqual([[1, 0, ...[...'hello'].flatMap((ch) => [map[ch]![0]!, 0]), 2]]);
  });

  it('logs each pack that failed to load with its path and reason, once per pair', () => {
    const warnings = logs.filter((line) => line.msg === 'voice pack failed to load; its pair uses the embedded engine');
    expect(warnings).toHaveLength(3);
    const byVoice = Object.fromEntries(warnings.map((line) => [line.voice as string, line]));
    expect(byVoice.meera).toMatchObject({ level: 40, language: 'hi-IN', pack: expect.stringContaining('packs/broken-corrupt-model/model.onnx') });
    expect(byVoice.rahul).toMatchObject({ pack: expect.stringContaining('packs/broken-bad-sidecar/model.onnx'), reason: expect.stringMatching(/model\.onnx\.json is invalid:\n\s+audio\.sample_rate/) });
    expect(byVoice.pooja).toMatchObject({ reason: expect.stringMatching(/does not exist/) });
  });

  it('falls back to the embedded engine for failed packs and pairs without a pack', async () => {
    const tones = (await expectedIds(TEXT)).flat();
    for (const [voice, language] of [
      ['meera', 'hi-IN'],
      ['rahul', 'hi-IN'],
      ['aarav', 'en-IN'],
    ] as const) {
      const samples = await generate(voice, language, TEXT);
      expect(samples.length).toBeGreaterThan(24000 * 0.5);
      expect(decodeStream(samples, 24000, TONE_ESPEAK.sidecar.tone_encoding).clauses.flat()).not.toEqual(tones);
    }
  });
});
