// ElevenLabs' streaming-input sockets on a real Raaga (embedded eSpeak, SQLite store), spoken to in raw JSON: contexts
// opened by their first text, audio before the flush once a sentence is whole, close_context as barge-in (flushed
// text plays out, unflushed text stops and is not billed), stream-input's key in its first message, the refusals in
// the dialect's shape, the inactivity timeout and a client that stops reading on the session clock.

import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { WsTestClient, type Json } from '../helpers/ws-client.js';

let server: TestServer;
const clock = new FakeClock();

beforeAll(async () => {
  server = await startTestServer({ TTS_WORKERS: '1' }, { vad: null, webSocket: { clock } });
});
afterAll(async () => {
  await server?.close();
});

function socketUrl(variant: 'stream-input' | 'multi-stream-input', voice = 'priya', query = 'output_format=pcm_16000&language_code=en'): string {
  return `${server.url.replace('http', 'ws')}/elevenlabs/v1/text-to-speech/${voice}/${variant}?${query}`;
}

async function connect(key: string | undefined, variant: 'stream-input' | 'multi-stream-input' = 'multi-stream-input', voice?: string, query?: string): Promise<WsTestClient> {
  const headers: Record<string, string> = key === undefined ? {} : { 'xi-api-key': key };
  const client = new WsTestClient(new WebSocket(socketUrl(variant, voice, query), { headers }));
  await client.opened;
  return client;
}

const ofContext = (client: WsTestClient, contextId: string): Json[] => client.messages.filter((message) => message.contextId === contextId);
const audioBytes = (messages: readonly Json[]): number => messages.reduce((sum, m) => sum + (m.audio ? Buffer.from(m.audio as string, 'base64').length : 0), 0);
const until = (client: WsTestClient, what: string, predicate: () => boolean): Promise<void> => client.until(predicate, what, 30_000);
const credits = async (id: string): Promise<number> => (await server.deps.store.getAccount(id))!.credits;

