// Flite end to end on real voice files (flite's own dumps of slt and rms) and the real flite.wasm: it speaks, speed and
// pitch act, words are placed, and every voice it must not use (missing, truncated, an HTML page, another language,
// one flite itself refuses) is refused with a message naming the file, never spoken with a fallback voice.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFlitevoxFeatures } from '../../../../fixtures/voices/lib/flite-voices.js';
import { synthesizeFlite, type FliteClip } from '../../../../src/engine/flite/flite-synth.js';
import { TokenPhoneCache } from '../../../../src/engine/flite/flite-token-phones.js';
import { openFliteVoice, type FliteVoiceFile } from '../../../../src/engine/flite/flite-voice.js';
import { FliteVoiceError } from '../../../../src/engine/flite/flite-voice-error.js';
import { rmsDbfs } from '../../../helpers/decode-audio.js';
import { useFliteVoices } from '../../../helpers/flite-voices.js';
import { medianF0 } from '../audio-features.js';

const voices = useFliteVoices(['slt', 'rms']);
const SENTENCE = 'Please hold while I transfer your call to the next available agent.';
const WORDS = SENTENCE.split(' ');

function say(voice: FliteVoiceFile, extra: { text?: string; speed?: number; pitchShiftSemitones?: number; wordTimings?: boolean } = {}): FliteClip {
  return synthesizeFlite({ voice, text: SENTENCE, speed: 1, pitchShiftSemitones: 0, wordTimings: false, ...extra });
}
const seconds = (clip: FliteClip) => clip.samples.length / clip.sampleRateHz;

describe('synthesizeFlite', () => {
  it('speaks an English sentence from a voice file: 16 kHz, audible, a sensible length', () => {
    const clip = say(openFliteVoice(voices.path('slt'), 'en-IN'));
    expect(clip.sampleRateHz).toBe(16000);
    expect(rmsDbfs(clip.samples)).toBeGreaterThan(-35);
    // Eleven words at a normal pace: 2.5-6 s.
    expect(seconds(clip)).toBeGreaterThan(2.5);
    expect(seconds(clip)).toBeLessThan(6);
    expect(Math.max(...clip.samples.map(Math.abs))).toBeLessThanOrEqual(1);
    expect(clip.words).toBeUndefined();
  });

  it('at speed 2 makes about half the samples of speed 1, and at 0.5 about twice', () => {
    const voice = openFliteVoice(voices.path('slt'));
    const normal = say(voice).samples.length;
    expect(say(voice, { speed: 2 }).samples.length / normal).toBeCloseTo(0.5, 1);
    expect(say(voice, { speed: 0.5 }).samples.length / normal).toBeCloseTo(2, 1);
  });

  it('shifts pitch by the F0 target on slt, keeping the length', () => {
    const voice = openFliteVoice(voices.path('slt'));
    const base = say(voice);
    const up = say(voice, { pitchShiftSemitones: 7 });
    expect(up.pitchMethod).toBe('f0-target');
    expect(up.samples.length).toBe(base.samples.length);
    const ratio = medianF0(up.samples, 16000) / medianF0(base.samples, 16000);
    expect(ratio).toBeGreaterThan(1.3);
    expect(ratio).toBeLessThan(1.7);
  });

  it('shifts pitch by resampling on rms, whose SPAM F0 model ignores the F0 target', () => {
    const voice = openFliteVoice(voices.path('rms'));
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
      const clip = say(openFliteVoice(voices.path(name)), { speed, pitchShiftSemitones, wordTimings: true });
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

  it('asks flite for token phones once per token: a repeated clause needs no extra run', () => {
    const cache = new TokenPhoneCache();
    const voice = openFliteVoice(voices.path('slt'));
    const first = synthesizeFlite({ voice, text: 'Your call is important to us.', speed: 1, pitchShiftSemitones: 0, wordTimings: true }, cache);
    expect(cache.size).toBe(6);
    const again = synthesizeFlite({ voice, text: 'Your call is important to us.', speed: 1, pitchShiftSemitones: 0, wordTimings: true }, cache);
    expect(again.words).toEqual(first.words);
    expect(cache.size).toBe(6);
  });

  it('gives no words for a single word and none rather than wrong ones when the phones do not line up', () => {
    const voice = openFliteVoice(voices.path('slt'));
    expect(say(voice, { text: 'Hello.', wordTimings: true }).words).toEqual([]);
    // A number read digit by digit alone puts pauses inside its own phones.
    const phone = say(voice, { text: 'Call 555-1234 now!', wordTimings: true });
    expect(phone.samples.length).toBeGreaterThan(0);
    expect(phone.words).toBeUndefined();
  });
});

describe('voices flite must not use', () => {
  function refusal(action: () => unknown): string {
    try {
      action();
    } catch (error) {
      expect(error).toBeInstanceOf(FliteVoiceError);
      return (error as Error).message;
    }
    throw new Error('the voice was used');
  }

  it('refuses a missing, a truncated and an HTML file before flite reads them, naming the file', () => {
    const missing = join(voices.dir, 'missing.flitevox');
    expect(refusal(() => openFliteVoice(missing))).toBe(`flite voice ${missing} does not exist`);
    const truncated = join(voices.dir, 'truncated.flitevox');
    writeFileSync(truncated, readFileSync(voices.path('slt')).subarray(0, 1_000_000));
    expect(refusal(() => openFliteVoice(truncated))).toMatch(new RegExp(`^flite voice ${truncated} is truncated`));
    const html = join(voices.dir, 'page.flitevox');
    writeFileSync(html, '<html><body>Voice not found</body></html>');
    expect(refusal(() => openFliteVoice(html))).toMatch(new RegExp(`^flite voice ${html} is an HTML`));
  });

  it('refuses a voice of another language than asked for, naming the file and both languages', () => {
    const hindi = join(voices.dir, 'hindi.flitevox');
    writeFileSync(hindi, withFlitevoxFeatures(readFileSync(voices.path('slt')), { language: 'cmu_indic_lang', variant: 'hin' }));
    expect(refusal(() => openFliteVoice(hindi, 'en-IN'))).toBe(`flite voice ${hindi} speaks hin (flite language 'cmu_indic_lang', variant 'hin'), not en-IN`);
    expect(openFliteVoice(hindi, 'hi-IN').header.voiceName).toBe('cmu_us_slt');
    const klingon = join(voices.dir, 'klingon.flitevox');
    writeFileSync(klingon, withFlitevoxFeatures(readFileSync(voices.path('slt')), { language: 'tlh' }));
    expect(refusal(() => openFliteVoice(klingon))).toMatch(/declares flite language 'tlh', which this flite build lacks/);
  });

  it("refuses to speak when flite's stderr says it fell back to a built-in voice (checked after the run too)", () => {
    // The file passes the check, then is swapped for a page, as a racing installer could: flite falls back and exits 0.
    const path = join(voices.dir, 'swapped.flitevox');
    writeFileSync(path, readFileSync(voices.path('slt')));
    const voice = openFliteVoice(path);
    writeFileSync(path, '<html>gone</html>');
    expect(refusal(() => say(voice))).toMatch(new RegExp(`^flite voice ${path} was refused by flite: Error load voice`));
  });
});
