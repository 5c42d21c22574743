// A pack engine that loses its last worker in the middle of an utterance (a fixture worker that dies on cue, run in
// place of Piper's through EngineContext.entry, whose replacements cannot start while its file is marked dead): the
// utterance fails with EngineUnavailableError (503 tts_workers_unconfigured over HTTP) instead of eSpeak finishing it
// in another voice, nothing is cached under the pack's key, and only utterances that start afterwards fall back.

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PromptCache } from '../../src/core/synthesis/prompt-cache.js';
import { SynthesisService } from '../../src/core/synthesis/synthesis-service.js';
import type { UtteranceRequest } from '../../src/core/synthesis/utterance.js';
import { loadVoiceCatalog } from '../../src/core/voice-catalog.js';
import { buildEngineRegistry } from '../../src/engine/build-engine-registry.js';
import type { PackEvent } from '../../src/engine/engine-module.js';
import type { EngineRegistry } from '../../src/engine/engine-registry.js';
import { EspeakEngine } from '../../src/engine/espeak-engine.js';
import { EngineUnavailableError, type SynthesisJob } from '../../src/engine/tts-engine.js';
import { workerEntry } from '../../src/engine/worker-entry.js';
import { deadMark, FIXTURE_RATE_HZ } from '../integration/engine/fixtures/dying-pack.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { modelsDirWithPacks, TONE_TEXT } from '../helpers/voice-packs.js';

const FIXTURE = workerEntry('../integration/engine/fixtures/dying-pack-worker', import.meta.url);
const VOICE = 'priya';
const job = (text: string): SynthesisJob => ({ text, language: 'en-IN', voiceName: VOICE, speed: 1, pitchShiftSemitones: 0 });
const never = (): AbortSignal => new AbortController().signal;

let modelsDir: string;
let modelPath: string;
let registry: EngineRegistry;
let server: TestServer;
const events: PackEvent[] = [];
const waiters = new Set<() => void>();

/** Resolves at the first pack pool event after event `from` that matches. */
function nextEvent(type: string, from: number): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!events.slice(from).some((event) => event.type === type && 'engine' in event && event.engine === 'piper')) return;
      waiters.delete(check);
      resolve();
    };
    waiters.add(check);
    check();
  });
}

/** Kills the pack's only worker (a clause that says DIE) and waits until its replacement has failed to start. */
async function killPack(): Promise<void> {
  const from = events.length;
  await expect(registry.synthesize(job('DIE now'), never())).rejects.toBeInstanceOf(EngineUnavailableError);
  await nextEvent('worker-start-failed', from);
}

/** Lets a new worker start and waits for it to be ready. */
async function revivePack(): Promise<void> {
  const from = events.length;
  await rm(deadMark(modelPath), { force: true });
  await nextEvent('worker-ready', from);
}

beforeAll(async () => {
  modelsDir = await modelsDirWithPacks([{ voice: VOICE, language: 'en-IN', fixture: TONE_TEXT }]);
  modelPath = join(modelsDir, 'packs', TONE_TEXT.name, 'model.onnx');
  const catalog = loadVoiceCatalog(join(modelsDir, 'raaga-v1', 'manifest.json'));
  const embedded = new EspeakEngine({ workers: 1, maxQueue: 16, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
  const packs = catalog.voicePacks().map((pack) => ({ ...pack, path: join(modelsDir, pack.path) }));
  registry = buildEngineRegistry(embedded, packs, {
    workers: 1,
    threadsPerWorker: 1,
    maxQueue: 16,
    modelsDir,
    entry: FIXTURE,
    onEvent: (event) => {
      events.push(event);
      for (const check of [...waiters]) check();
    },
  });
  server = await startTestServer({ RAAGA_MODELS_DIR: modelsDir, TTS_WORKERS: '1' }, { engine: registry });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(modelsDir, { recursive: true, force: true });
});

describe('a pack that dies mid-utterance', () => {
  it('keeps the engine an utterance began with: its next clause fails, and only a new utterance falls back to eSpeak', async () => {
    const bound = registry.bind(VOICE, 'en-IN');
    const packSource = bound.audioSource(VOICE, 'en-IN');
    expect(packSource).toMatch(/^piper:/);
    const first = await bound.synthesize(job('Your order has shipped.'), never());
    expect([first.engine, first.sampleRateHz]).toEqual(['piper', FIXTURE_RATE_HZ]);

    await killPack();
    // Between clauses the pack has no worker alive: the utterance's next clause is refused, not spoken by eSpeak.
    await expect(bound.synthesize(job('It arrives tomorrow.'), never())).rejects.toBeInstanceOf(EngineUnavailableError);
    expect(bound.audioSource(VOICE, 'en-IN')).toBe(packSource);
    expect(bound.kindFor(VOICE, 'en-IN')).toBe('piper');
    // An utterance that starts now is eSpeak's, whole, under eSpeak's key.
    const fresh = registry.bind(VOICE, 'en-IN');
    expect(fresh.audioSource(VOICE, 'en-IN')).toMatch(/^espeak-ng-wasm@/);
    expect((await fresh.synthesize(job('It arrives tomorrow.'), never())).engine).toBe('espeak');

    await revivePack();
    expect((await registry.bind(VOICE, 'en-IN').synthesize(job('Back again.'), never())).engine).toBe('piper');
  }, 60_000);

  it('fails the utterance and caches nothing under the pack\'s key, its background fill included', async () => {
    const stores: number[] = [];
    const cache = new PromptCache({ maxBytes: 2 ** 22, onEvent: (event, bytes) => event === 'store' && stores.push(bytes) });
    const synthesis = new SynthesisService(registry, { firstChunkMaxChars: 40, maxChunkChars: 40 }, cache);
    const request: UtteranceRequest = {
      text: 'Your order has shipped today. DIE here, in the middle. It arrives tomorrow by six.',
      language: 'en-IN',
      voice: { voiceName: VOICE, pitchShiftSemitones: 0, rateMultiplier: 1 },
      format: 'pcm',
      sampleRateHz: 16000,
      speed: 1,
      mode: 'streaming',
      accountId: 'acct_test',
    };
    const utterance = synthesis.utterance(request);
    expect(utterance.chunks.length).toBe(3);
    const pieces: Uint8Array[] = [];
    const from = events.length;
    const outcome = (async () => {
      for await (const piece of utterance.audio(never())) pieces.push(piece);
    })();
    await expect(outcome).rejects.toBeInstanceOf(EngineUnavailableError);
    expect(pieces.length).toBeGreaterThan(0); // the first clause was the pack's
    await nextEvent('worker-start-failed', from);
    // The fill of a cut-short utterance speaks with the engine the utterance began with, and fails with it too.
    await cache.flushed();
    expect(stores).toEqual([]);
    expect(cache.bytes).toBe(0);
    await revivePack();
  }, 60_000);

  it('answers the spec\'s 503 over HTTP and bills nothing', async () => {
    const account = await server.account('growth', 10_000);
    const from = events.length;
    const response = await fetch(`${server.url}/v1/tts/generate`, {
      method: 'POST',
      headers: authHeaders(account.keys[0] as string),
      body: JSON.stringify({ model_id: 'raaga-v1', voice: VOICE, language: 'en-IN', text: 'Your order has shipped today. DIE here, in the middle.', output_format: 'wav', sample_rate: 16000 }),
    });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('tts_workers_unconfigured');
    expect((await server.deps.store.getAccount(account.id))?.credits).toBe(10_000);
    await nextEvent('worker-start-failed', from);
    await revivePack();
  }, 60_000);
});
