// A Flite pack in the server's voice bank over real sockets: the manifest gives one preset voice's en-IN to a Flite
// voice (Flite's own slt, dumped at test time), /v1/tts/generate speaks it (the ledger records flite), and on a phone
// call a key pressed mid-greeting reports what the caller was confirmed to hear, cut where a word ends.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../helpers/decode-audio.js';
import { FakeAgent } from '../helpers/fake-agent.js';
import { useFliteVoices } from '../helpers/flite-voices.js';
import { ALL_TIME } from '../helpers/store-contract.js';
import { placeCall, unsignedAccount } from '../helpers/telephony.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeManifestWithPacks } from '../helpers/voice-packs.js';

const voices = useFliteVoices(['slt']);
const GREETING = 'Welcome to Raaga Bank. Your card ending in four two seven one has been blocked for your safety. Please hold the line.';
let server: TestServer;

beforeAll(async () => {
  await writeManifestWithPacks(voices.dir, { priya: { 'en-IN': { engine: 'flite', path: voices.path('slt') } } });
  server = await startTestServer({ RAAGA_MODELS_DIR: voices.dir, ONNX_WORKERS: '1', TTS_WORKERS: '1' });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('a Flite pack in the server', () => {
  it('speaks its pair and the ledger records flite; the voice\'s other languages stay eSpeak', async () => {
    const account = await server.account('growth', 10_000);
    const generate = async (language: string) => {
      const response = await fetch(`${server.url}/v1/tts/generate`, {
        method: 'POST',
        headers: authHeaders(account.keys[0] as string),
        body: JSON.stringify({ model_id: 'raaga-v1', voice: 'priya', language, text: 'Your order has shipped.', output_format: 'wav', sample_rate: 16000 }),
      });
      expect(response.status).toBe(200);
      return decodeAudio(Buffer.from(((await response.json()) as { audio: string }).audio, 'base64'), 'wav', 16000);
    };
    const english = await generate('en-IN');
    expect(english.samples.length / 16000).toBeGreaterThan(0.8);
    await generate('hi-IN');
    const usage = await server.deps.store.listUsage(account.id, ALL_TIME);
    expect(usage.map((record) => [record.language, record.engine])).toEqual([
      ['en-IN', 'flite'],
      ['hi-IN', 'espeak'],
    ]);
  });

  it('a key pressed mid-greeting reports the heard text cut at a word', async () => {
    const agent = await FakeAgent.start();
    try {
      const account = await unsignedAccount(server);
      const call = await placeCall(server, account.id, {
        query: { voice: 'priya', language: 'en-IN', greeting: GREETING, agent_url: agent.url, barge_in: 'dtmf' },
      });
      // The key goes once the caller has heard the first sentence (its mark came back), however long synthesis
      // took: what was heard counts only once the provider confirms it played. The rest of the greeting is seconds.
      await call.peer.waitFor('mark_echoed', 55_000);
      call.peer.sendDtmf('5');
      const interrupted = await agent.waitFor('interrupted');
      const heard = String(interrupted.heard_text);
      expect(interrupted).toMatchObject({ utterance_id: 'greeting', cause: 'dtmf' });
      expect(heard.length).toBeGreaterThan(0);
      expect(heard.length).toBeLessThan(GREETING.length);
      expect(GREETING.startsWith(heard)).toBe(true);
      // Cut where a word ends, not inside one.
      expect(GREETING[heard.length]).toMatch(/[\s.,]/);
      await call.peer.stop();
    } finally {
      await agent.close();
    }
  });
});
