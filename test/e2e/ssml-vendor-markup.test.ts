// SSML written for other vendors, through the real app and the embedded eSpeak engine over real sockets: a slow
// <prosody> span lengthens the audio, a -6 dB one lowers that span's loudness by 6 dB and leaves the rest alone, a
// <lang> span is spoken by the Hindi front end and engine, <audio> is refused in both modes, an unknown element is
// spoken and named (X-SSML-Ignored, ssml_ignored) by default and refused with ssml_strict, marks arrive in word_timings.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndOfUtteranceMessageSchema, WordTimingsMessageSchema } from '../../src/api/websocket-server-messages.js';
import { decodeAudio } from '../helpers/decode-audio.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { configMessage, openClient, type Json, type WsTestClient } from '../helpers/ws-client.js';

const RATE = 16000;
let server: TestServer;
let key: string;
let accountId: string;
let voice: string;
const clients: WsTestClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const account = await server.account('growth', 1_000_000);
  key = account.keys[0] as string;
  accountId = account.id;
  voice = server.deps.catalog.voices()[0]!.name;
});

afterAll(async () => {
  for (const client of clients) client.socket.terminate();
  await server?.close();
});

async function post(path: '/v1/tts/generate' | '/v1/tts/stream', text: string, extra: Json = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: authHeaders(key),
    body: JSON.stringify({ model_id: 'raaga-v1', voice, language: 'en-IN', text, output_format: 'pcm', sample_rate: RATE, ...extra }),
  });
  return response;
}

async function generate(text: string, extra: Json = {}) {
  const response = await post('/v1/tts/generate', text, extra);
  const json = (await response.json()) as Json;
  const samples = response.status === 200 ? (await decodeAudio(Buffer.from(json.audio as string, 'base64'), 'pcm', RATE)).samples : new Float32Array(0);
  return { status: response.status, json, samples, ignored: response.headers.get('x-ssml-ignored') };
}

/** 20 ms frames: loud when above -45 dBFS. */
function loudFrames(samples: Float32Array): boolean[] {
  const frame = RATE / 50;
  const loud: boolean[] = [];
  for (let i = 0; i + frame <= samples.length; i += frame) {
    let energy = 0;
    for (let k = i; k < i + frame; k++) energy += (samples[k] as number) ** 2;
    loud.push(10 * Math.log10(energy / frame + 1e-12) > -45);
  }
  return loud;
}

/** The samples before and after the first silence of at least `minMs` inside the audio (a sentence pause). */
function splitAtPause(samples: Float32Array, minMs: number): [Float32Array, Float32Array] {
  const loud = loudFrames(samples);
  const frame = RATE / 50;
  let run = 0;
  for (let i = loud.indexOf(true); i < loud.length; i++) {
    if (!loud[i]) {
      run++;
      continue;
    }
    if (run * 20 >= minMs) return [samples.subarray(0, (i - run) * frame), samples.subarray(i * frame)];
    run = 0;
  }
  throw new Error(`no pause of ${minMs} ms`);
}

/** RMS in dBFS of the speech (loud frames) only, so pauses and trims do not count. */
function speechDbfs(samples: Float32Array): number {
  const frame = RATE / 50;
  let energy = 0;
  let count = 0;
  loudFrames(samples).forEach((loud, index) => {
    if (!loud) return;
    for (let k = index * frame; k < (index + 1) * frame; k++) energy += (samples[k] as number) ** 2;
    count += frame;
  });
  return 10 * Math.log10(energy / Math.max(1, count) + 1e-12);
}

async function credits(): Promise<number> {
  return (await server.deps.store.getAccount(accountId))!.credits;
}

async function configured(extra: Json): Promise<WsTestClient> {
  const client = await openClient(server, key);
  clients.push(client);
  client.send(configMessage({ language: 'en-IN', output_format: 'pcm', sample_rate: RATE, ...extra }));
  await client.waitFor('configured');
  return client;
}

