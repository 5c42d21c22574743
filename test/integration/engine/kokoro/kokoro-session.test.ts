// KokoroSession in real onnxruntime on the generated tone model, whose waveform encodes its inputs: ids, style row
// and speed arrive as Kokoro's contract says; models with another contract are refused, naming file and inputs.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeKokoroStyleRow } from '../../../../fixtures/voices/lib/kokoro-style-file.js';
import { DataType } from '../../../../fixtures/voices/lib/onnx-graph.js';
import { KOKORO_TONE_ENCODING } from '../../../../fixtures/voices/lib/kokoro-tone-voice.js';
import { KokoroSession } from '../../../../src/engine/kokoro/kokoro-session.js';
import { KokoroStyle } from '../../../../src/engine/kokoro/kokoro-style.js';
import { decodeKokoroTone } from '../../../helpers/kokoro-tone-decoder.js';
import { kokoroVoiceFiles, type KokoroVoiceFiles } from '../../../helpers/kokoro-voice-files.js';

const threads = { intraOpNumThreads: 1 };
let files: KokoroVoiceFiles;
let session: KokoroSession;
let style: KokoroStyle;

beforeAll(async () => {
  files = await kokoroVoiceFiles();
  session = await KokoroSession.create(await files.model('model.onnx'), threads);
  style = await KokoroStyle.load(await files.style('hf_test.bin', 5));
});
afterAll(async () => {
  await session.release();
  await files.remove();
});

describe('Kokoro session', () => {
  it('feeds input_ids [1,n] int64, style [1,256] float32 and speed [1] float32 as given', async () => {
    const ids = [0, 50, 83, 54, 156, 57, 135, 0];
    const samples = await session.run(ids, style.forTokens(ids.length - 2), 1);
    const [run, ...rest] = decodeKokoroTone(samples);
    expect(rest).toEqual([]);
    expect(run?.ids).toEqual(ids);
    expect(run?.speed).toBe(1);
    expect(decodeKokoroStyleRow(run?.style ?? [])).toEqual({ seed: 5, row: 6, intact: true });
    expect(samples.length).toBe(KOKORO_TONE_ENCODING.headerSamples + ids.length * KOKORO_TONE_ENCODING.samplesPerId);
  });

  it('passes fractional speeds through (the model shortens its output by them)', async () => {
    for (const speed of [0.5, 0.8, 1.25, 2]) {
      const [run] = decodeKokoroTone(await session.run([0, 43, 0], style.forTokens(1), speed));
      expect(run?.speed).toBe(Math.fround(speed));
      expect(run?.blockSamples).toBe(Math.round(Math.fround(KOKORO_TONE_ENCODING.samplesPerId / Math.fround(speed))));
      expect(run?.ids).toEqual([0, 43, 0]);
    }
  });

  it('takes a run of 510 tokens, the most Kokoro accepts, and the highest vocabulary id', async () => {
    const ids = [0, ...Array.from({ length: 510 }, (_, i) => (i % 2 === 0 ? 177 : 16)), 0];
    const [run] = decodeKokoroTone(await session.run(ids, style.forTokens(510), 2));
    expect(run?.ids).toEqual(ids);
    expect(decodeKokoroStyleRow(run?.style ?? []).row).toBe(509);
  });

  it('accepts a model whose waveform is [1, num_samples] and reads the same samples', async () => {
    const rank2 = await KokoroSession.create(await files.model('rank2.onnx', { waveformRank: 2 }), threads);
    try {
      const row = style.forTokens(1);
      expect(await rank2.run([0, 43, 0], row, 1)).toEqual(await session.run([0, 43, 0], row, 1));
    } finally {
      await rank2.release();
    }
  });

  it('refuses runs outside the contract before calling the model', async () => {
    const row = style.forTokens(1);
    await expect(session.run([0, 0], row, 1)).rejects.toThrow('a Kokoro run takes 1 to 510 tokens and two pads, got 2 ids');
    await expect(session.run(new Array<number>(513).fill(16), row, 1)).rejects.toThrow(/got 513 ids/);
    await expect(session.run([0, 43, 0], row.subarray(0, 128), 1)).rejects.toThrow('a Kokoro style row has 256 values, got 128');
    await expect(session.run([0, 43, 0], row, 0)).rejects.toThrow('Kokoro speed must be a positive number, got 0');
  });
});

describe('models with another contract', () => {
  const refused = async (name: string, contract: Parameters<KokoroVoiceFiles['model']>[1]): Promise<string> => {
    const path = await files.model(name, contract);
    const error = await KokoroSession.create(path, threads).then(
      () => new Error('accepted'),
      (cause: unknown) => cause as Error,
    );
    expect(error.message.startsWith(`${path}: not a Kokoro-82M model: `)).toBe(true);
    return error.message;
  };

  it('refuses the older export whose ids input is called tokens, listing what the model has', async () => {
    const message = await refused('tokens.onnx', { idsName: 'tokens' });
    expect(message).toContain('inputs missing input_ids; unexpected tokens (has inputs tokens int64 [1,sequence_length], style float32 [1,256], speed float32 [1]; outputs waveform float32 [num_samples])');
  });

  it('refuses an int32 speed, a 128-value style and a model without waveform', async () => {
    expect(await refused('int-speed.onnx', { speedType: DataType.INT32 })).toContain('input speed is not float32 (has');
    expect(await refused('style128.onnx', { styleSize: 128 })).toContain('input style has 128 values, expected 256');
    expect(await refused('audio.onnx', { waveformName: 'audio' })).toContain("it has no float32 output 'waveform' (has");
  });

  it('refuses a file that is not a model at all', async () => {
    await expect(KokoroSession.create(await files.style('not-a-model.onnx', 0), threads)).rejects.toThrow();
  });
});
