// The Kokoro engine module's install-time trial in this process: it speaks the language's trial sentence on the tone
// model (its length is exactly what the phonemizer's tokens make), and refuses unusable files naming file and problem.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataType } from '../../../../fixtures/voices/lib/onnx-graph.js';
import { KOKORO_TONE_ENCODING } from '../../../../fixtures/voices/lib/kokoro-tone-voice.js';
import type { InstalledPack } from '../../../../src/engine/engine-module.js';
import { packEngine } from '../../../../src/engine/engines.js';
import { kokoroEngineModule, type KokoroPackOptions } from '../../../../src/engine/kokoro/kokoro-engine-module.js';
import { KokoroPhonemizer } from '../../../../src/engine/kokoro/kokoro-phonemizer.js';
import { tokenize } from '../../../../src/engine/kokoro/kokoro-vocab.js';
import { TRIAL_SENTENCES } from '../../../../src/engine/trial-sentences.js';
import type { LanguageCode } from '../../../../src/languages.js';
import { kokoroVoiceFiles, type KokoroVoiceFiles } from '../../../helpers/kokoro-voice-files.js';
import { fixtureModelPath, TONE_ESPEAK } from '../../../helpers/voice-packs.js';

let files: KokoroVoiceFiles;
let model: string;

const pack = (path: string, style: string, language: LanguageCode = 'hi-IN'): InstalledPack<KokoroPackOptions> => ({
  voiceName: 'aarav',
  language,
  path,
  sha256: undefined,
  options: { style },
});

beforeAll(async () => {
  files = await kokoroVoiceFiles();
  model = await files.model('kokoro.onnx');
  await files.style('hf_alpha.bin', 3);
  await files.style('bf_isabella.bin', 4);
});
afterAll(async () => files?.remove());

describe('Kokoro trial', () => {
  it('is the engine kind registered as kokoro, with {style} as its only pack field', () => {
    expect(packEngine('kokoro')).toBe(kokoroEngineModule);
    expect(kokoroEngineModule.packOptions.safeParse({ style: 'voices/hf_alpha.bin' }).success).toBe(true);
    expect(kokoroEngineModule.packOptions.safeParse({ style: 'a.bin', speaker: 1 }).success).toBe(false);
    expect(kokoroEngineModule.packOptions.safeParse({}).success).toBe(false);
  });

  it('speaks the trial sentence of each language at 24 kHz with the style resolved against the models dir', async () => {
    const phonemizer = await KokoroPhonemizer.create();
    const e = KOKORO_TONE_ENCODING;
    for (const [language, style, letter] of [
      ['hi-IN', 'hf_alpha.bin', 'h'],
      ['en-IN', 'bf_isabella.bin', 'b'],
    ] as const) {
      const trial = await kokoroEngineModule.trial(pack(model, style, language), { modelsDir: files.dir });
      const runs = tokenize(phonemizer.phonemize(TRIAL_SENTENCES[language], letter)).runs;
      const samples = runs.reduce((sum, run) => sum + e.headerSamples + run.ids.length * e.samplesPerId, 0);
      expect(trial).toEqual({ sampleRateHz: 24_000, durationMs: (1000 * samples) / 24_000 });
    }
  });

  it('refuses a style file of the wrong size, naming it', async () => {
    const short = join(files.dir, 'hf_short.bin');
    await writeFile(short, new Uint8Array(522_236));
    await expect(kokoroEngineModule.trial(pack(model, short), { modelsDir: files.dir })).rejects.toThrow(
      `${short}: not a Kokoro voice style file: 522236 bytes, expected 522240`,
    );
    await expect(kokoroEngineModule.trial(pack(model, 'hf_absent.bin'), { modelsDir: files.dir })).rejects.toThrow(`style file ${join(files.dir, 'hf_absent.bin')} does not exist`);
  });

  it('refuses a model of another kind, a model with another contract and a file that is not ONNX, naming each', async () => {
    const piper = fixtureModelPath(TONE_ESPEAK);
    await expect(kokoroEngineModule.trial(pack(piper, 'hf_alpha.bin'), { modelsDir: files.dir })).rejects.toThrow(
      new RegExp(`^${piper}: not a Kokoro-82M model: inputs missing input_ids, style, speed; unexpected input`),
    );
    const intSpeed = await files.model('hexgrad-export.onnx', { speedType: DataType.INT32 });
    await expect(kokoroEngineModule.trial(pack(intSpeed, 'hf_alpha.bin'), { modelsDir: files.dir })).rejects.toThrow(
      new RegExp(`^${intSpeed}: not a Kokoro-82M model: input speed is not float32`),
    );
    const garbage = join(files.dir, 'garbage.onnx');
    await writeFile(garbage, 'not protobuf');
    await expect(kokoroEngineModule.trial(pack(garbage, 'hf_alpha.bin'), { modelsDir: files.dir })).rejects.toThrow(garbage);
  });

  it('refuses a language Kokoro does not speak here', async () => {
    await expect(kokoroEngineModule.trial(pack(model, 'hf_alpha.bin', 'ta-IN'), { modelsDir: files.dir })).rejects.toThrow(/Kokoro-82M speaks en-IN and hi-IN here, not ta-IN/);
  });
});