const SENTENCE = 'Your parcel will reach the Andheri office on Monday morning.';

describe('SSML from other vendors, spoken', () => {
  it('<prosody rate="slow"> makes the same words measurably longer, rate="fast" shorter', async () => {
    const plain = await generate(`<speak>${SENTENCE}</speak>`);
    const slow = await generate(`<speak><prosody rate="slow">${SENTENCE}</prosody></speak>`);
    const fast = await generate(`<speak><prosody rate="fast">${SENTENCE}</prosody></speak>`);
    expect([plain.status, slow.status, fast.status]).toEqual([200, 200, 200]);
    const seconds = (result: { json: Json }) => result.json.duration_seconds as number;
    // slow is 0.75 of the speed: about 1.33 times as long.
    expect(seconds(slow) / seconds(plain)).toBeGreaterThan(1.2);
    expect(seconds(fast) / seconds(plain)).toBeLessThan(0.9);
    // Markup is billed as input, as ever.
    expect(slow.json.characters_used).toBe([...`<speak><prosody rate="slow">${SENTENCE}</prosody></speak>`].length);
    expect(plain.ignored).toBeNull();
  });

  it('<prosody volume="-6dB"> lowers that sentence by 6 dB and leaves the one before it as it was', async () => {
    const first = 'Namaste, this is Raaga Bank calling.';
    const plain = await generate(`<speak>${first} ${SENTENCE}</speak>`);
    const soft = await generate(`<speak>${first} <prosody volume="-6dB">${SENTENCE}</prosody></speak>`);
    const [plainFirst, plainSecond] = splitAtPause(plain.samples, 200);
    const [softFirst, softSecond] = splitAtPause(soft.samples, 200);
    expect(Math.abs(speechDbfs(softFirst) - speechDbfs(plainFirst))).toBeLessThan(0.5);
    expect(speechDbfs(softSecond) - speechDbfs(plainSecond)).toBeGreaterThan(-7);
    expect(speechDbfs(softSecond) - speechDbfs(plainSecond)).toBeLessThan(-5);
  });

  it('<lang xml:lang="hi-IN"> speaks its span as a Hindi request would: Hindi front end, Hindi engine', async () => {
    const hindi = 'आपका बिल ₹500 है।';
    const spanned = await generate(`<speak><lang xml:lang="hi-IN">${hindi}</lang></speak>`);
    const asHindi = await generate(hindi, { language: 'hi-IN' });
    const asEnglish = await generate(hindi);
    expect(spanned.status).toBe(200);
    expect(spanned.ignored).toBeNull();
    // The same engine job (पाँच सौ रुपये, in Hindi) as the Hindi request; the English request reads ₹500 in English.
    expect(Math.abs(spanned.samples.length - asHindi.samples.length)).toBeLessThan(RATE / 100);
    expect(Math.abs(spanned.samples.length - asEnglish.samples.length)).toBeGreaterThan(RATE / 10);
  });

  it('a <lang> span`s words are timed on the WebSocket, and marks come with the words of their clause', async () => {
    const client = await configured({ word_timings: true });
    const text = '<speak><mark name="greeting"/>Hello <mark name="hindi"/><lang xml:lang="hi-IN">नमस्ते दोस्तों</lang> and goodbye.<mark name="end"/></speak>';
    client.send({ type: 'text', text });
    const end = EndOfUtteranceMessageSchema.parse(await client.waitFor('end_of_utterance'));
    expect(end).not.toHaveProperty('ssml_ignored');
    const timings = client.ofType('word_timings').map((message) => WordTimingsMessageSchema.parse(message));
    const words = timings.flatMap((message) => message.words);
    expect(words.map((word) => word.text)).toEqual(['Hello', 'नमस्ते', 'दोस्तों', 'and', 'goodbye.']);
    const marks = timings.flatMap((message) => message.marks ?? []);
    expect(marks.map((mark) => mark.name)).toEqual(['greeting', 'hindi', 'end']);
    const startOf = (text: string) => words.find((word) => word.text === text)!.start_ms;
    expect(marks[0]!.at_ms).toBe(startOf('Hello'));
    expect(marks[1]!.at_ms).toBe(startOf('नमस्ते'));
    expect(marks[2]!.at_ms).toBeGreaterThanOrEqual(words.at(-1)!.end_ms);
    expect(marks[2]!.at_ms).toBeLessThanOrEqual(Math.ceil(end.duration_seconds * 1000));
  });

  it('<audio> is refused in both modes, naming it, before anything is charged', async () => {
    const before = await credits();
    for (const ssml_strict of [false, true]) {
      const { status, json } = await generate('<speak>Welcome <audio src="https://example.com/chime.mp3">chime</audio></speak>', { ssml_strict });
      expect(status).toBe(422);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.message).toMatch(/<audio> at character 15 is not supported: Raaga fetches no audio/u);
    }
    expect(await credits()).toBe(before);
  });

  it('lenient by default: an unknown element and <phoneme> are spoken, dropped and named; strict refuses them', async () => {
    const text = '<speak><voice name="en-US-JennyNeural">Your <phoneme alphabet="ipa" ph="ˈɔːdə">order</phoneme> has shipped.</voice></speak>';
    const lenient = await generate(text);
    expect(lenient.status).toBe(200);
    expect(lenient.ignored).toBe('voice,phoneme');
    const spoken = await generate('<speak>Your order has shipped.</speak>');
    expect(Math.abs(lenient.samples.length - spoken.samples.length)).toBeLessThan(RATE / 100);

    const stream = await post('/v1/tts/stream', text);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('x-ssml-ignored')).toBe('voice,phoneme');
    await stream.arrayBuffer();

    const before = await credits();
    const strict = await generate(text, { ssml_strict: true });
    expect(strict.status).toBe(422);
    expect(strict.json.error.message).toMatch(/<voice> at character 7 is not supported/u);
    expect(await credits()).toBe(before);
    const badFlag = await generate('hi', { ssml_strict: 'yes' });
    expect(badFlag.status).toBe(422);
    expect(badFlag.json.error.message).toMatch(/ssml_strict/u);
  });

  it('the OpenAI route is lenient too and says what it dropped', async () => {
    const response = await fetch(`${server.url}/v1/audio/speech`, {
      method: 'POST',
      headers: authHeaders(key),
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: '<speak><amazon:effect name="whispered">Hello</amazon:effect> there</speak>', response_format: 'pcm' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ssml-ignored')).toBe('amazon:effect');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('on the WebSocket: ssml_ignored in end_of_utterance when something was dropped; ssml_strict in the config refuses', async () => {
    const lenient = await configured({});
    lenient.send({ type: 'text', text: '<speak><lang xml:lang="fr-FR">Bonjour</lang> Priya</speak>' });
    const end = EndOfUtteranceMessageSchema.parse(await lenient.waitFor('end_of_utterance'));
    expect(end.ssml_ignored).toEqual(['lang']);
    expect(lenient.frames.length).toBeGreaterThan(0);

    const strict = await configured({ ssml_strict: true });
    expect(strict.ofType('configured')[0]).toMatchObject({ ssml_strict: true });
    strict.send({ type: 'text', text: '<speak><lang xml:lang="fr-FR">Bonjour</lang> Priya</speak>' });
    const error = await strict.waitFor('error');
    expect(error.error.code).toBe('validation_error');
    expect(error.error.message).toMatch(/<lang xml:lang="fr-FR"> at character 7 is not one of the languages/u);
    // The session goes on: a text it can read is spoken.
    strict.send({ type: 'text', text: '<speak><prosody rate="slow">Priya</prosody></speak>' });
    const spoken = EndOfUtteranceMessageSchema.parse(await strict.waitFor('end_of_utterance'));
    expect(spoken).not.toHaveProperty('ssml_ignored');
    expect(spoken.duration_seconds).toBeGreaterThan(0);
  });
});
