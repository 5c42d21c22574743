// /v1/tts/websocket over a real socket (server on port 0, `ws` client, real engine and store): the handshake,
// every message of the spec, audio that decodes to the duration reported, cancel and its billing, and
// malformed input that gets an `error` or a documented close without harming the server.

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SynthesisService } from '../../src/core/synthesis/synthesis-service.js';
import { hashApiKey } from '../../src/store/api-key.js';
import { decodeAudio } from '../helpers/decode-audio.js';
import { HINDI_SENTENCE, startTestServer, type TestServer } from '../helpers/test-server.js';
import { configMessage, connect, openClient, openConfigured, type WsTestClient } from '../helpers/ws-client.js';

let server: TestServer;
const clients: WsTestClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  for (const client of clients.splice(0)) client.socket.terminate();
});

const LONG = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(20);
const cp = (text: string) => [...text].length;

async function account(credits = 100_000) {
  const created = await server.account('growth', credits);
  return { id: created.id, key: created.keys[0] as string, balance: async () => (await server.deps.store.getAccount(created.id))!.credits };
}

function track(client: WsTestClient): WsTestClient {
  clients.push(client);
  return client;
}

const audioBytes = (client: WsTestClient) => Buffer.concat(client.frames);
const indexOfType = (client: WsTestClient, type: string) => client.log.findIndex((e) => e.kind === 'json' && e.message.type === type);
const framesAfterIndex = (client: WsTestClient, index: number) => client.log.slice(index + 1).filter((e) => e.kind === 'audio').length;

