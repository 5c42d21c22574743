// ElevenLabs' dialect driven end to end by LiveKit's own ElevenLabs plugin (@livekit/agents-plugin-elevenlabs) with
// its baseURL on a Raaga test server: `synthesize()` over HTTP streaming and `stream()` over multi-stream-input with
// pushText/flush. The audio must decode as the format's PCM, and the timed words the plugin reports must be in order
// and inside the audio.

import { initializeLogger } from '@livekit/agents';
import { TTS } from '@livekit/agents-plugin-elevenlabs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  initializeLogger({ pretty: false, level: 'warn' });
  server = await startTestServer({ TTS_WORKERS: '1' }, { vad: null });
  const account = await server.account('growth', 100_000);
  key = account.keys[0] as string;
});
afterAll(async () => {
  await server?.close();
});

function plugin(): TTS {
  return new TTS({ apiKey: key, baseURL: `${server.url}/elevenlabs/v1`, voiceId: 'priya', encoding: 'pcm_22050', language: 'en' });
}

describe('LiveKit ElevenLabs plugin against Raaga', () => {
  it('synthesize(): the HTTP stream decodes to speech at the plugin rate', async () => {
    const tts = plugin();
    const frames = [];
    for await (const audio of tts.synthesize('Your order has been shipped and will reach you tomorrow.')) frames.push(audio.frame);
    const samples = frames.reduce((sum, frame) => sum + frame.samplesPerChannel, 0);
    expect(frames[0]?.sampleRate).toBe(22050);
    // A ten-word sentence: between one and ten seconds of audio.
    expect(samples / 22050).toBeGreaterThan(1);
    expect(samples / 22050).toBeLessThan(10);
    await tts.close();
  });

  it('stream(): pushText pieces and flush give audio and timed words in order, inside the audio', async () => {
    const tts = plugin();
    const stream = tts.stream();
    for (const piece of ['Namaste', ', your ', 'parcel is', ' on its way. ', 'It will arrive', ' by five ', 'in the evening.']) stream.pushText(piece);
    stream.flush();
    stream.endInput();
    let samples = 0;
    const words: { text: string; startTime: number; endTime: number }[] = [];
    for await (const event of stream) {
      if (event === TTS.prototype.constructor /* never */) continue;
      if (typeof event === 'symbol') break;
      samples += event.frame.samplesPerChannel;
      for (const word of event.timedTranscripts ?? []) words.push({ text: String(word.text), startTime: Number(word.startTime), endTime: Number(word.endTime) });
      if (event.final) break;
    }
    const audioSeconds = samples / 22050;
    expect(audioSeconds).toBeGreaterThan(2);
    expect(words.map((word) => word.text.trim()).join(' ')).toContain('parcel');
    for (let i = 1; i < words.length; i++) expect(words[i]!.startTime).toBeGreaterThanOrEqual(words[i - 1]!.startTime);
    for (const word of words) {
      expect(word.endTime).toBeGreaterThanOrEqual(word.startTime);
      expect(word.endTime).toBeLessThanOrEqual(audioSeconds + 0.05);
    }
    console.log(JSON.stringify({ audioSeconds, words }));
    await tts.close();
  });
});
