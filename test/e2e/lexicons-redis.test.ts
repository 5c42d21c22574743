// Two Raaga instances (two apps, each with its own engine, Redis connection and copy of the lexicons) sharing one Redis:
// a lexicon written through one is what the other's engine is given, without a restart, and so is each change after
// it; a lexicon deleted through one is refused by the other.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVoiceCatalog } from '../../src/core/voice-catalog.js';
import { EspeakEngine } from '../../src/engine/espeak-engine.js';
import type { PcmClip, SynthesisJob, TtsEngine } from '../../src/engine/tts-engine.js';
import type { LanguageCode } from '../../src/languages.js';
import { deleteKeys, uniquePrefix, useTestRedis } from '../helpers/redis-server.js';
import { eventually } from '../helpers/telephony.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';

const redis = await useTestRedis('lexicons across instances');

/** The real engine, remembering the text of each job. */
class RecordingEngine implements TtsEngine {
  readonly texts: string[] = [];
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
  synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    this.texts.push(job.text);
    return this.inner.synthesize(job, signal);
  }
}

describe.skipIf(!redis.url)('lexicons on two instances sharing one Redis', () => {
  const keyPrefix = uniquePrefix('lexicons');
  let a: TestServer;
  let b: TestServer;
  let engineB: RecordingEngine;
  let key: string;
  beforeAll(async () => {
    const env = { REDIS_URL: redis.url ?? '', REDIS_KEY_PREFIX: keyPrefix, TTS_WORKERS: '1' };
    const catalog = loadVoiceCatalog('models/raaga-v1/manifest.json');
    engineB = new RecordingEngine(new EspeakEngine({ workers: 1, maxQueue: 64, voices: catalog.embeddedVoices() }));
    [a, b] = await Promise.all([startTestServer(env), startTestServer(env, { engine: engineB, catalog })]);
    key = (await a.account('growth', 1_000_000)).keys[0] as string;
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await deleteKeys(redis.url ?? '', keyPrefix);
  });

  /** What B's engine is given for the text, with the lexicons named. */
  async function spokenOnB(text: string, lexicons: string[]): Promise<{ status: number; texts: string[] }> {
    const from = engineB.texts.length;
    const response = await fetch(`${b.url}/v1/tts/generate`, {
      method: 'POST',
      headers: authHeaders(key),
      body: JSON.stringify({ model_id: 'raaga-v1', voice: b.deps.catalog.voices()[0]!.name, language: 'hi-IN', text, output_format: 'pcm', lexicons }),
    });
    await response.arrayBuffer();
    return { status: response.status, texts: engineB.texts.slice(from) };
  }

  const put = (entries: object[]) =>
    fetch(`${a.url}/v1/lexicons/brands`, { method: 'PUT', headers: authHeaders(key), body: JSON.stringify({ entries }) }).then((response) => response.status);

  it('a lexicon written through A is in force on B, and so is each change to it, without a restart', async () => {
    expect((await spokenOnB('Zomato से।', [])).texts).toEqual(['Zomato से।']);
    expect(await put([{ language: 'hi-IN', grapheme: 'Zomato', alias: 'ज़ोमैटो' }])).toBe(200);
    // B learns at its next version read, within its refresh interval: wait for it, as a caller would.
    await eventually(async () => (await spokenOnB('Zomato से।', ['brands'])).texts[0] === 'ज़ोमैटो से।', "B speaking A's lexicon");
    expect(await put([{ language: 'hi-IN', grapheme: 'Zomato', alias: 'ज़ोमाटो' }])).toBe(200);
    await eventually(async () => (await spokenOnB('Zomato से।', ['brands'])).texts[0] === 'ज़ोमाटो से।', "B speaking A's change");
  });

  it('a lexicon deleted through A is refused by B', async () => {
    expect((await fetch(`${a.url}/v1/lexicons/brands`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } })).status).toBe(204);
    await eventually(async () => (await spokenOnB('Zomato से।', ['brands'])).status === 422, 'B refusing the deleted lexicon');
    expect((await spokenOnB('Zomato से।', [])).texts).toEqual(['Zomato से।']);
  });
});