describe('handshake', () => {
  it('a valid key: 101, then connected with the account id', async () => {
    const { id, key } = await account();
    const client = track(connect(server, key));
    const status = new Promise<number>((resolve) => client.socket.once('upgrade', (response) => resolve(response.statusCode ?? 0)));
    await client.opened;
    expect(await status).toBe(101);
    expect(await client.waitFor('connected')).toEqual({ type: 'connected', user_id: id });
  });

  it.each([
    ['a wrong key', 'rk_live_' + 'x'.repeat(40)],
    ['a malformed key', 'hello'],
    ['no key', undefined],
  ])('%s: the upgrade completes, then close 4001 and no messages', async (_label, key) => {
    const client = track(connect(server, key));
    await client.opened;
    const closed = await client.closed;
    expect(closed.code).toBe(4001);
    expect(closed.reason).toMatch(/API key/);
    expect(client.messages).toEqual([]);
  });

  it('a revoked key: 4001', async () => {
    const { key } = await account();
    await server.deps.store.revokeKeyHash(hashApiKey(key));
    const client = track(connect(server, key));
    expect((await client.closed).code).toBe(4001);
  });

  it('a plain GET without Upgrade gets a 400 envelope', async () => {
    const response = await fetch(`${server.url}/v1/tts/websocket`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });
});

describe('config', () => {
  it('echoes the active config with the WebSocket defaults (pcm, 24000, 1.0)', async () => {
    const { key } = await account();
    const client = track(await openClient(server, key));
    client.send(configMessage());
    expect(await client.waitFor('configured')).toEqual({
      type: 'configured',
      model_id: 'raaga-v1',
      voice: 'aarav',
      language: 'hi-IN',
      output_format: 'pcm',
      sample_rate: 24000,
      speed: 1,
    });
  });

  it('text or cancel before config: missing_websocket_config, connection stays open', async () => {
    const { key } = await account();
    const client = track(await openClient(server, key));
    client.send({ type: 'text', text: HINDI_SENTENCE });
    client.send({ type: 'cancel' });
    client.send({ type: 'ping' });
    await client.waitFor('pong');
    expect(client.ofType('error').map((m) => m.error.code)).toEqual(['missing_websocket_config', 'missing_websocket_config']);
    client.send(configMessage());
    await client.waitFor('configured');
  });

  it('invalid configs get the HTTP codes; the connection stays open and unconfigured', async () => {
    const { key } = await account();
    const client = track(await openClient(server, key));
    client.send(configMessage({ model_id: 'raaga-v9' }));
    client.send(configMessage({ voice: 'nobody' }));
    client.send(configMessage({ voice_name: 'aarav' }));
    client.send(configMessage({ speed: 2.5 }));
    await client.waitFor('error', 4);
    expect(client.ofType('error').map((m) => m.error.code)).toEqual([
      'invalid_model_id',
      'voice_language_not_found',
      'validation_error',
      'validation_error',
    ]);
    client.send({ type: 'text', text: HINDI_SENTENCE });
    expect((await client.waitFor('error', 5)).error.code).toBe('missing_websocket_config');
  });
});

describe('text', () => {
  it('pcm frames in order, then end_of_utterance; the decoded audio lasts duration_seconds; billed exactly', async () => {
    const { key, balance } = await account();
    const client = track(await openConfigured(server, key));
    const before = await balance();
    client.send({ type: 'text', text: HINDI_SENTENCE });
    const end = await client.waitFor('end_of_utterance');
    expect(end).toEqual({ type: 'end_of_utterance', characters_used: cp(HINDI_SENTENCE), duration_seconds: end.duration_seconds, truncated: false });
    expect(client.frames.length).toBeGreaterThan(5);
    expect(client.frames.every((f) => f.length <= 1920 && f.length % 2 === 0)).toBe(true);
    const bytes = audioBytes(client);
    const decoded = await decodeAudio(bytes, 'pcm', 24000);
    expect(decoded.samples.length / 24000).toBeCloseTo(end.duration_seconds, 5);
    expect(end.duration_seconds).toBeGreaterThan(0.8);
    expect(Math.max(...decoded.samples.map(Math.abs))).toBeGreaterThan(0.05);
    expect(framesAfterIndex(client, indexOfType(client, 'end_of_utterance'))).toBe(0);
    expect(await balance()).toBe(before - cp(HINDI_SENTENCE));
  });

  it.each([
    ['mulaw', 8000],
    ['wav', 16000],
    ['mp3', 24000],
  ] as const)('%s at %i Hz decodes to the reported duration', async (format, rate) => {
    const { key } = await account();
    const client = track(await openConfigured(server, key, { output_format: format, sample_rate: rate }));
    client.send({ type: 'text', text: HINDI_SENTENCE });
    const end = await client.waitFor('end_of_utterance');
    const bytes = audioBytes(client);
    if (format === 'wav') expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    const decoded = await decodeAudio(bytes, format, rate);
    const seconds = decoded.samples.length / decoded.sampleRateHz;
    // mp3 adds encoder padding; sample formats are exact.
    expect(Math.abs(seconds - end.duration_seconds)).toBeLessThan(format === 'mp3' ? 0.1 : 1e-5);
    if (format === 'mp3') expect(client.frames.slice(0, -1).every((f) => f.length <= 2048)).toBe(true);
  });

  it('utterances follow one another on one connection', async () => {
    const { key } = await account();
    const client = track(await openConfigured(server, key));
    for (let i = 1; i <= 3; i++) {
      client.send({ type: 'text', text: HINDI_SENTENCE });
      await client.waitFor('end_of_utterance', i);
    }
  });

  it('a text while an utterance runs: error, not queued; one end_of_utterance; billed once', async () => {
    const { key, balance } = await account();
    const client = track(await openConfigured(server, key));
    const before = await balance();
    client.send({ type: 'text', text: HINDI_SENTENCE });
    client.send({ type: 'text', text: 'दूसरा वाक्य।' });
    const error = await client.waitFor('error');
    expect(error.error.code).toBe('validation_error');
    expect(error.error.message).toMatch(/in progress/);
    await client.waitFor('end_of_utterance');
    client.send({ type: 'ping' });
    await client.waitFor('pong');
    expect(client.ofType('end_of_utterance')).toHaveLength(1);
    expect(await balance()).toBe(before - cp(HINDI_SENTENCE));
  });

  it('a config while speaking is refused; a config while idle replaces the active one', async () => {
    const { key } = await account();
    const client = track(await openConfigured(server, key));
    client.send({ type: 'text', text: LONG });
    await client.waitForFrames(1);
    client.send(configMessage({ output_format: 'mulaw', sample_rate: 8000 }));
    expect((await client.waitFor('error')).error.message).toMatch(/cannot change while an utterance/);
    client.send({ type: 'cancel' });
    await client.waitFor('cancellation');
    client.send(configMessage({ output_format: 'mulaw', sample_rate: 8000 }));
    expect(await client.waitFor('configured', 2)).toMatchObject({ output_format: 'mulaw', sample_rate: 8000 });
    const framesBefore = client.frames.length;
    client.send({ type: 'text', text: HINDI_SENTENCE });
    const end = await client.waitFor('end_of_utterance');
    const mulawBytes = client.frames.slice(framesBefore).reduce((sum, f) => sum + f.length, 0);
    expect(mulawBytes / 8000).toBeCloseTo(end.duration_seconds, 5);
  });

  it('the safety budget: truncated true, reason step_budget_exceeded, characters_used 0, not billed', async () => {
    // A budget of 1 ms per character leaves the 10-second floor: a long text runs past it.
    const tight = await startTestServer({}, {
      // Sessions take their services as one object: the tighter synthesis goes there.
      app: (deps) => ({ services: { ...deps.services, synthesis: new SynthesisService(deps.engine, { firstChunkMaxChars: 100, maxChunkChars: 300, maxAudioMsPerChar: 1 }) } }),
    });
    try {
      const created = await tight.account('growth', 100_000);
      const client = track(await openConfigured(tight, created.keys[0] as string));
      client.send({ type: 'text', text: LONG });
      const end = await client.waitFor('end_of_utterance');
      expect(end).toMatchObject({ type: 'end_of_utterance', characters_used: 0, truncated: true, reason: 'step_budget_exceeded' });
      expect(end.duration_seconds).toBeGreaterThan(10);
      expect(end.duration_seconds).toBeLessThan(40);
      expect(audioBytes(client).length / 2 / 24000).toBeCloseTo(end.duration_seconds, 5);
      expect((await tight.deps.store.getAccount(created.id))!.credits).toBe(100_000);
    } finally {
      for (const client of clients.splice(0)) client.socket.terminate();
      await tight.close();
    }
  });
});

describe('cancel', () => {
  it('mid-utterance: cancellation, no frame after it, billed only the produced audio; the session goes on', async () => {
    const { key, balance } = await account();
    const client = track(await openConfigured(server, key));
    const before = await balance();
    client.send({ type: 'text', text: LONG });
    await client.waitForFrames(1);
    client.send({ type: 'cancel' });
    const cancellation = await client.waitFor('cancellation');
    // Proof instead of a fixed wait: the chunk in flight has finished in its worker, and a ping answered after
    // that shows everything the server sent before it has arrived.
    await vi.waitFor(() => expect(server.deps.engine.load()).toMatchObject({ queued: 0, running: 0 }), { timeout: 20_000, interval: 5 });
    client.send({ type: 'ping' });
    await client.waitFor('pong');
    expect(framesAfterIndex(client, indexOfType(client, 'cancellation'))).toBe(0);
    expect(client.ofType('end_of_utterance')).toHaveLength(0);
    expect(cancellation.characters_used).toBeGreaterThan(0);
    expect(cancellation.characters_used).toBeLessThan(cp(LONG));
    expect(audioBytes(client).length / 2 / 24000).toBeCloseTo(cancellation.duration_seconds, 5);
    expect(await balance()).toBe(before - cancellation.characters_used);
    client.send({ type: 'text', text: HINDI_SENTENCE });
    await client.waitFor('end_of_utterance');
    expect(await balance()).toBe(before - cancellation.characters_used - cp(HINDI_SENTENCE));
  });

  it('while idle: cancellation with 0, not billed', async () => {
    const { key, balance } = await account();
    const client = track(await openConfigured(server, key));
    const before = await balance();
    client.send({ type: 'cancel' });
    expect(await client.waitFor('cancellation')).toEqual({ type: 'cancellation', characters_used: 0, duration_seconds: 0 });
    expect(await balance()).toBe(before);
  });
});

describe('keepalive and close', () => {
  it('ping gets pong; disconnect closes with 1000', async () => {
    const { key } = await account();
    const client = track(await openClient(server, key));
    client.send({ type: 'ping' });
    expect(await client.waitFor('pong')).toEqual({ type: 'pong' });
    client.send({ type: 'disconnect' });
    expect(await client.closed).toEqual({ code: 1000, reason: 'disconnect' });
  });
});

describe('malformed input', () => {
  it('bad JSON, non-objects, unknown types and binary frames each get validation_error; the session is unharmed', async () => {
    const { key } = await account();
    const client = track(await openConfigured(server, key));
    client.send('{"type":');
    client.send('[]');
    client.send('{"type":"speak"}');
    client.send({ type: 'text', text: 42 });
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await client.waitFor('error', 5);
    expect(client.ofType('error').map((m) => m.error.code)).toEqual(Array(5).fill('validation_error'));
    expect(client.ofType('error')[4]!.error.message).toMatch(/Binary messages/);
    client.send({ type: 'text', text: HINDI_SENTENCE });
    await client.waitFor('end_of_utterance');
  });

  it('a message over the 64 KiB limit closes with 1009', async () => {
    const { key } = await account();
    const client = track(await openConfigured(server, key));
    client.send({ type: 'text', text: 'क'.repeat(30_000) }); // 90 KB of UTF-8
    expect((await client.closed).code).toBe(1009);
  });

  it('a text frame that is not UTF-8 closes with 1007', async () => {
    const { key } = await account();
    const client = track(await openConfigured(server, key));
    client.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect((await client.closed).code).toBe(1007);
  });

  it('a burst of 1000 pings is answered or cut off, never crashes the server', async () => {
    const { key } = await account();
    const client = track(await openConfigured(server, key));
    for (let i = 0; i < 1000; i++) client.send({ type: 'ping' });
    await client.until(() => client.ofType('pong').length === 1000 || client.closeInfo !== undefined, 'pongs or close').catch(() => undefined);
    if (client.closeInfo) expect(client.closeInfo.code).toBe(1008);
    const other = track(await openClient(server, (await account()).key));
    other.send({ type: 'ping' });
    await other.waitFor('pong');
  });
});
