// The Kokoro engine kind built as the server builds it (buildEngineRegistry, eSpeak last) on the generated tone model:
// two packs share one model, each pair gets the phonemizer's ids, its own style row and the job's speed; pitch and
// delivery rate are applied in the worker; packs with a bad style file, a non-Kokoro model or no model fall back.

import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeKokoroStyleRow } from '../../../../fixtures/voices/lib/kokoro-style-file.js';
import { KOKORO_TONE_ENCODING } from '../../../../fixtures/voices/lib/kokoro-tone-voice.js';
import { buildEngineRegistry, type PackRequest } from '../../../../src/engine/build-engine-registry.js';
import type { PackEvent } from '../../../../src/engine/engine-module.js';
import type { EngineRegistry } from '../../../../src/engine/engine-registry.js';
import { EspeakEngine } from '../../../../src/engine/espeak-engine.js';
import { KokoroPhonemizer, type KokoroLanguage } from '../../../../src/engine/kokoro/kokoro-phonemizer.js';
import { tokenize } from '../../../../src/engine/kokoro/kokoro-vocab.js';
import { catalog } from '../../../helpers/espeak-engine.js';
import { decodeKokoroTone } from '../../../helpers/kokoro-tone-decoder.js';
import { kokoroVoiceFiles, type KokoroVoiceFiles } from '../../../helpers/kokoro-voice-files.js';
import { toneFrequencyHz } from '../../../helpers/tone-decoder.js';
import { job } from '../../../helpers/voice-packs.js';

const HINDI = 'नमस्ते, आपका खाता सक्रिय है।';
const ENGLISH = 'Your balance is low.';
const never = () => new AbortController().signal;

let files: KokoroVoiceFiles;
let registry: EngineRegistry;
let phonemizer: KokoroPhonemizer;
let model: string;
let hindiStyle: string;
const events: PackEvent[] = [];

const pack = (voiceName: string, language: PackRequest['language'], path: string, style: string): PackRequest => ({
  voiceName,
  language,
  engine: 'kokoro',
  path,
  sha256: undefined,
  options: { style },
});

async function expectedIds(text: string, language: KokoroLanguage): Promise<number[][]> {
  return tokenize(phonemizer.phonemize(text, language)).runs.map((run) => [...run.ids]);
}

