// Turns a voice's EmbeddedVoiceParams (plus a custom voice's pitch shift) into an eSpeak NG variant file.
// Pure text generation so the mapping is unit-testable without loading the eSpeak build.

import type { EmbeddedVoiceParams } from './espeak-voice-params.js';

/** Where eSpeak looks up `lang+variant`: variant files are written here in the build's in-memory file system. */
export const ESPEAK_VARIANT_DIR = '/usr/share/espeak-ng-data/voices/!v/';

/** eSpeak's `pitch` keyword stores (Hz - 9) internally, so shifting keeps that offset to scale F0 exactly. */
const ESPEAK_PITCH_OFFSET_HZ = 9;

/** Cache key of one (params, shift) pair; identical keys always produce identical variant text. */
export function variantKey(params: EmbeddedVoiceParams, pitchShiftSemitones: number): string {
  const shift = Math.round(pitchShiftSemitones * 100) / 100;
  return JSON.stringify([
    params.pitchBaseHz,
    params.pitchMaxHz,
    params.formants,
    params.breath,
    params.roughness,
    shift,
  ]);
}

/** Base and max pitch in Hz after a semitone shift, rounded to what the variant file can hold. */
export function shiftedPitch(params: EmbeddedVoiceParams, pitchShiftSemitones: number): { base: number; max: number } {
  const ratio = 2 ** (pitchShiftSemitones / 12);
  const base = ESPEAK_PITCH_OFFSET_HZ + (params.pitchBaseHz - ESPEAK_PITCH_OFFSET_HZ) * ratio;
  const max = base + (params.pitchMaxHz - params.pitchBaseHz) * ratio;
  return { base: Math.round(base), max: Math.round(max) };
}

/**
 * Variant file text. Rate and intonation range are not here: they are per-call settings (set_rate,
 * set_range) so one variant serves every speed.
 */
export function variantFileText(name: string, params: EmbeddedVoiceParams, pitchShiftSemitones: number): string {
  const { base, max } = shiftedPitch(params, pitchShiftSemitones);
  const lines = ['language variant', `name ${name}`, `pitch ${base} ${max}`];
  params.formants.forEach(([frequencyPercent, strengthPercent], index) => {
    // Width stays at eSpeak's default 100%; frequency scaling models vocal-tract length.
    lines.push(`formant ${index} ${Math.round(frequencyPercent)} ${Math.round(strengthPercent)} 100`);
  });
  const breath = Math.round(params.breath);
  // Breath noise goes on F1..F7; none on the low nasal formant F0, as in eSpeak's own female variants. A `breath` line
  // turns eSpeak's breath stage (a random number per sample) on even when all its amounts are 0: synthesis time for
  // nothing in the samples (the same bytes with the clock fixed: test/integration/engine/espeak-build.test.ts).
  if (breath !== 0) lines.push(`breath 0 ${Array.from({ length: 7 }, () => breath).join(' ')}`);
  lines.push(`roughness ${Math.round(params.roughness)}`);
  return `${lines.join('\n')}\n`;
}
