// The text front end is really in the synthesis path: over real HTTP with the real engine, written amounts sound
// like their spelled-out words, phone numbers are read digit by digit with pauses, SSML breaks are silence of the
// asked length, malformed SSML is refused before anything is charged, and markup is billed as input.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../helpers/decode-audio.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';

const RATE = 16000;
let server: TestServer;
let key: string;
let accountId: string;

beforeAll(async () => {
  server = await startTestServer();
  const account = await server.account('growth', 1_000_000);
  key = account.keys[0] as string;
  accountId = account.id;
});

afterAll(async () => {
  await server?.close();
});

async function generate(text: string, language = 'hi-IN') {
  const response = await fetch(`${server.url}/v1/tts/generate`, {
    method: 'POST',
    headers: authHeaders(key),
    body: JSON.stringify({ model_id: 'raaga-v1', voice: server.deps.catalog.voices()[0]!.name, language, text, output_format: 'pcm', sample_rate: RATE }),
  });
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, json, seconds: json.duration_seconds as number };
}

/** Silent stretches of at least `minMs` strictly inside the audio (20 ms frames below -45 dBFS). */
async function innerPauses(base64: string, minMs: number): Promise<number> {
  const { samples } = await decodeAudio(Buffer.from(base64, 'base64'), 'pcm', RATE);
  const frame = RATE / 50;
  const loud: boolean[] = [];
  for (let i = 0; i + frame <= samples.length; i += frame) {
    let energy = 0;
    for (let k = i; k < i + frame; k++) energy += (samples[k] as number) ** 2;
    loud.push(10 * Math.log10(energy / frame + 1e-12) > -45);
  }
  const first = loud.indexOf(true);
  const last = loud.lastIndexOf(true);
  let pauses = 0;
  let run = 0;
  for (let i = first; i <= last; i++) {
    if (loud[i]) {
      if (run * 20 >= minMs) pauses++;
      run = 0;
    } else run++;
  }
  return pauses;
}

describe('text front end in the synthesis path', () => {
  it('reads ₹1,250.50 exactly like its spelled-out Hindi words', async () => {
    const written = await generate('₹1,250.50');
    const spelled = await generate('एक हज़ार दो सौ पचास रुपये पचास पैसे');
    expect(written.status).toBe(200);
    expect(written.json.characters_used).toBe(9);
    expect(Math.abs(written.seconds - spelled.seconds) / spelled.seconds).toBeLessThan(0.1);
  });

  it('reads 9876543210 digit by digit with a grouping pause, much longer than 9', async () => {
    const phone = await generate('9876543210');
    const single = await generate('9');
    expect(phone.seconds).toBeGreaterThan(single.seconds * 4);
    const digits = await generate('नौ आठ सात छह पाँच, चार तीन दो एक शून्य');
    expect(Math.abs(phone.seconds - digits.seconds) / digits.seconds).toBeLessThan(0.1);
    expect(await innerPauses(phone.json.audio as string, 100)).toBeGreaterThanOrEqual(1);
  });

  it('turns an SSML break into silence of that length', async () => {
    const long = await generate('<speak>नमस्ते<break time="1500ms"/>धन्यवाद</speak>');
    const none = await generate('<speak>नमस्ते<break time="0ms"/>धन्यवाद</speak>');
    expect(long.status).toBe(200);
    expect(long.seconds - none.seconds).toBeCloseTo(1.5, 1);
    expect(long.json.characters_used).toBe([...'<speak>नमस्ते<break time="1500ms"/>धन्यवाद</speak>'].length);
  });

  it('refuses malformed SSML with validation_error before charging anything', async () => {
    const before = (await server.deps.store.getAccount(accountId))!.credits;
    const { status, json } = await generate('<speak>नमस्ते <say-as interpret-as="date">कल</say-as></speak>');
    expect(status).toBe(422);
    const error = json.error as { code: string; message: string };
    expect(error.code).toBe('validation_error');
    expect(error.message).toMatch(/say-as interpret-as="date".*not a date/u);
    expect((await server.deps.store.getAccount(accountId))!.credits).toBe(before);
  });

  it('speaks a < in plain text instead of taking it for markup', async () => {
    const { status } = await generate('a < b', 'en-IN');
    expect(status).toBe(200);
  });
});