beforeAll(async () => {
  files = await kokoroVoiceFiles();
  model = await files.model('kokoro-v1.0.onnx');
  hindiStyle = await files.style('hf_alpha.bin', 1);
  await files.style('bf_emma.bin', 2);
  const noStyleInput = await files.model('other.onnx', { styleName: 'ref_s' });
  const short = `${files.dir}/hf_beta.bin`;
  await writeFile(short, new Uint8Array(1024));
  const embedded = new EspeakEngine({ workers: 1, maxQueue: 16, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
  registry = buildEngineRegistry(
    embedded,
    [
      pack('aarav', 'hi-IN', model, hindiStyle),
      // Relative to the models dir, as `raaga voices install` records it.
      pack('aarav', 'en-IN', model, 'bf_emma.bin'),
      pack('meera', 'hi-IN', model, short),
      pack('rahul', 'hi-IN', noStyleInput, hindiStyle),
      pack('pooja', 'hi-IN', `${files.dir}/absent.onnx`, hindiStyle),
    ],
    { workers: 1, threadsPerWorker: 1, maxQueue: 16, modelsDir: files.dir, onEvent: (event) => events.push(event) },
  );
  await registry.start();
  phonemizer = await KokoroPhonemizer.create();
});
afterAll(async () => {
  await registry?.close();
  await files?.remove();
});

describe('Kokoro packs in the engine registry', () => {
  it('loads the shared model once and serves its pairs as kind kokoro, keyed on both files', () => {
    expect(registry.name).toBe('kokoro+espeak');
    const ready = events.find((event) => event.type === 'worker-ready');
    expect(ready).toMatchObject({ engine: 'kokoro', report: { loaded: [model, `${files.dir}/hf_alpha.bin`, `${files.dir}/bf_emma.bin`] } });
    expect(registry.kindFor('aarav', 'hi-IN')).toBe('kokoro');
    expect(registry.kindFor('aarav', 'en-IN')).toBe('kokoro');
    expect(registry.audioSource('aarav', 'hi-IN')).toMatch(new RegExp(`^kokoro:${model}@size:\\d+,mtime:\\d+#${hindiStyle}@sha256:[0-9a-f]{64}$`));
    expect(registry.audioSource('aarav', 'en-IN')).not.toBe(registry.audioSource('aarav', 'hi-IN'));
  });

  it('feeds the Hindi voice the phonemizer`s ids (language h, from hf_), its style row and the job`s speed', async () => {
    const clip = await registry.synthesize(job('aarav', 'hi-IN', HINDI, { speed: 1.5 }), never());
    expect(clip).toMatchObject({ engine: 'kokoro', sampleRateHz: 24_000, shaped: false });
    const runs = decodeKokoroTone(clip.samples);
    expect(runs.map((run) => run.ids)).toEqual(await expectedIds(HINDI, 'h'));
    for (const run of runs) {
      expect(run.speed).toBe(1.5);
      expect(decodeKokoroStyleRow(run.style)).toEqual({ seed: 1, row: run.ids.length - 2, intact: true });
    }
  });

  it('reads the English pair with British phonemes (bf_) and that voice`s own style', async () => {
    const clip = await registry.synthesize(job('aarav', 'en-IN', ENGLISH), never());
    const runs = decodeKokoroTone(clip.samples);
    expect(runs.map((run) => run.ids)).toEqual(await expectedIds(ENGLISH, 'b'));
    expect(runs.map((run) => run.ids)).not.toEqual(await expectedIds(ENGLISH, 'a'));
    expect(decodeKokoroStyleRow(runs[0]?.style ?? [])).toMatchObject({ seed: 2, intact: true });
    expect(runs[0]?.speed).toBe(1);
  });

  it('shifts pitch by the resampling trick: an octave up doubles the tone of the first id, same length', async () => {
    const plain = await registry.synthesize(job('aarav', 'hi-IN', 'नमस्ते'), never());
    const shifted = await registry.synthesize(job('aarav', 'hi-IN', 'नमस्ते', { pitchShiftSemitones: 12 }), never());
    expect(shifted.engine).toBe('kokoro');
    expect(shifted.samples).not.toEqual(plain.samples);
    const e = KOKORO_TONE_ENCODING;
    // The model ran at half speed (blocks of 960 samples), then 48 kHz read back as 24 kHz: header 129, blocks 480.
    expect(Math.abs(shifted.samples.length - (e.headerSamples / 2 + (plain.samples.length - e.headerSamples)))).toBeLessThanOrEqual(2);
    const padHz = toneFrequencyHz(plain.samples, e.headerSamples + 100, e.headerSamples + 380, e.sampleRateHz);
    const shiftedPadHz = toneFrequencyHz(shifted.samples, e.headerSamples / 2 + 100, e.headerSamples / 2 + 380, e.sampleRateHz);
    expect(padHz).toBeCloseTo(e.f0Hz, 0);
    expect(shiftedPadHz / padHz).toBeCloseTo(2, 2);
  });

  it('shapes and resamples in the worker when the job asks for a delivery rate', async () => {
    const raw = await registry.synthesize(job('aarav', 'hi-IN', HINDI), never());
    const clip = await registry.synthesize(job('aarav', 'hi-IN', HINDI, { deliverAtRateHz: 8000 }), never());
    expect(clip).toMatchObject({ engine: 'kokoro', sampleRateHz: 8000, shaped: true });
    expect(Math.abs(clip.samples.length - raw.samples.length / 3)).toBeLessThanOrEqual(2);
    expect(Math.max(...clip.samples.map(Math.abs))).toBeLessThanOrEqual(0.97);
  });
});

describe('Kokoro packs that cannot be used', () => {
  it('reports a short style file, a model without Kokoro`s inputs and a missing model, naming file and problem', () => {
    const failed = events.filter((event) => event.type === 'pack-failed');
    const byVoice = Object.fromEntries(failed.map((event) => [event.voiceName, event]));
    expect(failed).toHaveLength(3);
    expect(byVoice.meera).toMatchObject({ language: 'hi-IN', path: model, reason: expect.stringMatching(/hf_beta\.bin: not a Kokoro voice style file: 1024 bytes, expected 522240/) });
    expect(byVoice.rahul).toMatchObject({ path: `${files.dir}/other.onnx`, reason: expect.stringMatching(/other\.onnx: not a Kokoro-82M model: inputs missing style; unexpected ref_s/) });
    expect(byVoice.pooja).toMatchObject({ reason: expect.stringMatching(/model file .*absent\.onnx does not exist/) });
  });

  it('leaves their pairs to eSpeak', async () => {
    for (const voice of ['meera', 'rahul', 'pooja']) {
      expect(registry.kindFor(voice, 'hi-IN')).toBe('espeak');
      const clip = await registry.synthesize(job(voice, 'hi-IN', HINDI), never());
      expect(clip.engine).toBe('espeak');
      expect(clip.samples.length).toBeGreaterThan(0);
    }
  });
});
