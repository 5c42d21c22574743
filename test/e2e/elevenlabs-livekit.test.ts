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
  // 'error': the plugin warns of every message for a context it has closed (a barge-in's tail), at length.
  initializeLogger({ pretty: false, level: 'error' });
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
  it('listVoices(): the presets, by their names', async () => {
    const tts = plugin();
    const voices = await tts.listVoices();
    expect(voices.map((voice) => voice.id)).toContain('priya');
    expect(voices.find((voice) => voice.id === 'priya')).toMatchObject({ name: 'priya', category: 'premade' });
    await tts.close();
  });

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
      // The stream's end marker.
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
    await tts.close();
  });

  it('barge-in: closing a stream mid-speech (its context) leaves the connection to speak the next turn', async () => {
    const tts = plugin();
    const interrupted = tts.stream();
    interrupted.pushText('This is a long answer that goes on and on, and the caller interrupts it after the first words. '.repeat(5));
    interrupted.flush();
    for await (const event of interrupted) {
      if (typeof event === 'symbol' || event.frame.samplesPerChannel > 0) break;
    }
    interrupted.close();
    const next = tts.stream();
    next.pushText('Haan ji, boliye. ');
    next.flush();
    next.endInput();
    let samples = 0;
    for await (const event of next) {
      if (typeof event === 'symbol') break;
      samples += event.frame.samplesPerChannel;
      if (event.final) break;
    }
    expect(samples / 22050).toBeGreaterThan(0.3);
    await tts.close();
  });
});
