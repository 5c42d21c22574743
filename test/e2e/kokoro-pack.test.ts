// A Kokoro pack in the server's voice bank over real HTTP: the manifest routes one preset voice's Hindi to a Kokoro
// model and style file, /v1/tts/generate speaks it with that pack (the tone model's audio decodes to the phonemizer's
// ids after the worker's shaping), the usage ledger records engine kokoro, and the voice's other language stays eSpeak.
// Kokoro has no word timings: a WebSocket that asks for them gets none, never invented ones.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KOKORO_TONE_ENCODING } from '../../fixtures/voices/lib/kokoro-tone-voice.js';
import { KokoroPhonemizer } from '../../src/engine/kokoro/kokoro-phonemizer.js';
import { tokenize } from '../../src/engine/kokoro/kokoro-vocab.js';
import { decodeAudio } from '../helpers/decode-audio.js';
import { kokoroVoiceFiles, type KokoroVoiceFiles } from '../helpers/kokoro-voice-files.js';
import { ALL_TIME } from '../helpers/store-contract.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { toneFrequencyHz } from '../helpers/tone-decoder.js';
import { REPO_MANIFEST } from '../helpers/voice-packs.js';
import { configMessage, openClient } from '../helpers/ws-client.js';

// One clause, so the reply is one clip: the tone model's header, then one block per id.
const TEXT = 'नमस्ते दोस्त';

let files: KokoroVoiceFiles;
let server: TestServer;
let account: { id: string; keys: string[] };

beforeAll(async () => {
  files = await kokoroVoiceFiles();
  const model = await files.model('kokoro-v1.0.onnx');
  const style = await files.style('hf_alpha.bin', 0);
  const manifest = JSON.parse(await readFile(REPO_MANIFEST, 'utf8')) as { voices: { voice_name: string; packs?: Record<string, unknown> }[] };
  const voice = manifest.voices.find((candidate) => candidate.voice_name === 'aarav');
  if (voice === undefined) throw new Error('no voice aarav in the repo manifest');
  voice.packs = { 'hi-IN': { engine: 'kokoro', path: model, style } };
  await mkdir(join(files.dir, 'raaga-v1'));
  await writeFile(join(files.dir, 'raaga-v1', 'manifest.json'), JSON.stringify(manifest, null, 2));
  server = await startTestServer({ RAAGA_MODELS_DIR: files.dir, ONNX_WORKERS: '1', TTS_WORKERS: '1' });
  account = await server.account('growth', 100_000);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await files?.remove();
});

async function generate(language: string, key = account.keys[0] as string): Promise<Float32Array> {
  const response = await fetch(`${server.url}/v1/tts/generate`, {
    method: 'POST',
    headers: authHeaders(key),
    body: JSON.stringify({ model_id: 'raaga-v1', voice: 'aarav', language, text: TEXT, output_format: 'pcm', sample_rate: 24000 }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { audio: string };
  return (await decodeAudio(Buffer.from(body.audio, 'base64'), 'pcm', 24000)).samples;
}

/**
 * The ids of a shaped clip at the model's own rate: shaping moves no sample here (the header's first sample is loud, so
 * nothing is trimmed) but scales and limits the header, so only the blocks after it are read, each away from its edges.
 */
function shapedIds(samples: Float32Array, count: number): number[] {
  const e = KOKORO_TONE_ENCODING;
  return Array.from({ length: count }, (_, index) => {
    const start = e.headerSamples + index * e.samplesPerId;
    const frequency = toneFrequencyHz(samples, start + 60, start + e.samplesPerId - 60, e.sampleRateHz);
    return Math.round((frequency - e.f0Hz) / e.stepHz) + 0;
  });
}

describe('a Kokoro pack in the server', () => {
  it('speaks the pair with the pack: the audio carries the phonemizer`s ids', async () => {
    const [run, ...more] = tokenize((await KokoroPhonemizer.create()).phonemize(TEXT, 'h')).runs;
    expect(more).toHaveLength(0);
    const ids = run?.ids ?? [];
    const samples = await generate('hi-IN');
    const e = KOKORO_TONE_ENCODING;
    expect(samples.length).toBeGreaterThanOrEqual(e.headerSamples + ids.length * e.samplesPerId);
    expect(shapedIds(samples, ids.length)).toEqual(ids);
  });

  it('records engine kokoro in the usage ledger, and espeak for the voice`s pair without a pack', async () => {
    const own = await server.account('growth', 100_000);
    await generate('hi-IN', own.keys[0] as string);
    await generate('en-IN', own.keys[0] as string);
    const records = await vi.waitFor(
      async () => {
        const list = await server.deps.store.listUsage(own.id, ALL_TIME);
        expect(list).toHaveLength(2);
        return list;
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(records.map((record) => [record.language, record.engine, record.outcome]).sort()).toEqual([
      ['en-IN', 'espeak', 'completed'],
      ['hi-IN', 'kokoro', 'completed'],
    ]);
  });

  it('a WebSocket that asked for word timings gets none from Kokoro: frames, then end_of_utterance', async () => {
    const client = await openClient(server, account.keys[0] as string);
    try {
      client.send(configMessage({ language: 'hi-IN', word_timings: true }));
      client.send({ type: 'text', text: TEXT });
      await client.waitFor('end_of_utterance');
      const kinds = client.log.map((entry) => (entry.kind === 'audio' ? 'audio' : String(entry.message.type)));
      const audio = kinds.filter((kind) => kind === 'audio').length;
      expect(audio).toBeGreaterThan(0);
      expect(kinds).toEqual(['connected', 'configured', ...Array<string>(audio).fill('audio'), 'end_of_utterance']);
    } finally {
      client.socket.terminate();
    }
  });
});
