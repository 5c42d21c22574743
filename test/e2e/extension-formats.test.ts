// Raaga's two output formats beyond the spec, through the real app with the embedded eSpeak engine, on every
// synthesis route: `alaw` (G.711 A-law) and `opus` (Ogg/Opus, RFC 7845). Opus is decoded by an independent decoder
// (ogg-opus-decoder). Each decodes to exactly the duration its response reports, and its level is held against a
// `pcm` request for the same text (eSpeak's clips differ by a few samples from one request to the next, so the
// samples themselves are compared in test/unit/audio/).

import { request as httpRequest } from 'node:http';
import alawmulaw from 'alawmulaw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oggCrc32 } from '../../src/audio/ogg-crc.js';
import { splitOggPages } from '../../src/audio/ogg-page.js';
import { decodeAudio, rmsDbfs } from '../helpers/decode-audio.js';
import { metricValue } from '../helpers/metrics.js';
import { authHeaders, HINDI_SENTENCE, startTestServer, type TestServer } from '../helpers/test-server.js';
import { openConfigured, type WsTestClient } from '../helpers/ws-client.js';

let server: TestServer;
let key: string;
const sockets: WsTestClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.account('growth', 1_000_000)).keys[0] as string;
});
afterAll(async () => {
  for (const client of sockets) client.socket.terminate();
  await server?.close();
});

const body = (extra: Record<string, unknown>) => ({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text: HINDI_SENTENCE, ...extra });

async function generate(target: TestServer, extra: Record<string, unknown>) {
  const response = await fetch(`${target.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body: JSON.stringify(body(extra)) });
  const json = (await response.json()) as Record<string, any>;
  return { status: response.status, json, bytes: json.audio === undefined ? Buffer.alloc(0) : Buffer.from(json.audio as string, 'base64') };
}

function stream(extra: Record<string, unknown>): Promise<{ status: number; contentType: string | undefined; trailerSeconds: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${server.url}/v1/tts/stream`);
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: authHeaders(key) }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'],
          trailerSeconds: Number(res.trailers['x-audio-duration-seconds']),
          body: Buffer.concat(parts),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body(extra)));
  });
}

