// Each chunk's voicing reaches its engine job (speed times the request's and clamped, pitch added to the voice's and
// clamped, language) and its audio (the gain, after loudness normalisation); the prompt cache key holds it.

import { describe, expect, it } from 'vitest';
import { promptCacheKey } from '../../../../src/core/synthesis/prompt-cache-key.js';
import { Utterance, type UtteranceRequest } from '../../../../src/core/synthesis/utterance.js';
import { splitUtterance } from '../../../../src/core/text/split-utterance.js';
import type { PcmClip, SynthesisJob, TtsEngine } from '../../../../src/engine/tts-engine.js';
import { pcm16Sample } from '../../../../src/audio/pcm.js';
import { db, rms } from '../../audio/signal-helpers.js';

const RATE = 16000;
const TONE_MS = 400;

/** Answers each job with a 220 Hz tone of TONE_MS at RATE and keeps the jobs. */
class RecordingEngine implements TtsEngine {
  readonly name = 'recording';
  readonly jobs: SynthesisJob[] = [];
  start = async () => undefined;
  isReady = () => true;
  load = () => ({ queued: 0, running: 0, workers: 1 });
  close = async () => undefined;
  audioSource = (_voice: string, language: string) => `recording/${language}`;
  kindFor = () => 'recording';
  async synthesize(job: SynthesisJob): Promise<PcmClip> {
    this.jobs.push(job);
    const samples = Float32Array.from({ length: (RATE * TONE_MS) / 1000 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / RATE));
    return { samples, sampleRateHz: RATE };
  }
}

const request = (text: string, extra: Partial<UtteranceRequest> = {}): UtteranceRequest => ({
  text,
  language: 'en-IN',
  voice: { voiceName: 'aarav', pitchShiftSemitones: 0, rateMultiplier: 1 },
  format: 'pcm',
  sampleRateHz: RATE,
  speed: 1,
  mode: 'complete',
  ...extra,
});
const CHUNKING = { firstChunkMaxChars: 100, maxChunkChars: 300 };

async function speak(text: string, extra: Partial<UtteranceRequest> = {}) {
  const engine = new RecordingEngine();
  const utterance = new Utterance(engine, request(text, extra), CHUNKING);
  const parts: Uint8Array[] = [];
  for await (const piece of utterance.audio(new AbortController().signal)) parts.push(piece);
  const bytes = Buffer.concat(parts);
  const samples = Float32Array.from({ length: bytes.length / 2 }, (_, i) => pcm16Sample(bytes.readInt16LE(i * 2)));
  return { engine, utterance, samples };
}

describe('a voiced utterance', () => {
  it('hands each chunk its speed, pitch and language: multiplied into the request, clamped to Raaga`s ranges', async () => {
    const { engine } = await speak(
      '<speak>Plain. <prosody rate="slow">Slow.</prosody> <prosody rate="x-fast" pitch="+10st">High.</prosody> <lang xml:lang="hi-IN">नमस्ते।</lang></speak>',
      { speed: 1.6, voice: { voiceName: 'aarav', pitchShiftSemitones: 4, rateMultiplier: 1.25 } },
    );
    expect(engine.jobs.map((job) => [job.text, job.speed, job.pitchShiftSemitones, job.language])).toEqual([
      ['Plain.', 2, 4, 'en-IN'],
      ['Slow.', 1.5, 4, 'en-IN'],
      ['High.', 2, 12, 'en-IN'],
      ['नमस्ते।', 2, 4, 'hi-IN'],
    ]);
  });

  it('applies a chunk`s gain to its audio after loudness normalisation', async () => {
    const { samples, utterance } = await speak('<speak>Loud part. <prosody volume="-6dB">Soft part.</prosody></speak>');
    expect(utterance.chunks.map((chunk) => chunk.voicing?.gainDb ?? 0)).toEqual([0, -6]);
    // Each 400 ms tone is one clause; the second starts after the first and the 250 ms pause.
    const clause = (RATE * TONE_MS) / 1000;
    const first = rms(samples, RATE / 50, clause - RATE / 50);
    const second = rms(samples, clause + RATE / 4 + RATE / 50, 2 * clause + RATE / 4 - RATE / 50);
    expect(db(second / first)).toBeCloseTo(-6, 0);
  });

  it('names the SSML it did not apply', async () => {
    const { utterance } = await speak('<speak><voice name="x">Hi</voice> <phoneme ph="x">there</phoneme></speak>');
    expect(utterance.ssmlIgnored).toEqual(['voice', 'phoneme']);
    const plain = await speak('Hi <voice> there');
    expect(plain.utterance.ssmlIgnored).toEqual([]);
  });

  it('keys the prompt cache on each chunk`s voicing', () => {
    const key = (text: string, audioSource = 'recording/en-IN') =>
      promptCacheKey({ audioSource, chunks: splitUtterance(text, { ...CHUNKING, language: 'en-IN' }), request: request(text), budgetMs: 10_000, scope: 'acct' });
    const slow = '<speak><prosody rate="slow">Hello</prosody></speak>';
    const fast = '<speak><prosody rate="fast">Hello</prosody></speak>';
    expect(key(slow)).not.toBe(key(fast));
    expect(key('<speak><prosody volume="silent">Hello</prosody></speak>')).not.toBe(key('<speak><prosody volume="x-soft">Hello</prosody></speak>'));
    expect(key('<speak>Hello</speak>')).toBe(key('<speak>Hello</speak>'));
    expect(key('<speak><lang xml:lang="hi-IN">नमस्ते</lang></speak>')).not.toBe(key('<speak><lang xml:lang="mr-IN">नमस्ते</lang></speak>'));
  });
});
