// ElevenLabs' HTTP text-to-speech on a real Raaga: the whole file, the stream, and both with timestamps (each
// character's times in seconds, inside the audio), the usage ledger's debit, and every refusal in ElevenLabs'
// envelope with a status its clients act on (credits are 402, never retried).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ TTS_WORKERS: '1' }, { vad: null });
});
afterAll(async () => {
  await server?.close();
});

/** A range end past any record's time: the ledger is read whole, with no clock in the test. */
const END_OF_2099_MS = Date.UTC(2100, 0, 1);

const TEXT = 'Your OTP is 4 5 6 7. Do not share it.';

function post(key: string, path: string, body: object, query = 'output_format=pcm_16000'): Promise<Response> {
  return fetch(`${server.url}/elevenlabs/v1/text-to-speech/${path}?${query}`, {
    method: 'POST',
    headers: { 'xi-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface Alignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

function checkAlignment(alignment: Alignment, text: string, audioSeconds: number): void {
  expect(alignment.characters.join('')).toBe(text);
  const starts = alignment.character_start_times_seconds;
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
  alignment.character_end_times_seconds.forEach((end, i) => expect(end).toBeGreaterThanOrEqual(starts[i]!));
  expect(Math.max(...alignment.character_end_times_seconds)).toBeLessThanOrEqual(audioSeconds + 0.001);
}

describe('ElevenLabs HTTP text-to-speech', () => {
  it('streams PCM at the asked rate, debits the text and records the usage', async () => {
    const { id, keys } = await server.account('growth', 10_000);
    const response = await post(keys[0]!, 'priya/stream', { text: TEXT, model_id: 'eleven_flash_v2_5', language_code: 'en' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length % 2).toBe(0);
    expect(bytes.length / 2 / 16000).toBeGreaterThan(1);
    await expect.poll(async () => (await server.deps.store.getAccount(id))!.credits, { timeout: 10_000 }).toBe(10_000 - [...TEXT].length);
  });

  it('stream/with-timestamps: one JSON object a line, audio and characters timed on one axis', async () => {
    const { keys } = await server.account('growth', 10_000);
    const response = await post(keys[0]!, 'priya/stream/with-timestamps', { text: TEXT, language_code: 'en' });
    expect(response.status).toBe(200);
    const lines = (await response.text()).split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line));
    expect(lines.length).toBeGreaterThan(1);
    const audio = Buffer.concat(lines.map((line) => Buffer.from(line.audio_base64, 'base64')));
    const alignments = lines.flatMap((line) => (line.alignment ? [line.alignment as Alignment] : []));
    const joined: Alignment = {
      characters: alignments.flatMap((a) => a.characters),
      character_start_times_seconds: alignments.flatMap((a) => a.character_start_times_seconds),
      character_end_times_seconds: alignments.flatMap((a) => a.character_end_times_seconds),
    };
    checkAlignment(joined, TEXT, audio.length / 2 / 16000);
  });

  it('with-timestamps (whole): one object; the plain route returns the whole file', async () => {
    const { keys } = await server.account('growth', 10_000);
    const timed = await post(keys[0]!, 'priya/with-timestamps', { text: TEXT, language_code: 'en' });
    expect(timed.status).toBe(200);
    const body = (await timed.json()) as { audio_base64: string; alignment: Alignment };
    const audio = Buffer.from(body.audio_base64, 'base64');
    checkAlignment(body.alignment, TEXT, audio.length / 2 / 16000);

    const whole = await post(keys[0]!, 'priya', { text: TEXT, language_code: 'en' }, 'output_format=ulaw_8000');
    expect(whole.headers.get('content-type')).toBe('audio/basic');
    const mulaw = new Uint8Array(await whole.arrayBuffer());
    expect(Number(whole.headers.get('content-length'))).toBe(mulaw.length);
    // The same utterance at 8 kHz, one byte a sample: as long as the 16 kHz PCM, within a few milliseconds.
    expect(Math.abs(mulaw.length / 8000 - audio.length / 2 / 16000)).toBeLessThan(0.01);
  });

  it('reads the language from the script when language_code is absent', async () => {
    const { id, keys } = await server.account('growth', 10_000);
    const response = await post(keys[0]!, 'priya/with-timestamps', { text: 'आपका ऑर्डर तैयार है।' });
    expect(response.status).toBe(200);
    const records = async () => (await server.deps.store.listUsagePage(id, { fromMs: 0, toMs: END_OF_2099_MS }, { limit: 10 })).records;
    await expect.poll(async () => (await records()).length, { timeout: 10_000 }).toBe(1);
    expect((await records())[0]).toMatchObject({ endpoint: 'elevenlabs_stream', language: 'hi-IN', voice: 'priya' });
  });

  it('refuses in its own envelope: bad key 401, bad format and text over the limit 400, credits 402', async () => {
    const { keys } = await server.account('free', 5);
    const badKey = await post('rk_live_nope', 'priya/stream', { text: TEXT });
    expect(badKey.status).toBe(401);
    expect(await badKey.json()).toMatchObject({ detail: { status: 'invalid_api_key' } });

    const format = await post(keys[0]!, 'priya/stream', { text: TEXT }, 'output_format=aac_44100');
    expect(format.status).toBe(400);
    expect(((await format.json()) as { detail: { message: string } }).detail.message).toContain('output_format');

    const long = await post(keys[0]!, 'priya/stream', { text: 'a'.repeat(3001) });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ detail: { status: 'text_too_long' } });

    const missing = await post(keys[0]!, 'priya/stream', { model_id: 'eleven_flash_v2_5' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { detail: { message: string } }).detail.message).toContain("'text'");

    const credits = await post(keys[0]!, 'priya/stream', { text: TEXT, language_code: 'en' });
    expect(credits.status).toBe(402);
    expect(await credits.json()).toMatchObject({ detail: { status: 'insufficient_credits' } });

    const voice = await post(keys[0]!, 'nobody/stream', { text: 'hi', language_code: 'en' });
    expect(voice.status).toBe(400);
    expect(await voice.json()).toMatchObject({ detail: { status: 'voice_language_not_found' } });
  });
});
