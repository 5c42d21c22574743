// The Flite engine kind built as the server builds it (buildEngineRegistry, eSpeak last) on Flite's own voices
// dumped to .flitevox at test time: the pair is spoken by flite in a worker with word boundaries, speed, pitch and
// the delivery rate applied, each voice loaded once in the worker's instance and kept; a voice file that is an HTML
// page, or declares another language, is refused and its pair falls back to eSpeak; a trap in the instance fails that
// clause with the spec's error and the worker replaces its instance; a worker that dies mid-clause fails that clause
// and is replaced.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEngineRegistry, type PackRequest } from '../../../../src/engine/build-engine-registry.js';
import type { PackEvent } from '../../../../src/engine/engine-module.js';
import type { EngineRegistry } from '../../../../src/engine/engine-registry.js';
import { EspeakEngine } from '../../../../src/engine/espeak-engine.js';
import type { FliteEngine } from '../../../../src/engine/flite/flite-engine.js';
import { fliteEngineModule } from '../../../../src/engine/flite/flite-engine-module.js';
import { SynthesisFailedError } from '../../../../src/engine/synthesis-failed-error.js';
import { EngineUnavailableError } from '../../../../src/engine/tts-engine.js';
import { catalog } from '../../../helpers/espeak-engine.js';
import { useFliteVoices } from '../../../helpers/flite-voices.js';
import { job } from '../../../helpers/voice-packs.js';
import { eventually } from '../../../helpers/telephony.js';

const voices = useFliteVoices(['slt', 'rms']);
const never = () => new AbortController().signal;
const SENTENCE = 'Your order will arrive tomorrow by six in the evening.';
let registry: EngineRegistry;
const events: PackEvent[] = [];

const pack = (voiceName: string, language: PackRequest['language'], path: string): PackRequest => ({ voiceName, language, engine: 'flite', path, sha256: undefined, options: {} });
const rms = (samples: Float32Array): number => Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / Math.max(1, samples.length));

