// SSML's <prosody rate pitch volume> and <emphasis level> as changes of the enclosing span's voicing (voicing.ts).
// Keywords and unsigned values are absolute (from the request's speed, the voice's pitch, the normalised loudness);
// signed values change what the enclosing element set, as SSML 1.1 has it. A value that cannot be read is refused;
// one beyond Raaga's limits is clamped.

import { invalidSsml } from './ssml-error.js';
import { clamp, clampGainDb, MAX_PITCH_SEMITONES, MAX_SPEED, MIN_SPEED, type Voicing } from './voicing.js';

export type VoicingChange = (enclosing: Voicing) => Voicing;

const RATE_KEYWORDS: Readonly<Record<string, number>> = { 'x-slow': 0.5, slow: 0.75, medium: 1, default: 1, fast: 1.25, 'x-fast': 1.5 };
const PITCH_KEYWORDS: Readonly<Record<string, number>> = { 'x-low': -6, low: -3, medium: 0, default: 0, high: 3, 'x-high': 6 };
const VOLUME_KEYWORDS: Readonly<Record<string, number>> = { silent: Number.NEGATIVE_INFINITY, 'x-soft': -12, soft: -6, medium: 0, default: 0, loud: 3, 'x-loud': 6 };

/** A span's own rate may move a request's speed across the whole 0.5–2.0 range, and no further. */
const MIN_RATE = MIN_SPEED / MAX_SPEED;
const MAX_RATE = MAX_SPEED / MIN_SPEED;
/**
 * A relative pitch in Hz needs the voice's own pitch, which only the engine knows: it is converted against this
 * nominal speaking pitch (between typical male and female voices), so "+20Hz" is about +2.2 semitones.
 */
export const REFERENCE_PITCH_HZ = 150;

/** `<emphasis level>`: a small slowing and a little more loudness, relative to the enclosing span. */
export const EMPHASIS: Readonly<Record<string, { readonly rate: number; readonly gainDb: number }>> = {
  strong: { rate: 0.9, gainDb: 3 },
  moderate: { rate: 0.95, gainDb: 2 },
  reduced: { rate: 1.05, gainDb: -3 },
  none: { rate: 1, gainDb: 0 },
};

interface Value {
  readonly sign: '+' | '-' | undefined;
  readonly number: number;
  readonly unit: string;
}

// Bounded digits: the pattern is linear and no value is long enough to overflow.
const VALUE = /^([+-])?(\d{1,6}(?:\.\d{1,6})?|\.\d{1,6})(%|st|db|hz)?$/u;

function parseValue(text: string): Value | undefined {
  const match = VALUE.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  return { sign: match[1] as Value['sign'], number: Number(match[2]), unit: match[3] ?? '' };
}

const signed = ({ sign, number }: Value): number => (sign === '-' ? -number : number);
/** To a step, without float residue (0.30000000000000004), so equal values make equal voicings. */
const round = (value: number, step: number): number => Number((Math.round(value / step) * step).toFixed(3));

function refuse(attribute: string, value: string, at: number, expected: string): never {
  throw invalidSsml(`<prosody ${attribute}="${value}"> at character ${at} is not ${expected}`);
}

/** A rate multiplier of the request's speed: "slow", "80%", "+10%", "1.2". */
function rateChange(text: string, at: number): VoicingChange {
  const keyword = RATE_KEYWORDS[text.trim().toLowerCase()];
  const expected = `a rate (${Object.keys(RATE_KEYWORDS).join(', ')}, a percentage like 80% or +10%, or a multiplier like 1.2)`;
  let absolute: number | undefined = keyword;
  let relative: number | undefined;
  if (keyword === undefined) {
    const value = parseValue(text);
    if (!value || (value.unit !== '%' && value.unit !== '') || (value.unit === '' && value.sign !== undefined)) refuse('rate', text, at, expected);
    if (value.sign === undefined) absolute = value.unit === '%' ? value.number / 100 : value.number;
    else relative = 1 + signed(value) / 100;
    if ((absolute ?? relative ?? 0) <= 0) refuse('rate', text, at, 'more than 0');
  }
  return (enclosing) => ({ ...enclosing, rate: round(clamp(absolute ?? enclosing.rate * (relative as number), MIN_RATE, MAX_RATE), 0.001) });
}

