// The Piper engine on the generated tone voices, whose audio encodes the ids the model received: id order and
// BOS/PAD/EOS placement, the three scales, speed, speaker selection, character voices, pitch shift, unknown
// phonemes, packs that fail to load, and warm-up before readiness.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EspeakPhonemizer } from '../../../../src/engine/espeak/espeak-phonemizer.js';
import type { PackEvent } from '../../../../src/engine/engine-module.js';
import type { PiperEngine } from '../../../../src/engine/piper/piper-engine.js';
import { phonemizeText } from '../../../../src/engine/piper/piper-phonemizer.js';
import { loadPiperSidecar } from '../../../../src/engine/piper/piper-sidecar.js';
import { decodeClip, toneFrequencyHz } from '../../../helpers/tone-decoder.js';
import { fixtureModelPath, job, TONE_ESPEAK, TONE_TEXT, toneEngine } from '../../../helpers/voice-packs.js';

const espeakModel = fixtureModelPath(TONE_ESPEAK);
const textModel = fixtureModelPath(TONE_TEXT);
const espeakEncoding = TONE_ESPEAK.sidecar.tone_encoding;
const textEncoding = TONE_TEXT.sidecar.tone_encoding;
const never = () => new AbortController().signal;
const HINDI = 'नमस्ते, आपका खाता सक्रिय है।';

let engine: PiperEngine;
const events: PackEvent[] = [];
let phonemizer: EspeakPhonemizer;

beforeAll(async () => {
  engine = toneEngine(
    [
      { voiceName: 'aarav', language: 'hi-IN', path: espeakModel, speakerId: 0 },
      { voiceName: 'meera', language: 'hi-IN', path: espeakModel, speakerId: 3 },
      { voiceName: 'meera', language: 'en-IN', path: textModel, speakerId: 0 },
    ],
    { events },
  );
  expect(engine.isReady()).toBe(false);
  await engine.start();
  phonemizer = await EspeakPhonemizer.create();
});
afterAll(async () => {
  await engine.close();
});

