// WebSocket sessions and the account's limits over real sockets: the session holds one concurrency slot
// from its first config until it closes, and every kind of close frees it (a parallel HTTP request of a
// free-plan account proves it: 429 concurrency_limit_exceeded while held, 200 after). Also the rate limit
// and credits per `text`, capacity loss (1011), idle timeout on an injected clock, shutdown (1001), and a
// client that stops reading after `cancel`.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { PLAN_LIMITS } from '../../src/store/store.js';
import type { EspeakEngine } from '../../src/engine/espeak-engine.js';
import type { EngineRegistry } from '../../src/engine/engine-registry.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { authHeaders, HINDI_SENTENCE, startTestServer, type TestServer } from '../helpers/test-server.js';
import { configMessage, openClient, openConfigured, type WsTestClient } from '../helpers/ws-client.js';

/** A fixed instant for a store clock the test moves by hand. */
const STORE_EPOCH_MS = 1_800_000_000_000;

let servers: TestServer[] = [];
const clients: WsTestClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.terminate();
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function start(...args: Parameters<typeof startTestServer>): Promise<TestServer> {
  const server = await startTestServer(...args);
  servers.push(server);
  return server;
}

const LONG = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(20);
const SHORT = 'नमस्ते।';
const cp = (text: string) => [...text].length;

async function freeAccount(server: TestServer, credits = 100_000) {
  const created = await server.account('free', credits);
  return { id: created.id, key: created.keys[0] as string, balance: async () => (await server.deps.store.getAccount(created.id))!.credits };
}

function track(client: WsTestClient): WsTestClient {
  clients.push(client);
  return client;
}

async function generate(server: TestServer, key: string): Promise<{ status: number; code: string | undefined }> {
  const response = await fetch(`${server.url}/v1/tts/generate`, {
    method: 'POST',
    headers: authHeaders(key),
    body: JSON.stringify({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text: SHORT, output_format: 'pcm' }),
  });
  const json = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: json.error?.code };
}

/** HTTP proof that the session holds the account's only slot. */
async function expectSlotHeld(server: TestServer, key: string): Promise<void> {
  expect(await generate(server, key)).toEqual({ status: 429, code: 'concurrency_limit_exceeded' });
}

/** HTTP proof that the slot came back (the server frees it as the socket closes, just after the close frame). */
async function expectSlotFreed(server: TestServer, key: string): Promise<void> {
  await vi.waitFor(async () => expect(await generate(server, key)).toEqual({ status: 200, code: undefined }), { timeout: 10_000, interval: 50 });
}

