// Flite end to end on real voice files (flite's own dumps of slt and rms) and Raaga's flite.wasm, a voice kept loaded
// in one instance: it speaks, speed and pitch act (and a clause without a shift gets the voice's own pitch back), words
// are placed from the utterance. The voices it must not use (missing, truncated, an HTML page, another language,
// one flite itself refuses) are refused with a message naming the file (flite-voice-files.test.ts).

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFlitevoxFeatures } from '../../../../fixtures/voices/lib/flite-voices.js';
import { synthesizeFlite, type FliteClip } from '../../../../src/engine/flite/flite-synth.js';
import { FliteVoiceBank } from '../../../../src/engine/flite/flite-voice-bank.js';
import { rmsDbfs } from '../../../helpers/decode-audio.js';
import { useFliteVoices } from '../../../helpers/flite-voices.js';
import { medianF0 } from '../audio-features.js';

const voices = useFliteVoices(['slt', 'rms']);
const SENTENCE = 'Please hold while I transfer your call to the next available agent.';
const WORDS = SENTENCE.split(' ');

let bank: FliteVoiceBank | undefined;
/** One bank for the file, as one worker has: voices stay loaded from test to test. */
function theBank(): FliteVoiceBank {
  bank ??= new FliteVoiceBank({ modelsDir: voices.dir });
  return bank;
}
type Extra = { text?: string; speed?: number; pitchShiftSemitones?: number; wordTimings?: boolean; language?: 'en-IN' | 'hi-IN' };
function say(voicePath: string, extra: Extra = {}): FliteClip {
  return synthesizeFlite(theBank(), { voicePath, text: SENTENCE, speed: 1, pitchShiftSemitones: 0, wordTimings: false, ...extra });
}
const bytesOf = (clip: FliteClip) => Buffer.from(clip.samples.buffer, clip.samples.byteOffset, clip.samples.byteLength);
const seconds = (clip: FliteClip) => clip.samples.length / clip.sampleRateHz;

describe('synthesizeFlite', () => {
  it('speaks an English sentence from a voice file: 16 kHz, audible, a sensible length', () => {
    const clip = say(voices.path('slt'), { language: 'en-IN' });
    expect(clip.sampleRateHz).toBe(16000);
    expect(rmsDbfs(clip.samples)).toBeGreaterThan(-35);
    // Eleven words at a normal pace: 2.5-6 s.
    expect(seconds(clip)).toBeGreaterThan(2.5);
    expect(seconds(clip)).toBeLessThan(6);
    expect(Math.max(...clip.samples.map(Math.abs))).toBeLessThanOrEqual(1);
    expect(clip.words).toBeUndefined();
  });

  it('at speed 2 makes about half the samples of speed 1, and at 0.5 about twice', () => {
    const voice = voices.path('slt');
    const normal = say(voice).samples.length;
    expect(say(voice, { speed: 2 }).samples.length / normal).toBeCloseTo(0.5, 1);
    expect(say(voice, { speed: 0.5 }).samples.length / normal).toBeCloseTo(2, 1);
    // The speed is the clause's own: the voice's pace comes back.
    expect(say(voice).samples.length).toBe(normal);
  });

  it('shifts pitch by the F0 target on slt, keeping the length; the next clause without a shift is the voice\'s own again', () => {
    const voice = voices.path('slt');
    const base = say(voice);
    const up = say(voice, { pitchShiftSemitones: 7 });
    expect(up.pitchMethod).toBe('f0-target');
    expect(up.samples.length).toBe(base.samples.length);
    const ratio = medianF0(up.samples, 16000) / medianF0(base.samples, 16000);
    expect(ratio).toBeGreaterThan(1.3);
    expect(ratio).toBeLessThan(1.7);
    expect(bytesOf(say(voice)).equals(bytesOf(base))).toBe(true);
  });

  it('shifts pitch by resampling on rms, whose SPAM F0 model ignores the F0 target', () => {
    const voice = voices.path('rms');
    const base = say(voice);
    const up = say(voice, { pitchShiftSemitones: 7 });
    expect(up.pitchMethod).toBe('resample');
    expect(up.samples.length / base.samples.length).toBeCloseTo(1, 1);
    const ratio = medianF0(up.samples, 16000) / medianF0(base.samples, 16000);
    expect(ratio).toBeGreaterThan(1.3);
    expect(ratio).toBeLessThan(1.7);
  });

  it('places each word after the first, in order, within the clip, at every speed and pitch method', () => {
    for (const [name, speed, pitchShiftSemitones] of [['slt', 1, 0], ['slt', 2, 0], ['rms', 1, 5]] as const) {
      const clip = say(voices.path(name), { speed, pitchShiftSemitones, wordTimings: true });
      const words = clip.words ?? [];
      expect(words.map((word) => [...SENTENCE].slice(0, word.textEnd).join('').split(' ').pop())).toEqual(WORDS.slice(0, -1));
      const clipMs = seconds(clip) * 1000;
      for (let i = 0; i < words.length; i++) {
        expect(words[i]!.atMs).toBeGreaterThan(i === 0 ? 0 : words[i - 1]!.atMs);
        expect(words[i]!.atMs).toBeLessThan(clipMs);
      }
      // The last word starts in the last third of the clip, not at its edge.
      expect(words.at(-1)!.atMs / clipMs).toBeGreaterThan(0.6);
      expect(words.at(-1)!.atMs / clipMs).toBeLessThan(0.95);
    }
  });

  it('places Devanagari words under the Indic front end, and numbers read in pieces', () => {
    const hindi = join(voices.dir, 'slt-hin.flitevox');
    writeFileSync(hindi, withFlitevoxFeatures(readFileSync(voices.path('slt')), { language: 'cmu_indic_lang', variant: 'hin' }));
    const text = 'आपका ऑर्डर कल शाम तक आएगा';
    const clip = say(hindi, { text, language: 'hi-IN', wordTimings: true });
    expect(clip.words?.map((word) => [...text].slice(0, word.textEnd).join('').split(' ').pop())).toEqual(['आपका', 'ऑर्डर', 'कल', 'शाम', 'तक']);
    // A phone number flite reads digit by digit is still one token: its words start where it starts.
    const phone = say(voices.path('slt'), { text: 'Call 555-1234 now!', wordTimings: true });
    expect(phone.words?.map((word) => word.textEnd)).toEqual([4, 13]);
  });

  it('gives no words for a single word', () => {
    expect(say(voices.path('slt'), { text: 'Hello.', wordTimings: true }).words).toEqual([]);
  });
});
