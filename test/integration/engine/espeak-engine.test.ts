// The embedded engine end to end on real workers and real eSpeak NG: every language speaks, voices keep
// their identity across languages and stay apart from each other, and speed and pitch shift act as specified.

import { describe, expect, it } from 'vitest';
import { catalog, useEspeakEngine } from '../../helpers/espeak-engine.js';
import type { PcmClip, SynthesisJob } from '../../../src/engine/tts-engine.js';
import { LANGUAGE_CODES, type LanguageCode } from '../../../src/languages.js';
import { medianF0, rms, spectralCentroid } from './audio-features.js';
import { SENTENCES } from './sentences.js';

const espeak = useEspeakEngine();

function say(voiceName: string, language: LanguageCode, extra: Partial<SynthesisJob> = {}): Promise<PcmClip> {
  if (!catalog.voices().some((voice) => voice.name === voiceName)) throw new Error(`no voice ${voiceName}`);
  return espeak.engine.synthesize(
    { text: SENTENCES[language], language, voiceName, speed: 1, pitchShiftSemitones: 0, ...extra },
    new AbortController().signal,
  );
}

const seconds = (clip: PcmClip) => clip.samples.length / clip.sampleRateHz;
const f0 = (clip: PcmClip) => medianF0(clip.samples, clip.sampleRateHz);
const centroid = (clip: PcmClip) => spectralCentroid(clip.samples, clip.sampleRateHz);

