// Variant file generation: what eSpeak NG reads for a voice, and how a semitone shift moves its pitch.

import { describe, expect, it } from 'vitest';
import { shiftedPitch, variantFileText, variantKey } from '../../../src/engine/espeak/espeak-variant.js';
import type { EmbeddedVoiceParams } from '../../../src/engine/espeak/espeak-voice-params.js';

const voice: EmbeddedVoiceParams = {
  pitchBaseHz: 100,
  pitchMaxHz: 140,
  formants: [
    [100, 100],
    [95, 100],
    [97, 100],
    [99, 90],
    [100, 90],
    [101, 90],
  ],
  breath: 3,
  roughness: 2,
  intonationRange: 60,
  wordsPerMinute: 175,
};

describe('variantFileText', () => {
  it('writes pitch, one line per formant, breath and roughness', () => {
    const text = variantFileText('raaga_0', voice, 0);
    expect(text.split('\n')).toEqual([
      'language variant',
      'name raaga_0',
      'pitch 100 140',
      'formant 0 100 100 100',
      'formant 1 95 100 100',
      'formant 2 97 100 100',
      'formant 3 99 90 100',
      'formant 4 100 90 100',
      'formant 5 101 90 100',
      'breath 0 3 3 3 3 3 3 3',
      'roughness 2',
      '',
    ]);
  });

  it('writes no breath line for a voice without breath (the line alone costs synthesis time)', () => {
    const lines = variantFileText('raaga_1', { ...voice, breath: 0.4 }, 0).split('\n');
    expect(lines.filter((line) => line.startsWith('breath'))).toEqual([]);
    expect(lines).toContain('roughness 2');
    expect(variantFileText('raaga_2', { ...voice, breath: 0.6 }, 0)).toContain('breath 0 1 1 1 1 1 1 1\n');
  });

  it('scales pitch by 2^(st/12) around eSpeak’s 9 Hz offset', () => {
    expect(shiftedPitch(voice, 0)).toEqual({ base: 100, max: 140 });
    const up = shiftedPitch(voice, 12);
    expect(up).toEqual({ base: 191, max: 271 });
    const down = shiftedPitch(voice, -12);
    expect(down.base).toBe(55);
    expect(variantFileText('v', voice, 4)).toContain('pitch 124 174');
  });
});

describe('variantKey', () => {
  it('differs for different params or shifts, and ignores rate and intonation range', () => {
    expect(variantKey(voice, 0)).toBe(variantKey({ ...voice, wordsPerMinute: 200, intonationRange: 10 }, 0));
    expect(variantKey(voice, 0)).not.toBe(variantKey(voice, 1));
    expect(variantKey(voice, 0)).not.toBe(variantKey({ ...voice, breath: 4 }, 0));
    expect(variantKey(voice, 0.001)).toBe(variantKey(voice, 0));
  });
});
