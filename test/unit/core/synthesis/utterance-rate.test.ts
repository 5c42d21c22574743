// The utterance takes its pipeline's input rate from the engine's clips (22.05 kHz embedded, 16 or 22.05 kHz
// neural packs) instead of assuming one, and brings a clip of another rate (another engine's) to it.

import { describe, expect, it } from 'vitest';
import { Utterance, type UtteranceRequest } from '../../../../src/core/synthesis/utterance.js';
import type { PcmClip, SynthesisJob, TtsEngine } from '../../../../src/engine/tts-engine.js';

/** Answers each clause with a 440 Hz tone of `ms` at the next rate of `rates`. */
class ScriptedEngine implements TtsEngine {
  readonly name = 'scripted';
  private calls = 0;
  constructor(
    private readonly rates: readonly number[],
    private readonly ms = 500,
  ) {}
  start = async () => undefined;
  isReady = () => true;
  load = () => ({ queued: 0, running: 0, workers: 1 });
  close = async () => undefined;
  audioSource = () => 'scripted';
  kindFor = () => 'scripted';
  async synthesize(_job: SynthesisJob): Promise<PcmClip> {
    const rate = this.rates[Math.min(this.calls++, this.rates.length - 1)] as number;
    const samples = Float32Array.from({ length: (rate * this.ms) / 1000 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / rate));
    return { samples, sampleRateHz: rate };
  }
}

const request = (text: string): UtteranceRequest => ({
  text,
  language: 'en-IN',
  voice: { voiceName: 'aarav', pitchShiftSemitones: 0, rateMultiplier: 1 },
  format: 'pcm',
  sampleRateHz: 8000,
  speed: 1,
  mode: 'complete',
});
const CHUNKING = { firstChunkMaxChars: 100, maxChunkChars: 300 };

async function render(engine: TtsEngine, text: string): Promise<{ bytes: number; durationMs: number }> {
  const utterance = new Utterance(engine, request(text), CHUNKING);
  let bytes = 0;
  for await (const piece of utterance.audio(new AbortController().signal)) bytes += piece.length;
  return { bytes, durationMs: utterance.durationMs };
}

describe('utterance sample rate', () => {
  it.each([16000, 22050, 24000])('resamples %i Hz clips to the requested rate with the right duration', async (rate) => {
    const { bytes, durationMs } = await render(new ScriptedEngine([rate]), 'One clause only');
    expect(durationMs).toBeGreaterThan(490);
    expect(durationMs).toBeLessThan(510);
    expect(bytes).toBe(Math.round((durationMs * 8000) / 1000) * 2);
  });

  it('keeps the pause of a leading chunk with nothing to say', async () => {
    const alone = await render(new ScriptedEngine([16000]), 'Hello there.');
    const led = await render(new ScriptedEngine([16000]), '... Hello there.');
    expect(led.durationMs - alone.durationMs).toBeGreaterThan(200);
  });

  it('brings a clip of another rate (a <lang> span another engine speaks) to the rate of the clips before it', async () => {
    const { bytes, durationMs } = await render(new ScriptedEngine([16000, 22050]), 'First sentence. Second sentence.');
    // Two 500 ms tones (shaping keeps them whole) and the 250 ms sentence pause between them.
    expect(durationMs).toBeGreaterThan(1240);
    expect(durationMs).toBeLessThan(1260);
    expect(bytes).toBe(Math.round((durationMs * 8000) / 1000) * 2);
  });
});