/** Semitones from the voice's pitch: "high", "+2st", "-10%", "+20Hz". */
function pitchChange(text: string, at: number): VoicingChange {
  const keyword = PITCH_KEYWORDS[text.trim().toLowerCase()];
  let absolute: number | undefined = keyword;
  let relative: number | undefined;
  if (keyword === undefined) {
    const value = parseValue(text);
    const expected = `a pitch (${Object.keys(PITCH_KEYWORDS).join(', ')}, semitones like +2st, a percentage like -10%, or a change in Hz like +20Hz)`;
    if (!value || value.unit === 'db' || value.unit === '') refuse('pitch', text, at, expected);
    if (value.unit === 'hz') {
      // An absolute pitch is the voice's business; only a change can be applied to every voice alike.
      if (value.sign === undefined) refuse('pitch', text, at, 'a relative change (write +20Hz, +2st or -10%: an absolute pitch depends on the voice)');
      const target = REFERENCE_PITCH_HZ + signed(value);
      if (target <= 0) refuse('pitch', text, at, `a change Raaga can apply (more than -${REFERENCE_PITCH_HZ}Hz)`);
      relative = 12 * Math.log2(target / REFERENCE_PITCH_HZ);
    } else if (value.unit === '%') {
      const factor = value.sign === undefined ? value.number / 100 : 1 + signed(value) / 100;
      if (factor <= 0) refuse('pitch', text, at, 'a percentage above 0 (or above -100%)');
      const semitones = 12 * Math.log2(factor);
      if (value.sign === undefined) absolute = semitones;
      else relative = semitones;
    } else if (value.sign === undefined) absolute = value.number;
    else relative = signed(value);
  }
  return (enclosing) => ({
    ...enclosing,
    pitchSemitones: round(clamp(absolute ?? enclosing.pitchSemitones + (relative as number), -MAX_PITCH_SEMITONES, MAX_PITCH_SEMITONES), 0.1),
  });
}

/** Decibels on the normalised loudness: "soft", "+6dB", "-3dB", "50%" (of the amplitude), "silent". */
function volumeChange(text: string, at: number): VoicingChange {
  const keyword = VOLUME_KEYWORDS[text.trim().toLowerCase()];
  let absolute: number | undefined = keyword;
  let relative: number | undefined;
  if (keyword === undefined) {
    const value = parseValue(text);
    const expected = `a volume (${Object.keys(VOLUME_KEYWORDS).join(', ')}, decibels like +6dB or -3dB, or a percentage of the normal loudness like 50%)`;
    if (!value || value.unit === 'st' || value.unit === 'hz') refuse('volume', text, at, expected);
    if (value.unit === 'db') {
      if (value.sign === undefined) absolute = value.number;
      else relative = signed(value);
    } else {
      // A percentage (or a bare number, as Azure writes it) of the amplitude: 0 is silence.
      const factor = value.sign === undefined ? value.number / 100 : 1 + signed(value) / 100;
      const db = factor <= 0 ? Number.NEGATIVE_INFINITY : 20 * Math.log10(factor);
      if (value.sign === undefined) absolute = db;
      else relative = db;
    }
  }
  return (enclosing) => {
    const gainDb = absolute ?? enclosing.gainDb + (relative as number);
    return { ...enclosing, gainDb: Number.isFinite(gainDb) ? round(clampGainDb(gainDb), 0.1) : Number.NEGATIVE_INFINITY };
  };
}

/** The change a <prosody> makes; attributes other than rate, pitch and volume (duration, contour, range) are ignored. */
export function prosodyChange(attributes: ReadonlyMap<string, string>, at: number): VoicingChange {
  const changes: VoicingChange[] = [];
  const rate = attributes.get('rate');
  const pitch = attributes.get('pitch');
  const volume = attributes.get('volume');
  if (rate !== undefined) changes.push(rateChange(rate, at));
  if (pitch !== undefined) changes.push(pitchChange(pitch, at));
  if (volume !== undefined) changes.push(volumeChange(volume, at));
  return (enclosing) => changes.reduce((voicing, change) => change(voicing), enclosing);
}

/** The change an <emphasis> makes (level "moderate" when absent). */
export function emphasisChange(level: string | undefined, at: number): VoicingChange {
  const emphasis = EMPHASIS[level ?? 'moderate'];
  if (!emphasis) throw invalidSsml(`<emphasis level="${level}"> at character ${at} is not one of ${Object.keys(EMPHASIS).join(', ')}`);
  return (enclosing) => ({
    ...enclosing,
    rate: round(clamp(enclosing.rate * emphasis.rate, MIN_RATE, MAX_RATE), 0.001),
    gainDb: enclosing.gainDb === Number.NEGATIVE_INFINITY ? enclosing.gainDb : round(clampGainDb(enclosing.gainDb + emphasis.gainDb), 0.1),
  });
}