describe('multi-stream-input', () => {
  it('speaks a sentence before the flush, with its characters timed, and ends a closed context with isFinal', async () => {
    const { id, keys } = await server.account('growth', 10_000);
    const client = await connect(keys[0]);
    client.send({ text: ' ', context_id: 'turn-1' });
    client.send({ text: 'Your parcel ', context_id: 'turn-1' });
    client.send({ text: 'is on its way. It will', context_id: 'turn-1' });
    // The first sentence is whole (a space follows its mark): audio comes without a flush.
    await until(client, 'first audio', () => ofContext(client, 'turn-1').some((m) => m.audio));
    const first = ofContext(client, 'turn-1').find((m) => m.audio) as Json;
    expect(first.alignment.chars.join('')).toBe('Your parcel is on its way. ');
    expect(first.normalizedAlignment).toEqual(first.alignment);
    const starts = first.alignment.charStartTimesMs as number[];
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    client.send({ text: ' arrive tomorrow.', context_id: 'turn-1', flush: true });
    client.send({ context_id: 'turn-1', close_context: true });
    await until(client, 'isFinal', () => ofContext(client, 'turn-1').some((m) => m.isFinal === true));
    const messages = ofContext(client, 'turn-1');
    const spoken = messages.flatMap((m) => (m.alignment ? (m.alignment.chars as string[]) : [])).join('');
    expect(spoken).toBe('Your parcel is on its way. It will arrive tomorrow.');
    // 16-bit PCM at 16 kHz: every character starts inside the audio that was sent.
    const audioMs = (audioBytes(messages) / 2 / 16000) * 1000;
    const allStarts = messages.flatMap((m) => (m.alignment ? (m.alignment.charStartTimesMs as number[]) : []));
    expect(Math.max(...allStarts)).toBeLessThan(audioMs);
    expect(allStarts).toEqual([...allStarts].sort((a, b) => a - b));
    // A context's isFinal follows the settlement of its last segment: both sentences, fully spoken, are debited.
    expect(await credits(id)).toBe(10_000 - [...'Your parcel is on its way. It will arrive tomorrow.'].length);
    client.send({ close_socket: true });
    await client.closed;
  });

  it('close_context stops unflushed text at once: the other context goes on, only delivered audio is billed', async () => {
    const { id, keys } = await server.account('growth', 10_000);
    const client = await connect(keys[0]);
    const long = 'This is a long answer that the caller interrupts, so most of it must never be spoken or billed, ';
    client.send({ text: long.repeat(6), context_id: 'old' });
    await until(client, 'audio of old', () => ofContext(client, 'old').some((m) => m.audio));
    client.send({ context_id: 'old', close_context: true });
    client.send({ text: 'Haan, boliye. ', context_id: 'new', flush: true });
    await until(client, 'old final', () => ofContext(client, 'old').some((m) => m.isFinal === true));
    await until(client, 'new audio', () => ofContext(client, 'new').some((m) => m.audio));
    client.send({ context_id: 'new', close_context: true });
    await until(client, 'new final', () => ofContext(client, 'new').some((m) => m.isFinal === true));
    const oldChars = ofContext(client, 'old').flatMap((m) => (m.alignment ? (m.alignment.chars as string[]) : [])).length;
    expect(oldChars).toBeGreaterThan(0);
    expect(oldChars).toBeLessThan([...long.repeat(6)].length);
    // What was debited is what was sent (both contexts are final, so settled): the old context's delivered chunks
    // and the new one's sentence, far less than the old text.
    const debited = 10_000 - (await credits(id));
    expect(debited).toBeLessThan([...long.repeat(6)].length);
    expect(debited).toBeGreaterThan([...'Haan, boliye. '].length);
    client.send({ close_socket: true });
    await client.closed;
  });

  it('refuses what it cannot do in its own shape, and the socket stays open', async () => {
    const { keys } = await server.account('growth', 10_000);
    const client = await connect(keys[0]);
    client.send({ context_id: 'never-opened', flush: true });
    client.send('not json');
    client.send({ text: 'no context id' });
    client.send({ text: 'hello ', context_id: 'c', voice_settings: { speed: 9 } });
    await until(client, 'four errors', () => client.messages.filter((m) => m.error).length >= 4);
    const errors = client.messages.filter((m) => m.error);
    expect(errors[0]).toMatchObject({ error: 'validation_error', contextId: 'never-opened' });
    expect(errors[0]!.message).toContain('never-opened');
    expect(errors[1]).toEqual({ error: 'validation_error', message: expect.stringContaining('JSON') });
    expect(errors[2]!.message).toContain('context_id is required');
    expect(errors[3]!.message).toContain('voice_settings.speed');
    // Still open: a context still speaks.
    client.send({ text: 'Still here.', context_id: 'ok', flush: true });
    await until(client, 'audio after errors', () => ofContext(client, 'ok').some((m) => m.audio));
    client.send({ context_id: 'ok', close_context: true });
    client.send({ text: 'more', context_id: 'ok' });
    await until(client, 'closed context refused', () => client.messages.some((m) => m.error && m.contextId === 'ok'));
    expect(client.messages.find((m) => m.error && m.contextId === 'ok')!.message).toContain('closed');
    client.send({ close_socket: true });
    expect((await client.closed).code).toBe(1000);
  });

  it('a flood of one-character pieces is bounded: each piece is cut into few segments, none empty', async () => {
    const { keys } = await server.account('growth', 100_000);
    const client = await connect(keys[0]);
    const text = 'Thank you for calling. Your balance is updated. Goodbye. ';
    for (const character of text) client.send({ text: character, context_id: 'flood' });
    client.send({ context_id: 'flood', flush: true });
    client.send({ context_id: 'flood', close_context: true });
    await until(client, 'flood final', () => ofContext(client, 'flood').some((m) => m.isFinal === true));
    const spoken = ofContext(client, 'flood').flatMap((m) => (m.alignment ? (m.alignment.chars as string[]) : [])).join('');
    expect(spoken).toBe(text);
    client.send({ close_socket: true });
    await client.closed;
  });

  it('refuses a bad key, an unknown output_format and a voice that cannot speak the language', async () => {
    const bad = await connect('rk_live_nope');
    expect(await bad.closed).toMatchObject({ code: 1008 });
    expect(bad.messages[0]).toMatchObject({ error: 'invalid_api_key' });

    const { keys } = await server.account('growth', 10_000);
    const format = await connect(keys[0], 'multi-stream-input', 'priya', 'output_format=flac_44100');
    expect(await format.closed).toMatchObject({ code: 1008 });
    expect(format.messages[0]!.message).toContain('output_format');

    const voice = await connect(keys[0], 'multi-stream-input', 'no-such-voice');
    voice.send({ text: 'Hello there. ', context_id: 'v', flush: true });
    await until(voice, 'voice refused', () => voice.messages.some((m) => m.error));
    expect(voice.messages[0]).toMatchObject({ error: 'voice_language_not_found', contextId: 'v' });
    voice.send({ close_socket: true });
    await voice.closed;
  });

  it('closes after its inactivity timeout on the session clock, not before', async () => {
    const { keys } = await server.account('growth', 10_000);
    const client = await connect(keys[0], 'multi-stream-input', 'priya', 'output_format=pcm_16000&inactivity_timeout=5');
    // An answered message proves the session is open and its countdown restarted at the clock's present time.
    client.send('not json');
    await until(client, 'error reply', () => client.messages.some((m) => m.error));
    await clock.advance(4_999);
    expect(client.closeInfo).toBeUndefined();
    await clock.advance(1);
    const closed = await client.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain('inactivity_timeout');
  });
});

