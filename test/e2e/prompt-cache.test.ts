// The prompt cache on every endpoint, against a real server whose engine counts its jobs: the same request again is
// served without an engine job, with the same bytes, headers and billing; `Cache-Control: no-store` bypasses it;
// a custom voice's audio is never served to another account; a barge-in on a cached greeting behaves as on a
// synthesized one; the metrics count hits, misses and bytes.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVoiceCatalog } from '../../src/core/voice-catalog.js';
import { EspeakEngine } from '../../src/engine/espeak-engine.js';
import type { PcmClip, SynthesisJob, TtsEngine } from '../../src/engine/tts-engine.js';
import type { LanguageCode } from '../../src/languages.js';
import { FakeAgent } from '../helpers/fake-agent.js';
import { eventually, placeCall, unsignedAccount } from '../helpers/telephony.js';
import { metricValue } from '../helpers/metrics.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { configMessage, wsUrl, WsTestClient } from '../helpers/ws-client.js';

class CountingEngine implements TtsEngine {
  jobs = 0;
  constructor(private readonly inner: TtsEngine) {}
  get name() {
    return this.inner.name;
  }
  start = () => this.inner.start();
  isReady = () => this.inner.isReady();
  load = () => this.inner.load();
  close = () => this.inner.close();
  audioSource = (voiceName: string, language: LanguageCode) => this.inner.audioSource(voiceName, language);
  kindFor = (voiceName: string, language: LanguageCode) => this.inner.kindFor(voiceName, language);
  async synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    this.jobs++;
    return this.inner.synthesize(job, signal);
  }
}

let server: TestServer;
let engine: CountingEngine;
let key: string;
let accountId: string;
const cp = (text: string) => [...text].length;
const PROMPT = 'नमस्ते, राग बैंक में आपका स्वागत है। कृपया लाइन पर बने रहें।';

beforeAll(async () => {
  const catalog = loadVoiceCatalog('models/raaga-v1/manifest.json');
  engine = new CountingEngine(new EspeakEngine({ workers: 2, maxQueue: 64, voices: catalog.embeddedVoices() }));
  server = await startTestServer({ PROMPT_CACHE_MAX_BYTES: String(16 * 2 ** 20) }, { engine, catalog });
  await server.deps.telephony!.vad!.ready();
  const account = await server.account('growth', 1_000_000);
  key = account.keys[0] as string;
  accountId = account.id;
});
afterAll(async () => {
  await server?.close();
});

/** The account whose IVR the call tests play: its prompts repeat across its calls (the cache is per account). */
let ivr: { id: string; keys: string[] } | undefined;
const ivrAccount = async () => (ivr ??= await unsignedAccount(server));

const balance = async (id = accountId) => (await server.deps.store.getAccount(id))!.credits;

function post(path: string, body: object, headers: Record<string, string> = {}, apiKey = key) {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { ...authHeaders(apiKey), ...headers }, body: JSON.stringify(body) });
}

const metric = (name: string) => metricValue(server, name);

