// The TypeScript client (`raaga/client`, imported by its package name) against the real server: generate, stream,
// voices, a WebSocket session with typed events and cancel, and the spec's retry guidance: a 429 waits for
// Retry-After (injected sleep, so no real 60 s wait) and then succeeds, a concurrency 429 backs off, a 422 is
// never retried.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RaagaApiError, RaagaClient, type RetryOptions } from 'raaga/client';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { decodeAudio } from '../helpers/decode-audio.js';
import { HINDI_SENTENCE, startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.account('growth', 1_000_000)).keys[0] as string;
});

afterAll(async () => {
  await server?.close();
});

const request = (extra: Record<string, unknown> = {}) => ({
  model_id: 'raaga-v1',
  voice: 'aarav',
  language: 'hi-IN' as const,
  text: HINDI_SENTENCE,
  ...extra,
});

/** Records each wait instead of sleeping; `onSleep` lets a test change the world while the client "waits". */
function recordingSleep(onSleep: (ms: number, call: number) => Promise<void> | void = () => undefined) {
  const waits: number[] = [];
  const sleep: RetryOptions['sleep'] = async (ms) => {
    waits.push(ms);
    await onSleep(ms, waits.length);
  };
  return { waits, sleep };
}

describe('HTTP', () => {
  it('generate returns decodable audio with its duration and credits', async () => {
    const client = new RaagaClient({ baseUrl: server.url, apiKey: key });
    const result = await client.generate(request({ output_format: 'wav', sample_rate: 16000 }), { requestId: 'client-gen-1' });
    expect(result.requestId).toBe('client-gen-1');
    expect(result.characters_used).toBe([...HINDI_SENTENCE].length);
    const decoded = await decodeAudio(result.bytes, 'wav', 16000);
    expect(decoded.samples.length / 16000).toBeCloseTo(result.duration_seconds, 3);
  });

  it('stream yields several chunks whose bytes decode', async () => {
    const client = new RaagaClient({ baseUrl: server.url, apiKey: key });
    const text = Array.from({ length: 6 }, (_, i) => `यह वाक्य संख्या ${i + 1} है।`).join(' ');
    const chunks: Uint8Array[] = [];
    let info: { charactersUsed: number; requestId: string | undefined } | undefined;
    for await (const chunk of client.stream(request({ text, output_format: 'pcm', sample_rate: 8000 }), { onResponse: (i) => (info = i) })) {
      expect(chunk).toBeInstanceOf(Uint8Array);
      chunks.push(chunk);
    }
    expect(chunks.length).toBeGreaterThan(1);
    expect(info?.charactersUsed).toBe([...text].length);
    expect(info?.requestId).toMatch(/.+/);
    const decoded = await decodeAudio(Buffer.concat(chunks), 'pcm', 8000);
    expect(decoded.samples.length / 8000).toBeGreaterThan(3);
  });

  it('voices in both shapes', async () => {
    const client = new RaagaClient({ baseUrl: server.url, apiKey: key });
    const byLanguage = await client.voices();
    expect(Object.keys(byLanguage)).toHaveLength(8);
    const byVoice = await client.voices('voice');
    expect(Object.keys(byVoice)).toHaveLength(16);
    expect(byVoice.aarav?.languages).toContain('hi-IN');
  });

  it('a 422 is thrown at once, never retried, with code and request id', async () => {
    const { waits, sleep } = recordingSleep();
    const client = new RaagaClient({ baseUrl: server.url, apiKey: key, retry: { sleep } });
    const error = await client.generate(request({ speed: 9 }), { requestId: 'bad-speed-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RaagaApiError);
    expect(error).toMatchObject({ code: 'validation_error', status: 422, requestId: 'bad-speed-1' });
    expect(waits).toEqual([]);
  });

});

describe('WebSocket session', () => {
  it('configures, speaks with typed events, and closes with 1000', async () => {
    const client = new RaagaClient({ baseUrl: server.url, apiKey: key });
    const session = await client.session();
    expect(session.accountId).toMatch(/^acct_/);
    let audioEvents = 0;
    const ends: number[] = [];
    session.on('audio', () => audioEvents++);
    session.on('end_of_utterance', (message) => ends.push(message.characters_used));
    const configured = await session.configure({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', sample_rate: 16000 });
    expect(configured).toMatchObject({ type: 'configured', output_format: 'pcm', sample_rate: 16000 });
    const utterance = session.speak(HINDI_SENTENCE);
    const frames: Uint8Array[] = [];
    for await (const frame of utterance) frames.push(frame);
    const end = await utterance.result;
    expect(end.type).toBe('end_of_utterance');
    expect(ends).toEqual([[...HINDI_SENTENCE].length]);
    expect(frames.length).toBe(audioEvents);
    const bytes = frames.reduce((sum, frame) => sum + frame.byteLength, 0);
    expect(bytes / 2 / 16000).toBeCloseTo(end.duration_seconds, 3);
    await session.ping();
    expect(await session.close()).toEqual({ code: 1000, reason: 'disconnect' });
  });

  it('cancel stops an utterance mid-stream: one cancellation answers both', async () => {
    const client = new RaagaClient({ baseUrl: server.url, apiKey: key });
    const session = await client.session();
    await session.configure({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN' });
    const long = Array.from({ length: 30 }, (_, i) => `यह उपवाक्य संख्या ${i + 1} है`).join(', ');
    const utterance = session.speak(long);
    const firstFrame = await new Promise<void>((resolve) => session.on('audio', () => resolve()));
    void firstFrame;
    const cancelled = await session.cancel();
    expect(cancelled.type).toBe('cancellation');
    expect(await utterance.result).toEqual(cancelled);
    expect(cancelled.characters_used).toBeLessThan([...long].length);
    await session.close();
  });
});

describe('retry guidance against a server whose clock the injected sleep moves', () => {
  let timed: TestServer;
  let offsetMs = 0;
  /** The client "waits" by moving the store's clock: the server sees the time pass, nobody sleeps. */
  const clockSleep = () => recordingSleep((ms) => void (offsetMs += ms));

  beforeAll(async () => {
    // Time stands still except when the client "sleeps", so a Retry-After does not depend on how fast the
    // machine served the requests before it.
    const frozenAtMs = 1_767_225_600_000;
    const store = new SqliteStore({ now: () => frozenAtMs + offsetMs });
    // Leases outlive the jumps in time (a moved clock would otherwise expire a live session's slot).
    timed = await startTestServer({ SLOT_LEASE_MS: '600000' }, { store });
  });

  afterAll(async () => {
    await timed?.close();
  });

  async function fillWindow(apiKey: string): Promise<void> {
    const client = new RaagaClient({ baseUrl: timed.url, apiKey, retry: { maxRetries: 0 } });
    for (let i = 0; i < 15; i++) await client.generate(request({ text: 'नमस्ते।', output_format: 'pcm' }));
  }

  it('a 429 rate_limit_exceeded waits for Retry-After, then retries and succeeds', async () => {
    const free = await timed.account('free', 100_000);
    await fillWindow(free.keys[0] as string);
    const { waits, sleep } = clockSleep();
    const client = new RaagaClient({ baseUrl: timed.url, apiKey: free.keys[0] as string, retry: { sleep, random: () => 0.5, baseDelayMs: 500 } });
    const result = await client.generate(request({ text: 'नमस्ते।', output_format: 'pcm' }));
    expect(result.characters_used).toBe(7);
    expect(waits).toHaveLength(1);
    // The window was filled at one instant, so Retry-After is the whole minute; the wait adds jitter of at most the backoff.
    expect(waits[0]).toBeGreaterThanOrEqual(60_000);
    expect(waits[0]).toBeLessThanOrEqual(60_000 + 500);
  });

  it('a concurrency 429 (no Retry-After) backs off exponentially and succeeds once the slot frees', async () => {
    const free = await timed.account('free', 100_000);
    const holder = new RaagaClient({ baseUrl: timed.url, apiKey: free.keys[0] as string });
    const session = await holder.session();
    await session.configure({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN' }); // holds the only slot
    const { waits, sleep } = recordingSleep(async (_ms, call) => {
      if (call === 2) await session.close(); // the slot frees during the second wait
    });
    const client = new RaagaClient({ baseUrl: timed.url, apiKey: free.keys[0] as string, retry: { sleep, baseDelayMs: 400, random: () => 1 } });
    const result = await client.generate(request({ text: 'नमस्ते।', output_format: 'pcm' }));
    expect(result.characters_used).toBe(7);
    // 400 then 800 (random 1 = the whole backoff): exponential, and no server-given wait.
    expect(waits).toEqual([400, 800]);
  });

  it('gives up after maxRetries and throws the last refusal', async () => {
    const free = await timed.account('free', 100_000);
    await fillWindow(free.keys[0] as string);
    const { waits, sleep } = recordingSleep(); // time does not move: every retry is refused again
    const client = new RaagaClient({ baseUrl: timed.url, apiKey: free.keys[0] as string, retry: { sleep, maxRetries: 2 } });
    const error = await client.generate(request({ text: 'नमस्ते।', output_format: 'pcm' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    expect((error as RaagaApiError).retryAfterSeconds).toBeGreaterThan(50);
    expect(waits).toHaveLength(2);
  });

  it('a WebSocket text refused by the rate limit is re-sent after retry_after_seconds', async () => {
    const free = await timed.account('free', 100_000);
    await fillWindow(free.keys[0] as string);
    const { waits, sleep } = clockSleep();
    const client = new RaagaClient({ baseUrl: timed.url, apiKey: free.keys[0] as string, retry: { sleep, random: () => 0 } });
    const session = await client.session();
    await session.configure({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN' });
    const refusals: (number | undefined)[] = [];
    session.on('error', (message) => refusals.push(message.error.retry_after_seconds));
    const result = await session.speak('नमस्ते।').result;
    expect(result.type).toBe('end_of_utterance');
    expect(refusals).toHaveLength(1);
    expect(waits).toEqual([(refusals[0] as number) * 1000]);
    await session.close();
  });
});