/** The same text as raw PCM: the reference for length and level. */
async function pcmReference(rate: number): Promise<Int16Array> {
  const { bytes } = await generate(server, { output_format: 'pcm', sample_rate: rate });
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

const pcmDbfs = (pcm: Int16Array) => rmsDbfs(Float32Array.from(pcm, (v) => v / 32768));

/**
 * Utterances sent back to back on one socket make a chained Ogg stream (RFC 3533 §4): each link opens with a
 * beginning-of-stream page, closes with an end-of-stream page, keeps one serial, and no two links share a serial,
 * and every page's CRC holds. (ogg-opus-decoder decodes each link right but miscounts across links, so each
 * utterance is decoded on its own.)
 */
function expectValidChain(links: readonly Buffer[]): void {
  const serials = links.map((link) => {
    const pages = splitOggPages(link);
    expect(pages[0]![5]! & 0x02).toBe(0x02);
    expect(pages.slice(1).every((page) => (page[5]! & 0x02) === 0)).toBe(true);
    expect(pages[pages.length - 1]![5]! & 0x04).toBe(0x04);
    for (const page of pages) {
      const zeroed = Uint8Array.from(page);
      zeroed.fill(0, 22, 26);
      expect(oggCrc32(zeroed)).toBe(Buffer.from(page).readUInt32LE(22));
    }
    const own = new Set(pages.map((page) => Buffer.from(page).readUInt32LE(14)));
    expect(own.size).toBe(1);
    return [...own][0];
  });
  expect(new Set(serials).size).toBe(links.length);
}

describe('output_format alaw', () => {
  it('generate: one byte per sample, decoding to the duration reported and the level of the pcm audio', async () => {
    const { status, json, bytes } = await generate(server, { output_format: 'alaw', sample_rate: 8000 });
    expect(status).toBe(200);
    expect(json.format).toBe('alaw');
    expect(Math.abs(bytes.length - json.duration_seconds * 8000)).toBeLessThanOrEqual(1);
    expect(json.duration_seconds).toBeGreaterThan(0.8);
    const decoded = alawmulaw.alaw.decode(bytes);
    expect(Math.abs(pcmDbfs(decoded) - pcmDbfs(await pcmReference(8000)))).toBeLessThan(0.5);
  });

  it('stream: raw A-law as it is produced, its length the trailer duration', async () => {
    const response = await stream({ output_format: 'alaw', sample_rate: 16000 });
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('application/octet-stream');
    expect(Math.abs(response.body.length / 16000 - response.trailerSeconds)).toBeLessThan(0.001);
    const decoded = await decodeAudio(response.body, 'alaw', 16000);
    expect(Math.abs(rmsDbfs(decoded.samples) - pcmDbfs(await pcmReference(16000)))).toBeLessThan(0.5);
  });

  it('WebSocket: configured echoes alaw; the frames are 40 ms of A-law and add up to duration_seconds', async () => {
    const client = await openConfigured(server, key, { output_format: 'alaw', sample_rate: 8000 });
    sockets.push(client);
    expect(client.ofType('configured')[0]).toMatchObject({ output_format: 'alaw', sample_rate: 8000 });
    client.send({ type: 'text', text: HINDI_SENTENCE });
    const end = await client.waitFor('end_of_utterance');
    expect(client.frames.every((frame) => frame.length <= 320)).toBe(true);
    const bytes = Buffer.concat(client.frames);
    expect(Math.abs(bytes.length - end.duration_seconds * 8000)).toBeLessThanOrEqual(1);
    expect(Math.abs(pcmDbfs(alawmulaw.alaw.decode(bytes)) - pcmDbfs(await pcmReference(8000)))).toBeLessThan(0.5);
  });
});

describe('output_format opus', () => {
  it.each([8000, 16000, 24000, 48000])('generate at %i Hz: an Ogg/Opus file that decodes to the duration and level of the pcm audio', async (rate) => {
    const { status, json, bytes } = await generate(server, { output_format: 'opus', sample_rate: rate });
    expect(status).toBe(200);
    expect(json.format).toBe('opus');
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(bytes.subarray(28, 36).toString('latin1')).toBe('OpusHead');
    expect(bytes.readUInt32LE(28 + 12)).toBe(rate); // the input rate in OpusHead
    const decoded = await decodeAudio(bytes, 'opus', rate);
    expect(decoded.sampleRateHz).toBe(48000);
    // Exactly the samples produced, at 48 kHz: pre-skip dropped, the end trimmed to the last granule (RFC 7845).
    expect(Math.abs(decoded.samples.length / 48000 - json.duration_seconds)).toBeLessThan(0.000001);
    expect(json.duration_seconds).toBeGreaterThan(0.8);
    // Real speech through a 16-32 kbit/s speech codec keeps its level.
    expect(Math.abs(rmsDbfs(decoded.samples) - pcmDbfs(await pcmReference(rate)))).toBeLessThan(1);
  });

  it('stream: Ogg pages as they are produced, decoding to the trailer duration', async () => {
    const response = await stream({ output_format: 'opus', sample_rate: 24000 });
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('application/octet-stream');
    expect(splitOggPages(response.body).length).toBeGreaterThan(3);
    const decoded = await decodeAudio(response.body, 'opus', 24000);
    expect(Math.abs(decoded.samples.length / 48000 - response.trailerSeconds)).toBeLessThan(0.000001);
    expect(response.trailerSeconds).toBeGreaterThan(0.8);
  });

  it('WebSocket: every frame is one whole Ogg page; each utterance is a stream of its own, and the two make a valid chain', async () => {
    const client = await openConfigured(server, key, { output_format: 'opus', sample_rate: 16000 });
    sockets.push(client);
    expect(client.ofType('configured')[0]).toMatchObject({ output_format: 'opus', sample_rate: 16000 });
    client.send({ type: 'text', text: HINDI_SENTENCE });
    const first = await client.waitFor('end_of_utterance');
    const firstFrames = client.frames.length;
    client.send({ type: 'text', text: 'धन्यवाद।' });
    const second = await client.waitFor('end_of_utterance', 2);
    for (const frame of client.frames) expect(splitOggPages(frame).length).toBe(1);
    const utterances = [Buffer.concat(client.frames.slice(0, firstFrames)), Buffer.concat(client.frames.slice(firstFrames))];
    const [a, b] = await Promise.all(utterances.map((bytes) => decodeAudio(bytes, 'opus', 16000)));
    expect(Math.abs(a!.samples.length / 48000 - first.duration_seconds)).toBeLessThan(0.000001);
    expect(Math.abs(b!.samples.length / 48000 - second.duration_seconds)).toBeLessThan(0.000001);
    expectValidChain(utterances);
  });

  it('the request names the field when a format is unknown, listing the extensions', async () => {
    const { status, json } = await generate(server, { output_format: 'ogg' });
    expect(status).toBe(422);
    expect(json.error.code).toBe('validation_error');
    expect(json.error.message).toContain("'output_format'");
    expect(json.error.message).toContain('mp3, wav, pcm, mulaw, alaw, opus');
  });
});

describe('opus from the prompt cache', () => {
  let cached: TestServer;
  beforeAll(async () => {
    cached = await startTestServer({ PROMPT_CACHE_MAX_BYTES: String(4 * 2 ** 20) });
  });
  afterAll(async () => {
    await cached?.close();
  });

  it('a replayed recording gets a serial of its own, so the same text twice on a WebSocket is still a valid chain', async () => {
    const account = await cached.account('growth', 100_000);
    const client = await openConfigured(cached, account.keys[0] as string, { output_format: 'opus', sample_rate: 24000 });
    sockets.push(client);
    client.send({ type: 'text', text: HINDI_SENTENCE });
    await client.waitFor('end_of_utterance');
    const firstFrames = client.frames.length;
    client.send({ type: 'text', text: HINDI_SENTENCE });
    await client.waitFor('end_of_utterance', 2);
    expect(await metricValue(cached, 'raaga_prompt_cache_events_total{event="hit"}')).toBe(1);
    const utterances = [Buffer.concat(client.frames.slice(0, firstFrames)), Buffer.concat(client.frames.slice(firstFrames))];
    expectValidChain(utterances);
    // The same audio (the packets are the recording's), only the serial and so the CRCs differ.
    const [a, b] = await Promise.all(utterances.map((bytes) => decodeAudio(bytes, 'opus', 24000)));
    expect(Array.from(b!.samples)).toEqual(Array.from(a!.samples));
  });
});
