// /v1/tts/websocket's opt-in word timings over a real socket (real app, embedded eSpeak, whose words are timed): the
// exact message sequence without the opt-in; with it, the input's own words in order, touching and never
// overlapping, inside the audio (its length from the PCM bytes), each message after the frames that hold its words;
// and a prompt-cache replay of the same utterance carries the same timings.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordTimingsMessageSchema } from '../../src/api/websocket-server-messages.js';
import { metricValue } from '../helpers/metrics.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { configMessage, openClient, type Json, type WsTestClient } from '../helpers/ws-client.js';

const TEXT = 'Namaste Priya, your bill of ₹500 is due today. Thank you for calling Raaga Bank.';
const RATE_HZ = 24000;
/** PCM16 mono: milliseconds of audio in `bytes`. */
const pcmMs = (bytes: number) => (bytes / 2 / RATE_HZ) * 1000;

let server: TestServer;
let key: string;
const clients: WsTestClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ PROMPT_CACHE_MAX_BYTES: String(16 * 2 ** 20) });
  key = (await server.account('growth', 1_000_000)).keys[0] as string;
});
afterAll(async () => {
  for (const client of clients) client.socket.terminate();
  await server?.close();
});

async function configured(extra: Json): Promise<WsTestClient> {
  const client = await openClient(server, key);
  clients.push(client);
  client.send(configMessage({ language: 'en-IN', output_format: 'pcm', sample_rate: RATE_HZ, ...extra }));
  await client.waitFor('configured');
  return client;
}

/** What one utterance produced: its messages and frames in arrival order, from its text up to its end. */
async function speak(client: WsTestClient, text: string, count: number) {
  const from = client.log.length;
  client.send({ type: 'text', text });
  const end = await client.waitFor('end_of_utterance', count);
  const log = client.log.slice(from);
  return { end, log };
}

/** The sequence as kinds: 'audio' for a run of frames, else the message type. */
function shape(log: WsTestClient['log']): string[] {
  const kinds: string[] = [];
  for (const entry of log) {
    const kind = entry.kind === 'audio' ? 'audio' : String(entry.message.type);
    if (kind !== 'audio' || kinds.at(-1) !== 'audio') kinds.push(kind);
  }
  return kinds;
}

describe('word timings on /v1/tts/websocket', () => {
  it('without the opt-in: configured as the spec has it, then only frames and end_of_utterance', async () => {
    const client = await configured({});
    expect(client.ofType('configured')[0]).not.toHaveProperty('word_timings');
    const { log } = await speak(client, TEXT, 1);
    expect(shape(log)).toEqual(['audio', 'end_of_utterance']);
  });

  it('an invalid opt-in is a validation_error naming the field', async () => {
    const client = await openClient(server, key);
    clients.push(client);
    client.send(configMessage({ language: 'en-IN', word_timings: 'yes' }));
    const error = await client.waitFor('error');
    expect(error.error.code).toBe('validation_error');
    expect(error.error.message).toMatch(/word_timings/);
  });

  it('with it: the input`s words in order, touching, inside the audio, each message after the frames holding its words', async () => {
    const client = await configured({ word_timings: true });
    expect(client.ofType('configured')[0]).toMatchObject({ word_timings: true });
    const { log, end } = await speak(client, TEXT, 1);
    const kinds = shape(log);
    // Frames before the first timings, and the end last: one message per clause (this text has three).
    expect(kinds[0]).toBe('audio');
    expect(kinds.at(-1)).toBe('end_of_utterance');
    expect(kinds.filter((kind) => kind === 'word_timings').length).toBeGreaterThanOrEqual(2);
    expect(new Set(kinds.slice(1, -1))).toEqual(new Set(['audio', 'word_timings']));

    let audioBytes = 0;
    const words: { text: string; start_ms: number; end_ms: number }[] = [];
    for (const entry of log) {
      if (entry.kind === 'audio') {
        audioBytes += entry.bytes.length;
        continue;
      }
      if (entry.message.type !== 'word_timings') continue;
      const message = WordTimingsMessageSchema.parse(entry.message);
      // The audio of every word reported has already been sent.
      expect(message.words.at(-1)!.end_ms).toBeLessThanOrEqual(pcmMs(audioBytes));
      words.push(...message.words);
    }
    const totalMs = pcmMs(audioBytes);
    expect(end.duration_seconds * 1000).toBeCloseTo(totalMs, 0);

    expect(words.map((word) => word.text)).toEqual(TEXT.split(' '));
    expect(words[0]!.start_ms).toBeGreaterThanOrEqual(0);
    for (const [index, word] of words.entries()) {
      expect(word.end_ms).toBeGreaterThan(word.start_ms);
      if (index > 0) expect(word.start_ms).toBeGreaterThanOrEqual(words[index - 1]!.end_ms);
    }
    expect(words.at(-1)!.end_ms).toBeLessThanOrEqual(totalMs);
    // The second sentence starts after the first one's words and its pause.
    const thank = words.findIndex((word) => word.text === 'Thank');
    expect(words[thank]!.start_ms).toBeGreaterThanOrEqual(words[thank - 1]!.end_ms + 200);
  });

  it('a prompt-cache replay of the same utterance carries the same timings', async () => {
    const hitsBefore = await cacheHits();
    const client = await configured({ word_timings: true });
    const first = await speak(client, 'Your order has shipped, and it will arrive on Monday.', 1);
    const second = await speak(client, 'Your order has shipped, and it will arrive on Monday.', 2);
    expect(await cacheHits()).toBe(hitsBefore + 1);
    const timings = (log: WsTestClient['log']) => log.flatMap((entry) => (entry.kind === 'json' && entry.message.type === 'word_timings' ? [entry.message] : []));
    expect(timings(first.log).length).toBeGreaterThan(0);
    expect(timings(second.log)).toEqual(timings(first.log));
    expect(shape(second.log)).toEqual(shape(first.log));
  });
});

function cacheHits(): Promise<number> {
  return metricValue(server, 'raaga_prompt_cache_events_total{event="hit"}');
}
