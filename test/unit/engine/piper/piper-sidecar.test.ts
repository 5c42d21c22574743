// The Piper sidecar schema: real-shaped sidecars validate (extra fields kept), broken ones fail naming file and field.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPiperSidecar, parsePiperSidecar, PiperSidecarError, resolveSpeakerId } from '../../../../src/engine/piper/piper-sidecar.js';

const piperLike = () => ({
  audio: { sample_rate: 22050, quality: 'medium' },
  espeak: { voice: 'hi' },
  inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
  phoneme_type: 'espeak',
  phoneme_map: {},
  phoneme_id_map: { _: [0], '^': [1], $: [2], ' ': [3], a: [14] },
  num_symbols: 256,
  num_speakers: 1,
  speaker_id_map: {},
  piper_version: '1.0.0',
  language: { code: 'hi_IN', family: 'hi' },
  dataset: 'example',
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-sidecar-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('piper sidecar', () => {
  it('accepts a Piper-shaped sidecar and keeps its other fields', () => {
    const sidecar = parsePiperSidecar(piperLike(), 'x.onnx.json');
    expect(sidecar.audio.sample_rate).toBe(22050);
    expect(sidecar.espeak?.voice).toBe('hi');
    expect(sidecar.inference).toEqual({ noise_scale: 0.667, length_scale: 1, noise_w: 0.8 });
    expect((sidecar as Record<string, unknown>).dataset).toBe('example');
  });

  it('fills Piper defaults for missing inference, phoneme_type, speakers', () => {
    const { inference: _i, phoneme_type: _p, num_speakers: _n, speaker_id_map: _s, ...rest } = piperLike();
    const sidecar = parsePiperSidecar(rest, 'x');
    expect(sidecar.phoneme_type).toBe('espeak');
    expect(sidecar.num_speakers).toBe(1);
    expect(sidecar.inference.noise_w).toBe(0.8);
  });

  const messageOf = (json: unknown): string => {
    try {
      parsePiperSidecar(json, '/packs/v/model.onnx.json');
    } catch (error) {
      expect(error).toBeInstanceOf(PiperSidecarError);
      return (error as Error).message;
    }
    throw new Error('expected the sidecar to be refused');
  };

  it('names the file and each bad field', () => {
    const message = messageOf({ ...piperLike(), audio: { sample_rate: 'fast' }, phoneme_type: 'pinyin' });
    expect(message).toContain('/packs/v/model.onnx.json');
    expect(message).toMatch(/audio\.sample_rate: .*expected number/);
    expect(message).toMatch(/phoneme_type: /);
  });

  it('requires the special symbols and an eSpeak voice for eSpeak voices', () => {
    const message = messageOf({ ...piperLike(), phoneme_id_map: { a: [1] }, espeak: undefined });
    expect(message).toMatch(/phoneme_id_map\._: the '_' symbol is missing/);
    expect(message).toMatch(/phoneme_id_map\.\^: the '\^' symbol is missing/);
    expect(message).toMatch(/espeak\.voice: required/);
  });

  it('refuses speaker ids beyond num_speakers and ids beyond num_symbols', () => {
    expect(() => parsePiperSidecar({ ...piperLike(), speaker_id_map: { a: 3 } }, 'x')).toThrow(/speaker_id_map\.a/);
    expect(() => parsePiperSidecar({ ...piperLike(), phoneme_id_map: { ...piperLike().phoneme_id_map, b: [300] } }, 'x')).toThrow(/phoneme_id_map\.b/);
  });

  it('accepts text voices without an espeak block', () => {
    const { espeak: _e, ...rest } = piperLike();
    expect(parsePiperSidecar({ ...rest, phoneme_type: 'text' }, 'x').phoneme_type).toBe('text');
  });

  it('loads from disk with clear errors for missing files and bad JSON', async () => {
    const good = join(dir, 'good.onnx.json');
    await writeFile(good, JSON.stringify(piperLike()));
    expect(loadPiperSidecar(good).num_symbols).toBe(256);
    expect(() => loadPiperSidecar(join(dir, 'missing.onnx.json'))).toThrow(/missing\.onnx\.json cannot be read/);
    const broken = join(dir, 'broken.onnx.json');
    await writeFile(broken, '{"audio":');
    expect(() => loadPiperSidecar(broken)).toThrow(/broken\.onnx\.json is not valid JSON/);
  });

  it('resolves speakers by id or name and refuses others', () => {
    const sidecar = parsePiperSidecar({ ...piperLike(), num_speakers: 3, speaker_id_map: { asha: 2 } }, 'x');
    expect(resolveSpeakerId(sidecar, '1')).toBe(1);
    expect(resolveSpeakerId(sidecar, 'asha')).toBe(2);
    expect(resolveSpeakerId(sidecar, 0)).toBe(0);
    expect(() => resolveSpeakerId(sidecar, '3')).toThrow(/3 speaker\(s\)/);
    expect(() => resolveSpeakerId(sidecar, 'ravi')).toThrow(/names asha/);
  });
});
