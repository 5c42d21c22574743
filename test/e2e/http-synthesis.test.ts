// POST /v1/tts/generate and /v1/tts/stream over real HTTP: every format and rate decodes, durations and
// counts are exact, the stream sends bytes before the text is fully synthesized, and carries its trailer.

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EspeakEngine } from '../../src/engine/espeak-engine.js';
import type { PcmClip, SynthesisJob, TtsEngine } from '../../src/engine/tts-engine.js';
import type { LanguageCode } from '../../src/languages.js';
import { loadVoiceCatalog } from '../../src/core/voice-catalog.js';
import { decodeAudio, rmsDbfs } from '../helpers/decode-audio.js';
import { authHeaders, HINDI_SENTENCE, startTestServer, type TestServer } from '../helpers/test-server.js';

/** The real engine, counting finished jobs so a test can see how far synthesis had got. */
class CountingEngine implements TtsEngine {
  finished = 0;
  constructor(private readonly inner: TtsEngine) {}
  get name() {
    return this.inner.name;
  }
  start() {
    return this.inner.start();
  }
  isReady() {
    return this.inner.isReady();
  }
  load() {
    return this.inner.load();
  }
  kindFor(voiceName: string, language: LanguageCode) {
    return this.inner.kindFor(voiceName, language);
  }
  close() {
    return this.inner.close();
  }
  audioSource(voiceName: string, language: LanguageCode) {
    return this.inner.audioSource(voiceName, language);
  }
  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    const clip = await this.inner.synthesize(job, signal);
    this.finished++;
    return clip;
  }
}

let server: TestServer;
let engine: CountingEngine;
let key: string;
let accountId: string;

beforeAll(async () => {
  const catalog = loadVoiceCatalog('models/raaga-v1/manifest.json');
  engine = new CountingEngine(new EspeakEngine({ workers: 2, maxQueue: 64, voices: catalog.embeddedVoices() }));
  server = await startTestServer({}, { engine, catalog });
  const account = await server.account('growth', 1_000_000);
  key = account.keys[0] as string;
  accountId = account.id;
});

afterAll(async () => {
  await server?.close();
});

const voiceName = () => server.deps.catalog.voices()[0]!.name;

async function generate(body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/v1/tts/generate`, {
    method: 'POST',
    headers: authHeaders(key),
    body: JSON.stringify({ model_id: 'raaga-v1', voice: voiceName(), language: 'hi-IN', text: HINDI_SENTENCE, ...body }),
  });
  return { response, json: (await response.json()) as Record<string, unknown> };
}

describe('POST /v1/tts/generate', () => {
  const formats = ['pcm', 'wav', 'mulaw', 'mp3'] as const;
  const rates = [8000, 16000, 24000, 48000] as const;
  for (const format of formats) {
    for (const rate of rates) {
      it(`returns decodable ${format} at ${rate} Hz whose length matches duration_seconds`, async () => {
        const { response, json } = await generate({ output_format: format, sample_rate: rate });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(Object.keys(json).sort()).toEqual(['audio', 'characters_used', 'duration_seconds', 'format']);
        expect(json.format).toBe(format);
        expect(json.characters_used).toBe([...HINDI_SENTENCE].length);
        const bytes = Buffer.from(json.audio as string, 'base64');
        const decoded = await decodeAudio(bytes, format, rate);
        expect(decoded.sampleRateHz).toBe(rate);
        const duration = json.duration_seconds as number;
        expect(duration).toBeGreaterThan(0.8);
        expect(duration).toBeLessThan(6);
        if (format === 'mp3') {
          // MP3 adds encoder delay and frame padding: at most two 1152-sample frames (576 at ≤ 24 kHz).
          expect(Math.abs(decoded.samples.length - duration * rate)).toBeLessThanOrEqual(2 * 1152);
        } else {
          expect(Math.abs(decoded.samples.length - duration * rate)).toBeLessThanOrEqual(1);
        }
        expect(rmsDbfs(decoded.samples)).toBeGreaterThan(-35);
      });
    }
  }

  it('defaults to mp3 at 24000 Hz and speed 1.0', async () => {
    const { response, json } = await generate({});
    expect(response.status).toBe(200);
    expect(json.format).toBe('mp3');
    const decoded = await decodeAudio(Buffer.from(json.audio as string, 'base64'), 'mp3', 24000);
    expect(decoded.sampleRateHz).toBe(24000);
  });

  it('speed changes the duration', async () => {
    const normal = (await generate({ output_format: 'pcm', speed: 1 })).json.duration_seconds as number;
    const fast = (await generate({ output_format: 'pcm', speed: 2 })).json.duration_seconds as number;
    const slow = (await generate({ output_format: 'pcm', speed: 0.5 })).json.duration_seconds as number;
    expect(fast / normal).toBeGreaterThan(0.35);
    expect(fast / normal).toBeLessThan(0.75);
    expect(slow / normal).toBeGreaterThan(1.4);
  });

  it('counts Unicode code points, not UTF-16 units, and debits exactly that', async () => {
    const text = 'नमस्ते 😀 दुनिया'; // combining vowel signs and virama count, the emoji counts once
    expect(text.length).not.toBe([...text].length);
    const before = (await server.deps.store.getAccount(accountId))!.credits;
    const { response, json } = await generate({ text, output_format: 'pcm' });
    expect(response.status).toBe(200);
    expect(json.characters_used).toBe([...text].length);
    expect(json.characters_used).toBe(15);
    const after = (await server.deps.store.getAccount(accountId))!.credits;
    expect(before - after).toBe(15);
  });

  it('sends the rate-limit headers and echoes X-Request-Id', async () => {
    // A fresh account: its window holds this one request, so the reset is that request's time plus a minute.
    const fresh = await server.account('growth', 1000);
    const response = await fetch(`${server.url}/v1/tts/generate`, {
      method: 'POST',
      headers: { ...authHeaders(fresh.keys[0] as string), 'x-request-id': 'req-abc.123' },
      body: JSON.stringify({ model_id: 'raaga-v1', voice: voiceName(), language: 'en-IN', text: 'Hello.', output_format: 'pcm' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('300');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('299');
    // The store's own window end, read back without counting a request.
    const probe = await server.deps.store.admit({ accountId: fresh.id, limits: { requestsPerMinute: 300, concurrentRequests: 1000 }, countRate: false, slotHolderId: 'probe' });
    if (probe.ok) await server.deps.store.releaseSlot(fresh.id, 'probe');
    expect(response.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil(probe.rate.resetAtMs / 1000)));
    expect(response.headers.get('x-request-id')).toBe('req-abc.123');
  });
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  trailers: Record<string, string | undefined>;
  body: Buffer;
  /** Engine jobs finished when the first body byte arrived. */
  finishedAtFirstByte: number | undefined;
}

function rawStream(body: Record<string, unknown>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${server.url}/v1/tts/stream`);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: authHeaders(key) },
      (res) => {
        const parts: Buffer[] = [];
        let finishedAtFirstByte: number | undefined;
        res.on('data', (chunk: Buffer) => {
          if (finishedAtFirstByte === undefined) finishedAtFirstByte = engine.finished;
          parts.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            trailers: res.trailers as Record<string, string | undefined>,
            body: Buffer.concat(parts),
            finishedAtFirstByte,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ model_id: 'raaga-v1', voice: voiceName(), language: 'hi-IN', ...body }));
  });
}