describe('prompt cache', () => {
  it('generate: the second identical request runs no engine job, returns the same audio and bills the same', async () => {
    const body = { model_id: 'raaga-v1', voice: 'meera', language: 'hi-IN', text: PROMPT, output_format: 'wav', sample_rate: 16000 };
    const hitsBefore = await metric('raaga_prompt_cache_events_total{event="hit"}');
    const before = await balance();
    const first = await post('/v1/tts/generate', body);
    expect(first.status).toBe(200);
    const firstJson = (await first.json()) as { audio: string; duration_seconds: number; characters_used: number };
    const jobs = engine.jobs;
    expect(jobs).toBeGreaterThan(0);
    const second = await post('/v1/tts/generate', body);
    const secondJson = (await second.json()) as typeof firstJson;
    expect(engine.jobs).toBe(jobs);
    expect(secondJson).toEqual(firstJson);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(before - (await balance())).toBe(2 * cp(PROMPT));
    expect(await metric('raaga_prompt_cache_events_total{event="hit"}')).toBe(hitsBefore + 1);
    expect(await metric('raaga_prompt_cache_bytes{tier="memory"}')).toBeGreaterThanOrEqual(Buffer.from(firstJson.audio, 'base64').length);
    // Another format, rate or speed is other audio: synthesized.
    await post('/v1/tts/generate', { ...body, sample_rate: 8000 });
    expect(engine.jobs).toBeGreaterThan(jobs);
  });

  it('stream: replayed bytes equal the synthesized stream; Cache-Control: no-store synthesizes again', async () => {
    const body = { model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text: 'आपका ऑर्डर कल शाम तक पहुँच जाएगा।', output_format: 'pcm', sample_rate: 8000 };
    const first = Buffer.from(await (await post('/v1/tts/stream', body)).arrayBuffer());
    const jobs = engine.jobs;
    const second = Buffer.from(await (await post('/v1/tts/stream', body)).arrayBuffer());
    expect(engine.jobs).toBe(jobs);
    expect(second.equals(first)).toBe(true);
    const fresh = Buffer.from(await (await post('/v1/tts/stream', body, { 'cache-control': 'no-store' })).arrayBuffer());
    expect(engine.jobs).toBeGreaterThan(jobs);
    expect(fresh.length).toBeGreaterThan(0);
  });

  it('WebSocket: the same sentence again is replayed; a session opened with Cache-Control: no-store is not', async () => {
    const text = 'कृपया एक से पाँच तक दबाकर अपनी रेटिंग दें।';
    const run = async (headers: Record<string, string>) => {
      const client = new WsTestClient(new WebSocket(wsUrl(server), { headers: { authorization: `Bearer ${key}`, ...headers } }));
      await client.opened;
      client.send(configMessage({ voice: 'meera', output_format: 'mulaw', sample_rate: 8000 }));
      await client.waitFor('configured');
      const jobsBefore = engine.jobs;
      client.send({ type: 'text', text });
      const end = await client.waitFor('end_of_utterance');
      const audio = Buffer.concat(client.frames);
      client.socket.close();
      return { audio, end, jobs: engine.jobs - jobsBefore };
    };
    const first = await run({});
    const second = await run({});
    const bypass = await run({ 'cache-control': 'no-store' });
    expect(second.jobs).toBe(0);
    expect(second.audio.equals(first.audio)).toBe(true);
    expect(second.end.characters_used).toBe(first.end.characters_used);
    expect(bypass.jobs).toBeGreaterThan(0);
  });

  it("one account's cached preset-voice audio is never served to another (no timing oracle between tenants)", async () => {
    const other = await server.account('growth', 1_000_000);
    const body = { model_id: 'raaga-v1', voice: 'priya', language: 'en-IN', text: 'Your one time password is 4 8 2 9 1 3.', output_format: 'pcm', sample_rate: 8000 };
    expect((await post('/v1/tts/generate', body)).status).toBe(200);
    const jobs = engine.jobs;
    // The other tenant guesses the same text: synthesized (as slow as any miss), not a hit.
    expect((await post('/v1/tts/generate', body, {}, other.keys[0])).status).toBe(200);
    expect(engine.jobs).toBeGreaterThan(jobs);
    // Each account's own repeat is its hit.
    const afterOther = engine.jobs;
    expect((await post('/v1/tts/generate', body)).status).toBe(200);
    expect((await post('/v1/tts/generate', body, {}, other.keys[0])).status).toBe(200);
    expect(engine.jobs).toBe(afterOther);
  });

  it('PROMPT_CACHE_SHARED=true shares preset-voice audio across accounts (the operator\'s opt-in)', async () => {
    const catalog = loadVoiceCatalog('models/raaga-v1/manifest.json');
    const counting = new CountingEngine(new EspeakEngine({ workers: 1, maxQueue: 8, voices: catalog.embeddedVoices() }));
    const shared = await startTestServer({ PROMPT_CACHE_MAX_BYTES: String(2 ** 20), PROMPT_CACHE_SHARED: 'true' }, { engine: counting, catalog, vad: null });
    try {
      const [a, b] = [await shared.account('growth', 1000), await shared.account('growth', 1000)];
      const body = JSON.stringify({ model_id: 'raaga-v1', voice: 'priya', language: 'en-IN', text: 'Welcome to Raaga Bank.', output_format: 'pcm', sample_rate: 8000 });
      const generate = (apiKey: string) => fetch(`${shared.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(apiKey), body });
      expect((await generate(a.keys[0]!)).status).toBe(200);
      const jobs = counting.jobs;
      expect((await generate(b.keys[0]!)).status).toBe(200);
      expect(counting.jobs).toBe(jobs);
    } finally {
      await shared.close();
    }
  });

  it("a custom voice's cached audio is never served to another account with an identical voice", async () => {
    const other = await server.account('growth', 1_000_000);
    const mine = await server.deps.store.putCustomVoice({ id: 'vc_cache_mine', accountId, name: 'mine', baseVoice: 'aarav', pitchShiftSemitones: 2, rateMultiplier: 1, createdAtMs: 1 });
    const theirs = await server.deps.store.putCustomVoice({ id: 'vc_cache_theirs', accountId: other.id, name: 'theirs', baseVoice: 'aarav', pitchShiftSemitones: 2, rateMultiplier: 1, createdAtMs: 1 });
    void mine;
    void theirs;
    const body = (voice: string) => ({ model_id: 'raaga-v1', voice, language: 'hi-IN', text: 'यह आपकी निजी आवाज़ है।', output_format: 'pcm', sample_rate: 8000 });
    expect((await post('/v1/tts/generate', body('vc_cache_mine'))).status).toBe(200);
    const jobs = engine.jobs;
    expect((await post('/v1/tts/generate', body('vc_cache_mine'))).status).toBe(200);
    expect(engine.jobs).toBe(jobs);
    expect((await post('/v1/tts/generate', body('vc_cache_theirs'), {}, other.keys[0])).status).toBe(200);
    expect(engine.jobs).toBeGreaterThan(jobs);
  });

  it('a call: a greeting heard whole is cached; cut by a key press on the next call it behaves as a synthesized one', async () => {
    // Only an utterance synthesized whole is kept (a cut one never finished), so the first call hears it to the end.
    const first = await FakeAgent.start();
    try {
      const acct = await ivrAccount();
      const placed = await placeCall(server, acct.id, { query: { greeting: PROMPT, agent_url: first.url } });
      await first.waitFor('utterance_played', { where: (event) => event.utterance_id === 'greeting' });
      await placed.peer.stop();
    } finally {
      await first.close();
    }
    const agent = await FakeAgent.start();
    try {
      const acct = await ivrAccount();
      const jobsBefore = engine.jobs;
      const placed = await placeCall(server, acct.id, { query: { greeting: PROMPT, agent_url: agent.url, barge_in: 'dtmf' }, dtmf: [{ digit: '1', atMs: 1500 }] });
      await placed.peer.waitFor('clear_received', 20_000);
      const interrupted = await agent.waitFor('interrupted');
      expect(engine.jobs).toBe(jobsBefore);
      expect(interrupted).toMatchObject({ utterance_id: 'greeting', cause: 'dtmf' });
      expect(interrupted.played_ms).toBeGreaterThan(0);
      expect(PROMPT.startsWith(String(interrupted.heard_text))).toBe(true);
      expect(String(interrupted.heard_text).length).toBeLessThan(PROMPT.length);
      // Nothing of the cut greeting after the clear: the reply is the next thing the caller gets.
      const clearAt = placed.peer.inbound.findIndex((entry) => entry.event === 'clear');
      const beforeReply = placed.peer.inbound.length;
      agent.send({ type: 'text', text: 'जी, बताइए।', utterance_id: 'reply' });
      await agent.waitFor('utterance_played', { where: (event) => event.utterance_id === 'reply' });
      expect(placed.peer.inbound.slice(clearAt + 1, beforeReply)).toEqual([]);
      expect(agent.events.some((event) => event.type === 'utterance_played' && event.utterance_id === 'greeting')).toBe(false);
      await placed.peer.stop();
      // Billed as a cut synthesized greeting is: the chunks produced before the cut (here the session had taken both
      // of the greeting's sentences before the key came), and the reply.
      const billedToCall = async () =>
        (await server.deps.store.listUsage(acct.id, { fromMs: 0, toMs: Number.MAX_SAFE_INTEGER }))
          .filter((record) => record.callId === placed.callSid)
          .reduce((sum, record) => sum + record.characters, 0);
      await eventually(async () => (await billedToCall()) >= cp('जी, बताइए।'), 'the call billed');
      const billed = await billedToCall();
      expect(billed).toBeGreaterThanOrEqual(cp('जी, बताइए।'));
      expect(billed).toBeLessThanOrEqual(cp(PROMPT) + cp('जी, बताइए।'));
    } finally {
      await agent.close();
    }
  });

  it('a menu prompt every caller cuts short is finished in the background once, and served from the cache after', async () => {
    const menu = 'हिंदी के लिए एक दबाएँ। अंग्रेज़ी के लिए दो दबाएँ। अपने खाते की जानकारी के लिए तीन दबाएँ।';
    const cutCall = async () => {
      const acct = await ivrAccount();
      const placed = await placeCall(server, acct.id, { query: { greeting: menu, barge_in: 'dtmf' }, dtmf: [{ digit: '1', atMs: 800 }] });
      await placed.peer.waitFor('clear_received', 20_000);
      await placed.peer.stop();
    };
    await cutCall();
    await server.deps.synthesis.promptCache!.flushed();
    const jobsBefore = engine.jobs;
    await cutCall();
    expect(engine.jobs).toBe(jobsBefore);
    expect(await metric('raaga_prompt_cache_events_total{event="fill"}')).toBeGreaterThanOrEqual(1);
  });

  it("a call with cache=false synthesizes a greeting the cache holds", async () => {
    const agent = await FakeAgent.start();
    try {
      const acct = await ivrAccount();
      // PROMPT is cached by the call test above (for this account).
      const jobsBefore = engine.jobs;
      const placed = await placeCall(server, acct.id, { query: { greeting: PROMPT, agent_url: agent.url, cache: 'false' } });
      await agent.waitFor('utterance_played', { where: (event) => event.utterance_id === 'greeting' });
      expect(engine.jobs).toBeGreaterThan(jobsBefore);
      await placed.peer.stop();
    } finally {
      await agent.close();
    }
  });

  it('with a disk tier, a prompt synthesized before a restart is served after it without the engine', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'raaga-cache-restart-'));
    const body = { model_id: 'raaga-v1', voice: 'meera', language: 'ta-IN', text: 'வணக்கம், உங்கள் அழைப்பு எங்களுக்கு முக்கியம்.', output_format: 'mulaw', sample_rate: 8000 };
    const catalog = loadVoiceCatalog('models/raaga-v1/manifest.json');
    const env = { PROMPT_CACHE_MAX_BYTES: String(2 ** 20), PROMPT_CACHE_DISK_BYTES: String(4 * 2 ** 20) };
    try {
      const before = await startTestServer(env, { dataDir });
      const account = await before.account('growth', 1000);
      const first = (await (await fetch(`${before.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(account.keys[0]!), body: JSON.stringify(body) })).json()) as { audio: string };
      await before.deps.synthesis.promptCache!.flushed();
      await before.close({ keepData: true });

      const counting = new CountingEngine(new EspeakEngine({ workers: 1, maxQueue: 8, voices: catalog.embeddedVoices() }));
      const after = await startTestServer(env, { dataDir, engine: counting, catalog });
      try {
        const second = (await (await fetch(`${after.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(account.keys[0]!), body: JSON.stringify(body) })).json()) as { audio: string };
        expect(counting.jobs).toBe(0);
        expect(second.audio).toBe(first.audio);
        expect(await metricValue(after, 'raaga_prompt_cache_events_total{event="disk_hit"}')).toBe(1);
        expect(await metricValue(after, 'raaga_prompt_cache_bytes{tier="disk"}')).toBeGreaterThan(Buffer.from(first.audio, 'base64').length);
      } finally {
        await after.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