describe('EspeakEngine', () => {
  it('is ready after start and reports its workers', () => {
    expect(espeak.engine.isReady()).toBe(true);
    expect(espeak.engine.load()).toEqual({ queued: 0, running: 0, workers: 2 });
  });

  it('speaks every language with a male and a female voice', async () => {
    const pairs = LANGUAGE_CODES.flatMap((language) => [
      { language, voice: 'aarav' },
      { language, voice: 'meera' },
    ]);
    const clips = await Promise.all(pairs.map(({ language, voice }) => say(voice, language)));
    clips.forEach((clip, index) => {
      const label = `${pairs[index]?.voice} ${pairs[index]?.language}`;
      expect(clip.sampleRateHz, label).toBe(22050);
      expect(seconds(clip), label).toBeGreaterThan(0.3);
      expect(seconds(clip), label).toBeLessThan(10);
      expect(rms(clip.samples), label).toBeGreaterThan(0.01);
      expect(clip.samples.every((v) => v >= -1 && v <= 1), label).toBe(true);
    });
  });

  it('keeps each voice recognisable across languages and every pair of voices apart', async () => {
    const voices = catalog.voices();
    const features = await Promise.all(
      voices.map(async ({ name }) => {
        const [hindi, tamil] = await Promise.all([say(name, 'hi-IN'), say(name, 'ta-IN')]);
        return { name, hi: [f0(hindi), centroid(hindi)] as const, ta: [f0(tamil), centroid(tamil)] as const };
      }),
    );
    for (const { name, hi, ta } of features) {
      // Same variant in every language: median pitch stays within 15% across scripts.
      expect(Math.abs(Math.log(hi[0] / ta[0])), `${name} F0 hi ${hi[0]} vs ta ${ta[0]}`).toBeLessThan(Math.log(1.15));
    }
    for (let i = 0; i < features.length; i++) {
      for (let j = i + 1; j < features.length; j++) {
        const a = features[i]!;
        const b = features[j]!;
        for (const language of ['hi', 'ta'] as const) {
          // Distance in units of "just noticeable for this estimator": 6% in F0, 8% in spectral centroid.
          const distance = Math.hypot(Math.log(a[language][0] / b[language][0]) / 0.06, Math.log(a[language][1] / b[language][1]) / 0.08);
          expect(distance, `${a.name} vs ${b.name} (${language}): ${a[language]} / ${b[language]}`).toBeGreaterThan(1);
        }
      }
    }
    // Same gender, neighbouring names in the roster: clearly different pitch or timbre.
    const aarav = features.find((f) => f.name === 'aarav')!;
    const vikram = features.find((f) => f.name === 'vikram')!;
    expect(aarav.hi[0] / vikram.hi[0]).toBeGreaterThan(1.08);
  });

  it('shapes and resamples in its worker when asked for a delivery rate, leaving the event loop only pauses to add', async () => {
    const raw = await say('meera', 'hi-IN');
    const delivered = await say('meera', 'hi-IN', { deliverAtRateHz: 8000 });
    expect(raw.shaped).toBeFalsy();
    expect(delivered).toMatchObject({ sampleRateHz: 8000, shaped: true });
    // Silence trimmed at the edges: not longer than the raw clause but for the resampler's tail (4 ms at 8 kHz) and
    // the spread between two syntheses of the same text (measured: 57,929 to 58,157 samples at 22.05 kHz, ~10 ms): 25 ms.
    expect(seconds(delivered)).toBeLessThanOrEqual(seconds(raw) + 0.025);
    expect(seconds(delivered)).toBeGreaterThan(seconds(raw) - 0.5);
    // Normalised to the pipeline's -20 dBFS active loudness (within a few dB over a whole sentence), 5 ms fades.
    const level = 20 * Math.log10(rms(delivered.samples));
    expect(level).toBeGreaterThan(-30);
    expect(level).toBeLessThan(-14);
    expect(Math.abs(delivered.samples[0]!)).toBeLessThan(0.01);
    expect(Math.abs(delivered.samples.at(-1)!)).toBeLessThan(0.01);
  });

  it('follows speed natively: 2.0 roughly halves and 0.5 roughly doubles the duration', async () => {
    const [normal, fast, slow] = await Promise.all([
      say('rahul', 'hi-IN'),
      say('rahul', 'hi-IN', { speed: 2 }),
      say('rahul', 'hi-IN', { speed: 0.5 }),
    ]);
    const fastRatio = seconds(fast) / seconds(normal);
    const slowRatio = seconds(slow) / seconds(normal);
    expect(fastRatio).toBeGreaterThan(0.4);
    expect(fastRatio).toBeLessThan(0.65);
    expect(slowRatio).toBeGreaterThan(1.6);
    expect(slowRatio).toBeLessThan(2.5);
  });

  it('shifts pitch by semitones for custom voices: +4 st raises median F0 by about 26%', async () => {
    for (const voice of ['sanjay', 'priya']) {
      const [plain, shifted] = await Promise.all([say(voice, 'hi-IN'), say(voice, 'hi-IN', { pitchShiftSemitones: 4 })]);
      const ratio = f0(shifted) / f0(plain);
      expect(ratio, voice).toBeGreaterThan(1.26 - 0.08);
      expect(ratio, voice).toBeLessThan(1.26 + 0.08);
    }
  });

  it('reads markup and phoneme brackets as plain text instead of obeying them', async () => {
    const signal = new AbortController().signal;
    const job = (text: string) => espeak.engine.synthesize({ text, language: 'en-IN', voiceName: 'arjun', speed: 1, pitchShiftSemitones: 0 }, signal);
    const plain = await job('one two');
    // With SSML obeyed this would add three seconds of silence.
    const markup = await job('one <break time="3s"/> two');
    expect(seconds(markup)).toBeLessThan(seconds(plain) + 2.5);
    const odd = await job('a & b < c [[h@l@U]] \u0000 end');
    expect(seconds(odd)).toBeGreaterThan(0.3);
  });

  it('speaks a custom voice as its base voice with its own pitch shift and rate', async () => {
    const clip = await espeak.engine.synthesize(
      { text: SENTENCES['gu-IN'], language: 'gu-IN', voiceName: 'kavya', speed: 1.2, pitchShiftSemitones: -3 },
      new AbortController().signal,
    );
    expect(rms(clip.samples)).toBeGreaterThan(0.01);
  });
  it('says where each word starts, in the input text as given, on the clip as delivered', async () => {
    const text = 'नमस्ते दोस्तों, आपका OTP पाँच है।';
    const raw = await say('aarav', 'hi-IN', { text });
    const shaped = await say('aarav', 'hi-IN', { text, deliverAtRateHz: 8000 });
    // After नमस्ते, दोस्तों, आपका, OTP (spelt letter by letter, still one word) and पाँच.
    expect(raw.words?.map((word) => word.textEnd)).toEqual([6, 14, 20, 24, 29]);
    expect(shaped.words?.map((word) => word.textEnd)).toEqual([6, 14, 20, 24, 29]);
    for (const clip of [raw, shaped]) {
      const times = clip.words!.map((word) => word.atMs);
      times.forEach((atMs, i) => {
        expect(atMs).toBeGreaterThan(i === 0 ? 0 : times[i - 1]!);
        expect(atMs).toBeLessThan(seconds(clip) * 1000);
      });
    }
    // eSpeak starts speaking at once, so shaping trims next to no lead: the boundaries agree to the millisecond eSpeak
    // reports them in (how a trimmed lead moves them is in test/unit/audio/output-pipeline.test.ts).
    raw.words!.forEach((word, i) => expect(Math.abs(word.atMs - shaped.words![i]!.atMs)).toBeLessThanOrEqual(1));
  });

  it('counts word positions in the text as given when escaping changed what eSpeak read', async () => {
    const text = 'Tom & Jerry <b> one two.';
    const clip = await say('aarav', 'en-IN', { text });
    const ends = clip.words!.map((word) => word.textEnd);
    // eSpeak read "&amp;" and "&lt;b&gt;": positions past them still fall on the input's own word ends.
    expect(ends.slice(0, 2)).toEqual([3, 5]);
    expect(ends).toContain(11);
    expect(ends.at(-1)).toBe(19);
    for (const end of ends) expect(end).toBeLessThanOrEqual([...text].length);
  });
});