describe('POST /v1/tts/stream', () => {
  it('streams raw pcm with the spec headers and the exact duration as a trailer', async () => {
    const response = await rawStream({ text: HINDI_SENTENCE, output_format: 'pcm', sample_rate: 16000 });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['x-characters-used']).toBe(String([...HINDI_SENTENCE].length));
    expect(Number(response.headers['x-audio-duration-estimate-seconds'])).toBeGreaterThan(0);
    expect(response.headers['trailer']).toMatch(/x-audio-duration-seconds/i);
    expect(response.headers['x-ratelimit-limit']).toBe('300');
    const decoded = await decodeAudio(response.body, 'pcm', 16000);
    const trailerSeconds = Number(response.trailers['x-audio-duration-seconds']);
    expect(Math.abs(decoded.samples.length / 16000 - trailerSeconds)).toBeLessThan(0.001);
  });

  it('sends the first bytes before the whole text is synthesized', async () => {
    const sentence = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। ';
    const text = sentence.repeat(12);
    const jobsBefore = engine.finished;
    const response = await rawStream({ text, output_format: 'mulaw', sample_rate: 8000 });
    expect(response.status).toBe(200);
    const chunkCount = server.deps.synthesis.utterance({
      text, language: 'hi-IN', voice: { voiceName: voiceName(), pitchShiftSemitones: 0, rateMultiplier: 1 },
      format: 'mulaw', sampleRateHz: 8000, speed: 1, mode: 'streaming',
    }).chunks.length;
    expect(chunkCount).toBeGreaterThanOrEqual(12);
    // At the first byte, at most the first chunk and the prefetched second had finished.
    expect((response.finishedAtFirstByte as number) - jobsBefore).toBeLessThanOrEqual(2);
    expect(engine.finished - jobsBefore).toBe(chunkCount);
  });

  it('streams WAV with a header that marks the length unknown', async () => {
    const response = await rawStream({ text: HINDI_SENTENCE, output_format: 'wav', sample_rate: 24000 });
    expect(response.status).toBe(200);
    expect(response.body.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(response.body.readUInt32LE(4)).toBe(0xffffffff);
    expect(response.body.readUInt32LE(40)).toBe(0xffffffff);
    const decoded = await decodeAudio(response.body, 'wav', 24000);
    expect(Math.abs(decoded.samples.length / 24000 - Number(response.trailers['x-audio-duration-seconds']))).toBeLessThan(0.001);
  });

  it('streams decodable mp3', async () => {
    const response = await rawStream({ text: HINDI_SENTENCE, output_format: 'mp3', sample_rate: 48000 });
    expect(response.status).toBe(200);
    const decoded = await decodeAudio(response.body, 'mp3', 48000);
    expect(decoded.sampleRateHz).toBe(48000);
    expect(Math.abs(decoded.samples.length / 48000 - Number(response.trailers['x-audio-duration-seconds']))).toBeLessThan(0.06);
  });
});