beforeAll(async () => {
  const html = join(voices.dir, 'cmu_indic_hin_ab.flitevox');
  await writeFile(html, '<!doctype html><html><body>Sign in to continue</body></html>');
  const embedded = new EspeakEngine({ workers: 1, maxQueue: 16, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
  registry = buildEngineRegistry(
    embedded,
    [
      pack('priya', 'en-IN', voices.path('slt')),
      pack('arjun', 'en-IN', voices.path('rms')),
      pack('meera', 'hi-IN', html),
      // An English voice installed for Hindi: refused rather than reading Devanagari as silence.
      pack('divya', 'hi-IN', voices.path('slt')),
      pack('kavya', 'ta-IN', join(voices.dir, 'missing.flitevox')),
    ],
    { workers: 1, threadsPerWorker: 1, maxQueue: 16, modelsDir: voices.dir, onEvent: (event) => events.push(event) },
  );
  await registry.start();
}, 120_000);
afterAll(async () => {
  await registry?.close();
});

describe('the Flite engine', () => {
  it('speaks its pairs with flite: 16 kHz speech, word boundaries in order inside the clip', async () => {
    expect(registry.kindFor('priya', 'en-IN')).toBe('flite');
    const clip = await registry.synthesize(job('priya', 'en-IN', SENTENCE), never());
    expect(clip.engine).toBe('flite');
    expect(clip.sampleRateHz).toBe(16000);
    const seconds = clip.samples.length / clip.sampleRateHz;
    expect(seconds).toBeGreaterThan(2);
    expect(rms(clip.samples)).toBeGreaterThan(0.02);
    const words = clip.words ?? [];
    expect(words.length).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < words.length; i++) expect(words[i]!.atMs).toBeGreaterThanOrEqual(words[i - 1]!.atMs);
    expect(words.at(-1)!.atMs).toBeLessThanOrEqual(seconds * 1000);
    expect(SENTENCE.slice(0, words[0]!.textEnd).trim()).toBe('Your');
  });

  it('speed, pitch and the delivery rate are applied in the worker', async () => {
    const base = await registry.synthesize(job('arjun', 'en-IN', SENTENCE), never());
    const fast = await registry.synthesize(job('arjun', 'en-IN', SENTENCE, { speed: 2 }), never());
    expect(fast.samples.length).toBeLessThan(base.samples.length * 0.65);
    const higher = await registry.synthesize(job('priya', 'en-IN', SENTENCE, { pitchShiftSemitones: 4 }), never());
    const plain = await registry.synthesize(job('priya', 'en-IN', SENTENCE), never());
    expect(Buffer.from(higher.samples.buffer).equals(Buffer.from(plain.samples.buffer))).toBe(false);
    const phone = await registry.synthesize(job('priya', 'en-IN', SENTENCE, { deliverAtRateHz: 8000 }), never());
    expect(phone).toMatchObject({ sampleRateHz: 8000, shaped: true, engine: 'flite' });
  });

  it('keeps each voice loaded in its worker: clauses after the warm-up load nothing', async () => {
    const flite = registry.engineFor('priya', 'en-IN') as FliteEngine;
    for (const text of ['One.', 'Two, three.', 'Four five six.']) await registry.synthesize(job('priya', 'en-IN', text), never());
    await registry.synthesize(job('arjun', 'en-IN', 'Seven.'), never());
    const [stats, ...others] = flite.workerStats();
    expect(others).toEqual([]);
    // slt and rms, each loaded once by the warm-up; the same slt refused for Hindi was not loaded again.
    expect(stats).toMatchObject({ voiceLoads: 2, loadedVoices: 2, instances: 1, faults: 0, evictions: 0 });
    expect(stats!.memoryBytes).toBeGreaterThan(stats!.loadedHeapBytes);
  });

  // SynthesisFailedError is what the API answers as the spec's internal_error (500, retry with backoff).
  it('a trap in the instance fails that clause with SynthesisFailedError; the worker replaces its instance and speaks on', async () => {
    const flite = registry.engineFor('priya', 'en-IN') as FliteEngine;
    const before = await registry.synthesize(job('priya', 'en-IN', 'Thank you for waiting.'), never());
    const trapped = await flite.trapInstanceForTest(job('priya', 'en-IN', 'Thank you for waiting.')).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(trapped).toBeInstanceOf(SynthesisFailedError);
    expect((trapped as Error).message).toMatch(/RuntimeError: memory access out of bounds; the instance was replaced/);
    const after = await registry.synthesize(job('priya', 'en-IN', 'Thank you for waiting.'), never());
    expect(Buffer.from(after.samples.buffer).equals(Buffer.from(before.samples.buffer))).toBe(true);
    const [stats] = flite.workerStats();
    expect(stats).toMatchObject({ instances: 2, faults: 1, voiceLoads: 3, loadedVoices: 1 });
  });

  it('refuses a voice file that is an HTML page, declares another language or is missing, naming it; those pairs fall back to eSpeak', () => {
    const failed = events.filter((event) => event.type === 'pack-failed');
    const reason = (voiceName: string) => failed.find((event) => event.type === 'pack-failed' && event.voiceName === voiceName);
    expect(reason('meera')).toMatchObject({ language: 'hi-IN', reason: expect.stringMatching(/flite voice .*cmu_indic_hin_ab\.flitevox .*(header|flitevox)/i) });
    expect(reason('divya')).toMatchObject({ language: 'hi-IN', reason: expect.stringMatching(/slt\.flitevox speaks eng .*not hi-IN/) });
    expect(reason('kavya')).toMatchObject({ reason: expect.stringMatching(/missing\.flitevox does not exist/) });
    for (const [voice, language] of [['meera', 'hi-IN'], ['divya', 'hi-IN'], ['kavya', 'ta-IN']] as const) expect(registry.kindFor(voice, language)).toBe('espeak');
  });

  it('a worker that dies mid-clause fails that clause with EngineUnavailableError and is replaced', async () => {
    const flite = registry.engineFor('priya', 'en-IN') as FliteEngine;
    const running = registry.synthesize(job('priya', 'en-IN', SENTENCE.repeat(6)), never());
    await flite.terminateWorkerForTest(0);
    await expect(running).rejects.toBeInstanceOf(EngineUnavailableError);
    // While its only worker restarts the pair is eSpeak's; once the new worker has checked the voice, Flite's again.
    await eventually(() => registry.kindFor('priya', 'en-IN') === 'flite', 'the replacement worker');
    const after = await registry.synthesize(job('priya', 'en-IN', 'Thank you.'), never());
    expect(after.engine).toBe('flite');
    expect(after.samples.length).toBeGreaterThan(0);
  });

  it('trial: speaks one sentence in the pack language; refuses another language naming the file', async () => {
    const spoken = await fliteEngineModule.trial({ voiceName: 'priya', language: 'en-IN', path: voices.path('slt'), sha256: undefined, options: {} }, { modelsDir: voices.dir });
    expect(spoken.sampleRateHz).toBe(16000);
    expect(spoken.durationMs).toBeGreaterThan(1500);
    await expect(fliteEngineModule.trial({ voiceName: 'priya', language: 'gu-IN', path: voices.path('slt'), sha256: undefined, options: {} }, { modelsDir: voices.dir })).rejects.toThrow(
      /flite voice .*slt\.flitevox speaks eng .*not gu-IN/,
    );
  });
});