describe('Piper engine on the tone voices', () => {
  it('warms every session before start resolves and serves only its pairs', () => {
    expect(engine.isReady()).toBe(true);
    const ready = events.find((event) => event.type === 'worker-ready');
    expect(ready?.type === 'worker-ready' && ready.report).toMatchObject({ loaded: [espeakModel, textModel], failed: [] });
    expect(engine.serves('aarav', 'hi-IN')).toBe(true);
    expect(engine.serves('aarav', 'en-IN')).toBe(false);
    expect(engine.serves('kabir', 'hi-IN')).toBe(false);
  });

  it('feeds the model BOS, PAD, phoneme, PAD ..., EOS in order, from eSpeak IPA of each clause', async () => {
    const clip = await engine.synthesize(job('aarav', 'hi-IN', HINDI), never());
    expect(clip.sampleRateHz).toBe(22050);
    const decoded = decodeClip(clip.samples, clip.sampleRateHz, espeakEncoding, { lengthScale: 1, noiseW: 0.8 });
    const expected = phonemizeText(HINDI, loadPiperSidecar(`${espeakModel}.json`), phonemizer).sentences;
    expect(expected).toHaveLength(1);
    expect(decoded.ids).toEqual(expected[0]);
    const map = TONE_ESPEAK.sidecar.phoneme_id_map as Record<string, number[]>;
    const [bos, pad, eos, comma, period] = [map['^']![0], map._![0], map.$![0], map[',']![0], map['.']![0]];
    expect(decoded.ids[0]).toBe(bos);
    expect(decoded.ids[decoded.ids.length - 1]).toBe(eos);
    decoded.ids.slice(1, -1).forEach((id, index) => {
      if (index % 2 === 0) expect(id).toBe(pad);
      else expect(id).not.toBe(pad);
    });
    // Clause punctuation reaches the model as Piper adds it: ", " after the first clause, "." at the end.
    expect(decoded.ids).toContain(comma);
    expect(decoded.ids[decoded.ids.length - 3]).toBe(period);
  });

  it('passes scales as [noise_scale, length_scale, noise_w] and sid only to multi-speaker models', async () => {
    const clip = await engine.synthesize(job('aarav', 'hi-IN', 'नमस्ते'), never());
    const decoded = decodeClip(clip.samples, 22050, espeakEncoding, { lengthScale: 1, noiseW: 0.8 });
    expect(decoded.amplitude).toBeCloseTo(0.667, 3);
    expect(decoded.tailSamples).toBe(80);
    expect(new Set(decoded.speakers)).toEqual(new Set([0]));
  });

  it('maps speed to length_scale = sidecar length_scale / speed', async () => {
    for (const speed of [0.5, 1, 2]) {
      const clip = await engine.synthesize(job('aarav', 'hi-IN', 'नमस्ते', { speed }), never());
      const decoded = decodeClip(clip.samples, 22050, espeakEncoding, { lengthScale: 1 / speed, noiseW: 0.8 });
      expect(decoded.segmentSamples).toBe(Math.round(256 / speed));
    }
    // The text voice's own length_scale is 1.25.
    const clip = await engine.synthesize(job('meera', 'en-IN', 'ok', { speed: 2 }), never());
    expect(decodeClip(clip.samples, 16000, textEncoding, { lengthScale: 1.25 / 2, noiseW: 0.3 }).segmentSamples).toBe(160);
  });

  it("selects the route's speaker: the same text on speaker 3 is shifted by 3 speaker steps", async () => {
    const [a, b] = await Promise.all([
      engine.synthesize(job('aarav', 'hi-IN', 'नमस्ते'), never()),
      engine.synthesize(job('meera', 'hi-IN', 'नमस्ते'), never()),
    ]);
    const decodedA = decodeClip(a.samples, 22050, espeakEncoding, { lengthScale: 1, noiseW: 0.8 });
    const decodedB = decodeClip(b.samples, 22050, espeakEncoding, { lengthScale: 1, noiseW: 0.8 });
    expect(decodedB.ids).toEqual(decodedA.ids);
    expect(new Set(decodedB.speakers)).toEqual(new Set([3]));
    const shift = toneFrequencyHz(b.samples, 1, 255, 22050) - toneFrequencyHz(a.samples, 1, 255, 22050);
    expect(shift).toBeCloseTo(30, 0);
  });

  it('feeds character voices NFD characters at the voice rate (16 kHz), without sid', async () => {
    const clip = await engine.synthesize(job('meera', 'en-IN', 'Hi, मैं'), never());
    expect(clip.sampleRateHz).toBe(16000);
    const decoded = decodeClip(clip.samples, 16000, textEncoding, { lengthScale: 1.25, noiseW: 0.3 });
    const map = TONE_TEXT.sidecar.phoneme_id_map as Record<string, number[]>;
    const expected = [...'^hi, मैं$'.normalize('NFD')].flatMap((ch, i, all) => (i === 0 || i === all.length - 2 ? [map[ch]![0]!, 0] : i === all.length - 1 ? [map[ch]![0]!] : [map[ch]![0]!, 0]));
    expect(decoded.ids).toEqual(expected);
    expect(decoded.amplitude).toBeCloseTo(0.5, 3);
  });

  it('drops phonemes the voice lacks and reports their count', async () => {
    events.length = 0;
    const clip = await engine.synthesize(job('meera', 'en-IN', 'ok தமிழ்'), never());
    const decoded = decodeClip(clip.samples, 16000, textEncoding, { lengthScale: 1.25, noiseW: 0.3 });
    const map = TONE_TEXT.sidecar.phoneme_id_map as Record<string, number[]>;
    expect(decoded.ids).toEqual([1, 0, map.o![0], 0, map.k![0], 0, map[' ']![0], 0, 2]);
    const report = events.find((event) => event.type === 'unknown-phonemes');
    expect(report).toMatchObject({ type: 'unknown-phonemes', path: textModel, count: [...'தமிழ்'.normalize('NFD')].length });
  });

  it('shifts pitch for custom voices by the resampling trick, keeping the duration', async () => {
    const plain = await engine.synthesize(job('aarav', 'hi-IN', 'नमस्ते'), never());
    const shifted = await engine.synthesize(job('aarav', 'hi-IN', 'नमस्ते', { pitchShiftSemitones: 12 }), never());
    expect(shifted.sampleRateHz).toBe(22050);
    // Segments keep their length; only the fixture's noise_w tail (80 samples, not length-scaled) halves.
    expect(Math.abs(shifted.samples.length - (plain.samples.length - 40))).toBeLessThanOrEqual(2);
    // Compare the middle of the third segment (the first phoneme) in both.
    const f0 = toneFrequencyHz(plain.samples, 2 * 256 + 40, 3 * 256 - 40, 22050);
    const f1 = toneFrequencyHz(shifted.samples, 2 * 256 + 40, 3 * 256 - 40, 22050);
    expect(f1 / f0).toBeCloseTo(2, 2);
  });

  it('returns an empty clip for text with nothing to say', async () => {
    const clip = await engine.synthesize(job('aarav', 'hi-IN', '...'), never());
    expect(clip.samples.length).toBe(0);
  });
});

describe('packs that fail to load', () => {
  it('reports a model that onnxruntime refuses and keeps serving the others', async () => {
    const { mkdtemp, writeFile, copyFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'raaga-bad-pack-'));
    const badModel = join(dir, 'model.onnx');
    await writeFile(badModel, 'definitely not protobuf');
    await copyFile(`${textModel}.json`, `${badModel}.json`);
    const failures: PackEvent[] = [];
    const mixed = toneEngine(
      [
        { voiceName: 'aarav', language: 'hi-IN', path: espeakModel, speakerId: 1 },
        { voiceName: 'meera', language: 'hi-IN', path: badModel, speakerId: 0 },
      ],
      { events: failures, workers: 2 },
    );
    try {
      await mixed.start();
      // The engine maps the failed file to the pack that needs it.
      const failed = failures.filter((event) => event.type === 'pack-failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ type: 'pack-failed', voiceName: 'meera', language: 'hi-IN', path: badModel, reason: expect.stringContaining(badModel) });
      expect(mixed.serves('meera', 'hi-IN')).toBe(false);
      expect(mixed.serves('aarav', 'hi-IN')).toBe(true);
      const clip = await mixed.synthesize(job('aarav', 'hi-IN', 'नमस्ते'), never());
      expect(new Set(decodeClip(clip.samples, 22050, espeakEncoding, { lengthScale: 1, noiseW: 0.8 }).speakers)).toEqual(new Set([1]));
    } finally {
      await mixed.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
