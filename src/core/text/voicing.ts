// How a span of text is spoken beyond its words: the rate, pitch and loudness SSML's <prosody> and <emphasis> ask
// for, and the language a <lang> gives it. The splitter cuts a chunk at every change (split-utterance.ts), so each
// engine job has one voicing; the synthesis applies it (utterance.ts) within Raaga's limits, stated here.

import type { LanguageCode } from '../../languages.js';

export interface Voicing {
  /** Multiplies the request's speed (and a custom voice's rate); the product is clamped to 0.5–2.0. */
  readonly rate: number;
  /** Semitones added to the voice's pitch; with a custom voice's own shift, clamped to ±MAX_PITCH_SEMITONES. */
  readonly pitchSemitones: number;
  /** Gain applied to the chunk's audio after loudness normalisation: MIN_GAIN_DB..MAX_GAIN_DB, or -Infinity (silent). */
  readonly gainDb: number;
  /** The span's language (a `<lang>` among the eight); absent: the request's. */
  readonly language?: LanguageCode;
}

export const NEUTRAL_VOICING: Voicing = { rate: 1, pitchSemitones: 0, gainDb: 0 };

/** The engines' tempo range (the spec's `speed` range): the request's speed times every rate, clamped to it. */
export const MIN_SPEED = 0.5;
export const MAX_SPEED = 2;
/** A pitch shift beyond an octave stops sounding like the voice; custom voices have the same range. */
export const MAX_PITCH_SEMITONES = 12;
/** Quieter than this is inaudible on a phone line; "silent" is its own value (-Infinity). */
export const MIN_GAIN_DB = -40;
/**
 * Louder than this would clip: a clause is normalised to -20 dBFS (speech RMS) with peaks within 0.97 of full scale, so a gain
 * is followed by the same soft peak limiter, and +6 dB is as far as it goes without audibly squashing the speech.
 */
export const MAX_GAIN_DB = 6;

export function isNeutral(voicing: Voicing): boolean {
  return voicing.rate === 1 && voicing.pitchSemitones === 0 && voicing.gainDb === 0 && voicing.language === undefined;
}

/** A stable identity: equal voicings have equal keys (the parser shares one entry per distinct voicing). */
export function voicingKey(voicing: Voicing): string {
  return `${voicing.rate}|${voicing.pitchSemitones}|${voicing.gainDb}|${voicing.language ?? ''}`;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A gain kept within the limits; -Infinity (silent) stays silent. */
export function clampGainDb(gainDb: number): number {
  return gainDb === Number.NEGATIVE_INFINITY ? gainDb : clamp(gainDb, MIN_GAIN_DB, MAX_GAIN_DB);
}
