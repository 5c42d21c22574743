// <prosody rate pitch volume> and <emphasis level> values: keywords and unsigned values from the request's own, signed
// ones relative to the enclosing element; Raaga's limits clamp, a value it cannot read is refused naming it.

import { describe, expect, it } from 'vitest';
import { emphasisChange, prosodyChange, REFERENCE_PITCH_HZ } from '../../../../src/core/text/ssml-prosody.js';
import { NEUTRAL_VOICING, type Voicing } from '../../../../src/core/text/voicing.js';
import { ApiError } from '../../../../src/errors.js';

const prosody = (attributes: Record<string, string>, enclosing: Voicing = NEUTRAL_VOICING): Voicing => prosodyChange(new Map(Object.entries(attributes)), 7)(enclosing);
const refused = (attributes: Record<string, string>): string => {
  try {
    prosody(attributes);
  } catch (error) {
    expect((error as ApiError).code).toBe('validation_error');
    return (error as ApiError).message;
  }
  throw new Error('accepted');
};

describe('<prosody rate>', () => {
  it.each([
    ['x-slow', 0.5], ['slow', 0.75], ['medium', 1], ['fast', 1.25], ['x-fast', 1.5], ['80%', 0.8], ['150%', 1.5], ['1.2', 1.2], ['+10%', 1.1], ['-25%', 0.75],
  ])('%s is a rate of %d', (rate, expected) => {
    expect(prosody({ rate }).rate).toBe(expected);
  });

  it('a signed percentage changes the enclosing rate; a keyword or unsigned value replaces it', () => {
    const slow = prosody({ rate: 'slow' });
    expect(prosody({ rate: '+20%' }, slow).rate).toBe(0.9);
    expect(prosody({ rate: 'fast' }, slow).rate).toBe(1.25);
    expect(prosody({ rate: '100%' }, slow).rate).toBe(1);
  });

  it('is clamped to 0.25-4, as far as moves a request speed across the whole 0.5-2.0', () => {
    expect(prosody({ rate: '10%' }).rate).toBe(0.25);
    expect(prosody({ rate: '900%' }).rate).toBe(4);
  });

  it.each(['banana', '0%', '-100%', '+0.5', '3st', '12dB'])('refuses rate="%s"', (rate) => {
    expect(refused({ rate })).toContain(`<prosody rate="${rate}"> at character 7`);
  });
});

describe('<prosody pitch>', () => {
  it.each([
    ['x-low', -6], ['low', -3], ['medium', 0], ['high', 3], ['x-high', 6], ['+2st', 2], ['-1.5st', -1.5], ['+0st', 0], ['-10%', -1.8], ['+20%', 3.2], ['+20Hz', 2.2], ['-30Hz', -3.9],
  ])('%s is %d semitones', (pitch, expected) => {
    expect(prosody({ pitch }).pitchSemitones).toBe(expected);
  });

  it('a change in Hz is taken against the reference pitch; relative values add up, clamped to ±12 semitones', () => {
    expect(REFERENCE_PITCH_HZ).toBe(150);
    expect(prosody({ pitch: '+2st' }, prosody({ pitch: 'high' })).pitchSemitones).toBe(5);
    expect(prosody({ pitch: '+30st' }).pitchSemitones).toBe(12);
    expect(prosody({ pitch: '-8st' }, prosody({ pitch: '-8st' })).pitchSemitones).toBe(-12);
  });

  it.each([
    ['200Hz', 'an absolute pitch depends on the voice'],
    ['-150Hz', 'more than -150Hz'],
    ['-100%', 'a percentage above 0'],
    ['loud', 'is not a pitch'],
    ['+3dB', 'is not a pitch'],
  ])('refuses pitch="%s"', (pitch, why) => {
    expect(refused({ pitch })).toContain(why);
  });
});

describe('<prosody volume>', () => {
  it.each([
    ['silent', Number.NEGATIVE_INFINITY], ['x-soft', -12], ['soft', -6], ['medium', 0], ['loud', 3], ['x-loud', 6], ['-6dB', -6], ['+3dB', 3], ['-3.5db', -3.5], ['50%', -6], ['50', -6], ['0%', Number.NEGATIVE_INFINITY], ['+100%', 6],
  ])('%s is %d dB', (volume, expected) => {
    expect(prosody({ volume }).gainDb).toBe(expected);
  });

  it('is clamped to -40..+6 dB (a gain above would clip); silence stays silent whatever is added', () => {
    expect(prosody({ volume: '+20dB' }).gainDb).toBe(6);
    expect(prosody({ volume: '-60dB' }).gainDb).toBe(-40);
    expect(prosody({ volume: '+6dB' }, prosody({ volume: 'silent' })).gainDb).toBe(Number.NEGATIVE_INFINITY);
    expect(prosody({ volume: '-3dB' }, prosody({ volume: 'soft' })).gainDb).toBe(-9);
  });

  it.each(['quiet', '+2st', '+5Hz'])('refuses volume="%s"', (volume) => {
    expect(refused({ volume })).toContain(`<prosody volume="${volume}"> at character 7 is not a volume`);
  });
});

describe('<emphasis level>', () => {
  it('is a small slowing and a little more loudness, on top of the enclosing voicing', () => {
    const emphasis = (level: string | undefined, enclosing: Voicing = NEUTRAL_VOICING) => emphasisChange(level, 3)(enclosing);
    expect(emphasis('strong')).toEqual({ rate: 0.9, pitchSemitones: 0, gainDb: 3 });
    expect(emphasis(undefined)).toEqual({ rate: 0.95, pitchSemitones: 0, gainDb: 2 });
    expect(emphasis('moderate')).toEqual({ rate: 0.95, pitchSemitones: 0, gainDb: 2 });
    expect(emphasis('reduced')).toEqual({ rate: 1.05, pitchSemitones: 0, gainDb: -3 });
    expect(emphasis('none')).toEqual(NEUTRAL_VOICING);
    expect(emphasis('strong', prosody({ rate: 'fast', volume: '+5dB' }))).toEqual({ rate: 1.125, pitchSemitones: 0, gainDb: 6 });
  });
});