describe('the concurrency slot', () => {
  it('is not taken on connect, only at the first config', async () => {
    const server = await start();
    const { key } = await freeAccount(server);
    const client = track(await openClient(server, key));
    expect((await generate(server, key)).status).toBe(200);
    client.send(configMessage());
    await client.waitFor('configured');
    await expectSlotHeld(server, key);
  });

  it('is held while idle and between utterances, and one config replaces another without a second slot', async () => {
    const server = await start();
    const { key } = await freeAccount(server);
    const client = track(await openConfigured(server, key));
    client.send({ type: 'text', text: SHORT });
    await client.waitFor('end_of_utterance');
    await expectSlotHeld(server, key);
    client.send(configMessage({ voice: 'meera' }));
    await client.waitFor('configured', 2);
    await expectSlotHeld(server, key);
  });

  it('a second session of a free account: error concurrency_limit_exceeded, socket stays open, config works once the first closes', async () => {
    const server = await start();
    const { key } = await freeAccount(server);
    const first = track(await openConfigured(server, key));
    const second = track(await openClient(server, key));
    second.send(configMessage());
    const error = await second.waitFor('error');
    expect(error.error.code).toBe('concurrency_limit_exceeded');
    expect(error.error.retry_after_seconds).toBeUndefined();
    second.send({ type: 'ping' });
    await second.waitFor('pong');
    first.send({ type: 'disconnect' });
    await first.closed;
    // The first session frees its slot as it closes; a refused config is sent again until the slot is there.
    await vi.waitFor(
      async () => {
        const refusals = second.ofType('error').length;
        second.send(configMessage());
        await second.until(() => second.ofType('configured').length > 0 || second.ofType('error').length > refusals, 'an answer');
        expect(second.ofType('configured')).toHaveLength(1);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(second.ofType('configured')).toHaveLength(1);
  });

  it.each([
    ['client close', (c: WsTestClient) => c.socket.close(1000), 1000],
    ['network drop', (c: WsTestClient) => c.socket.terminate(), 1006],
    ['disconnect message', (c: WsTestClient) => c.send({ type: 'disconnect' }), 1000],
  ] as const)('is freed on %s (idle)', async (_label, closeIt, code) => {
    const server = await start();
    const { key } = await freeAccount(server);
    const client = track(await openConfigured(server, key));
    await expectSlotHeld(server, key);
    closeIt(client);
    expect((await client.closed).code).toBe(code);
    await expectSlotFreed(server, key);
  });

  it('is freed on a network drop mid-utterance; the produced audio is billed, not the rest', async () => {
    const server = await start();
    const { key, balance } = await freeAccount(server);
    const client = track(await openConfigured(server, key));
    const before = await balance();
    client.send({ type: 'text', text: LONG });
    await client.waitForFrames(1);
    client.socket.terminate();
    await expectSlotFreed(server, key);
    const spent = before - (await balance()) - cp(SHORT);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(cp(LONG));
  });

  it('is freed on an oversized message (1009)', async () => {
    const server = await start();
    const { key } = await freeAccount(server);
    const client = track(await openConfigured(server, key));
    client.send({ type: 'text', text: 'x'.repeat(70_000) });
    expect((await client.closed).code).toBe(1009);
    await expectSlotFreed(server, key);
  });

  it('is freed on idle timeout (injected clock): closed with 1000 "idle timeout"', async () => {
    const clock = new FakeClock();
    const server = await start({}, { webSocket: { clock } });
    const { key } = await freeAccount(server);
    const client = track(await openConfigured(server, key));
    await clock.advance(59_000);
    client.send({ type: 'ping' });
    await client.waitFor('pong');
    await clock.advance(59_000);
    expect(client.closeInfo).toBeUndefined();
    await expectSlotHeld(server, key);
    await clock.advance(1_000);
    expect(await client.closed).toEqual({ code: 1000, reason: 'idle timeout' });
    await expectSlotFreed(server, key);
  });

  it('is freed when a synthesis worker crashes mid-utterance: 1011, nothing billed', async () => {
    const server = await start({ TTS_WORKERS: '1' });
    const { key, balance } = await freeAccount(server);
    const client = track(await openConfigured(server, key));
    const before = await balance();
    client.send({ type: 'text', text: LONG });
    await client.waitForFrames(1);
    await ((server.deps.engine as EngineRegistry).engineFor('aarav', 'hi-IN') as EspeakEngine).terminateWorkerForTest(0);
    const closed = await client.closed;
    expect(closed.code).toBe(1011);
    expect(closed.reason).toMatch(/reconnect/);
    expect(await balance()).toBe(before);
    await expectSlotFreed(server, key);
  });

  it('is lost when its lease cannot be renewed: 1011', async () => {
    // The store's own clock, standing still until the test moves it (leases are judged on it, not on the wall).
    let storeNowMs = STORE_EPOCH_MS;
    const store = await SqliteStore.open({ now: () => storeNowMs });
    const server = await start({ SLOT_LEASE_MS: '1000' }, { store });
    const { key } = await freeAccount(server);
    const client = track(await openConfigured(server, key));
    storeNowMs += 120_000; // the store's clock jumps past the lease; the next renewal finds it gone
    expect(await client.closed).toEqual({ code: 1011, reason: 'concurrency slot lost; reconnect' });
    await expectSlotFreed(server, key);
  });

  it('is freed at server shutdown: 1001, an interrupted utterance is not billed', async () => {
    const server = await start();
    const account = await freeAccount(server);
    const client = track(await openConfigured(server, account.key));
    const before = await account.balance();
    client.send({ type: 'text', text: LONG });
    await client.waitForFrames(1);
    server.deps.shutdownController.abort('shutdown');
    expect(await client.closed).toEqual({ code: 1011, reason: 'server shutting down; reconnect' });
    // HTTP requests are refused once shutdown has begun, so ask the store directly.
    const probe = await server.deps.store.admit({
      accountId: account.id,
      limits: PLAN_LIMITS.free,
      countRate: false,
      slotHolderId: 'probe',
      slotLeaseMs: 1000,
    });
    expect(probe.ok).toBe(true);
    expect(await account.balance()).toBe(before);
  });

  it('server close with an idle session open: the client sees 1011 (reconnect) and the server stops', async () => {
    const server = await start();
    const { key } = await freeAccount(server);
    const client = track(await openConfigured(server, key));
    await server.close();
    servers = [];
    expect((await client.closed).code).toBe(1011);
  });
});

describe('rate limit and credits per text', () => {
  it('the 16th text of a free account in a minute: rate_limit_exceeded with retry_after_seconds; connection open', async () => {
    const server = await start();
    const { key, balance } = await freeAccount(server);
    const client = track(await openConfigured(server, key));
    const before = await balance();
    for (let i = 1; i <= 15; i++) {
      client.send({ type: 'text', text: SHORT });
      await client.waitFor('end_of_utterance', i);
    }
    client.send({ type: 'text', text: SHORT });
    const error = await client.waitFor('error');
    expect(error.error.code).toBe('rate_limit_exceeded');
    expect(Number.isInteger(error.error.retry_after_seconds)).toBe(true);
    expect(error.error.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(error.error.retry_after_seconds).toBeLessThanOrEqual(60);
    client.send({ type: 'ping' });
    await client.waitFor('pong');
    expect(client.closeInfo).toBeUndefined();
    expect(await balance()).toBe(before - 15 * cp(SHORT));
  });

  it('texts share the window with HTTP requests of the same account', async () => {
    const server = await start();
    const created = await server.account('free', 100_000, 1);
    const [wsKey, httpKey] = created.keys as [string, string];
    for (let i = 0; i < 14; i++) expect((await generate(server, httpKey)).status).toBe(200);
    const client = track(await openConfigured(server, wsKey));
    client.send({ type: 'text', text: SHORT });
    await client.waitFor('end_of_utterance');
    client.send({ type: 'text', text: SHORT });
    expect((await client.waitFor('error')).error.code).toBe('rate_limit_exceeded');
  });

  it('too few credits: insufficient_credits naming remaining and required; connection open', async () => {
    const server = await start();
    const { key, balance } = await freeAccount(server, 3);
    const client = track(await openConfigured(server, key));
    client.send({ type: 'text', text: HINDI_SENTENCE });
    const error = await client.waitFor('error');
    expect(error.error.code).toBe('insufficient_credits');
    expect(error.error.message).toMatch(/3 remaining, 28 required/);
    client.send({ type: 'text', text: 'ok.' });
    await client.waitFor('end_of_utterance');
    expect(await balance()).toBe(0);
  });
});

describe('backpressure', () => {
  it('a client that stops reading still gets its cancel completed server-side: billed the produced audio only', async () => {
    const server = await start();
    const { key, balance } = await freeAccount(server);
    const client = track(await openConfigured(server, key, { sample_rate: 48000 }));
    const before = await balance();
    client.send({ type: 'text', text: LONG + LONG });
    await client.waitForFrames(1);
    const raw = (client.socket as unknown as { _socket: import('node:net').Socket })._socket;
    raw.pause(); // stop reading: the server's buffer fills and its pump pauses
    // The server's buffer fills and its pump pauses: the engine goes idle with the text unfinished.
    await vi.waitFor(() => expect(server.deps.engine.load()).toMatchObject({ queued: 0, running: 0 }), { timeout: 20_000, interval: 10 });
    client.send({ type: 'cancel' });
    await expect.poll(async () => before - (await balance()), { timeout: 20_000 }).toBeGreaterThan(0);
    const spent = before - (await balance());
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(2 * cp(LONG));
    raw.resume();
    const cancellation = await client.waitFor('cancellation');
    expect(cancellation.characters_used).toBe(spent);
    const at = client.log.findIndex((e) => e.kind === 'json' && e.message.type === 'cancellation');
    expect(client.log.slice(at + 1).filter((e) => e.kind === 'audio')).toHaveLength(0);
    const seconds = Buffer.concat(client.frames).length / 2 / 48000;
    expect(seconds).toBeCloseTo(cancellation.duration_seconds, 5);
  });
});