describe('message times (pipecat)', () => {
  it('each message counts from its own audio, and adding them up as pipecat does stays on the audio', async () => {
    const { keys } = await server.account('growth', 10_000);
    const url = socketUrl('multi-stream-input').replace('/elevenlabs/v1/', '/elevenlabs/message-times/v1/');
    const client = new WsTestClient(new WebSocket(url, { headers: { 'xi-api-key': keys[0]! } }));
    await client.opened;
    client.send({ text: 'First sentence here. Then a second one, ', context_id: 'p' });
    client.send({ text: 'and the end.', context_id: 'p', flush: true });
    client.send({ context_id: 'p', close_context: true });
    await until(client, 'isFinal', () => ofContext(client, 'p').some((m) => m.isFinal === true));
    const timed = ofContext(client, 'p').filter((m) => m.alignment);
    expect(timed.length).toBeGreaterThan(1);
    let cumulativeMs = 0;
    for (const message of timed) {
      const starts = message.alignment.charStartTimesMs as number[];
      const durations = message.alignment.charDurationsMs as number[];
      expect(starts[0]).toBeLessThan(50);
      const messageMs = (Buffer.from(message.audio as string, 'base64').length / 2 / 16000) * 1000;
      // The last character lasts to the message's end: pipecat's running offset is the audio's own.
      expect(Math.abs(starts.at(-1)! + durations.at(-1)! - messageMs)).toBeLessThanOrEqual(1);
      cumulativeMs += starts.at(-1)! + durations.at(-1)!;
    }
    expect(Math.abs(cumulativeMs - (audioBytes(ofContext(client, 'p')) / 2 / 16000) * 1000)).toBeLessThanOrEqual(timed.length);
    client.send({ close_socket: true });
    await client.closed;
  });
});

describe('a client that stops reading', () => {
  it('is closed once the stall limit passes on the session clock, and gives back its slot and every reservation', async () => {
    const { keys } = await server.account('growth', 100_000);
    const client = await connect(keys[0], 'multi-stream-input', 'priya', 'output_format=pcm_48000&language_code=en');
    const sentence = 'This sentence is spoken again and again to a client that has stopped reading its socket. ';
    client.send({ text: sentence.repeat(30), context_id: 'deaf', flush: true });
    await until(client, 'first audio', () => ofContext(client, 'deaf').some((m) => m.audio));
    // Stop reading: the kernel's buffers fill, then the server's socket holds the rest and the pump waits for room.
    (client.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const held = (): number => server.deps.admission.held().slots;
    expect(held()).toBe(1);
    // Drive the session clock until the stall limit closes the socket (its slot is then given back). Synthesis runs
    // on real time, so each step also lets the engine work; the bound only ends a test that would otherwise hang.
    for (let step = 0; step < 3000 && held() > 0; step++) {
      await clock.advance(1_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(held()).toBe(0);
    expect(server.deps.admission.held().reservations).toBe(0);
    (client.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await client.closed;
  });
});

describe('stream-input', () => {
  it('takes the key in its first message, speaks until the empty text, then sends isFinal and closes', async () => {
    const { keys } = await server.account('growth', 10_000);
    const client = await connect(undefined, 'stream-input', 'priya', 'output_format=ulaw_8000&language_code=hi');
    client.send({ text: ' ', xi_api_key: keys[0] });
    client.send({ text: 'नमस्ते, आपका ऑर्डर ' });
    client.send({ text: 'तैयार है। ' });
    client.send({ text: '' });
    const closed = await client.closed;
    expect(closed.code).toBe(1000);
    const audio = client.messages.filter((m) => m.audio);
    expect(audio.length).toBeGreaterThan(0);
    // mu-law at 8 kHz: one byte a sample; a short Hindi sentence lasts between half a second and ten seconds.
    const seconds = audioBytes(audio) / 8000;
    expect(seconds).toBeGreaterThan(0.5);
    expect(seconds).toBeLessThan(10);
    expect(client.messages.at(-1)).toEqual({ isFinal: true });
    expect(audio.every((m) => m.contextId === undefined)).toBe(true);
  });
});
