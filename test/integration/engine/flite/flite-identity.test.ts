// Raaga's Flite build speaks the clauses of flite-identity-clauses.ts with the samples the per-clause build it replaced
// spoke (scripts/flite-identity.ts verified that, sample for sample; their SHA-256s are kept here), both when one
// persistent instance speaks them one after the other and when each gets a fresh instance: the instance's state
// (rand()'s seed, a previous clause's features) carries nothing from clause to clause.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withFlitevoxFeatures } from '../../../../fixtures/voices/lib/flite-voices.js';
import { synthesizeFlite } from '../../../../src/engine/flite/flite-synth.js';
import { FliteVoiceBank } from '../../../../src/engine/flite/flite-voice-bank.js';
import { useFliteVoices } from '../../../helpers/flite-voices.js';
import { FLITE_IDENTITY_CLAUSES, clauseSha256, type IdentityClause, type IdentityVoice } from './flite-identity-clauses.js';

const voices = useFliteVoices(['slt', 'rms']);
let paths: Record<IdentityVoice, string>;

beforeAll(() => {
  const hindi = join(voices.dir, 'slt-hin.flitevox');
  writeFileSync(hindi, withFlitevoxFeatures(readFileSync(voices.path('slt')), { language: 'cmu_indic_lang', variant: 'hin' }));
  paths = { slt: voices.path('slt'), rms: voices.path('rms'), 'slt-hin': hindi };
});

const say = (bank: FliteVoiceBank, clause: IdentityClause) =>
  synthesizeFlite(bank, { voicePath: paths[clause.voice], text: clause.text, speed: clause.speed, pitchShiftSemitones: clause.pitchShiftSemitones, wordTimings: true });

describe("the Flite build's samples", () => {
  it('are the golden ones, clause after clause in one persistent instance', () => {
    const bank = new FliteVoiceBank({ modelsDir: voices.dir });
    const spoken = FLITE_IDENTITY_CLAUSES.map((clause) => clauseSha256(say(bank, clause).samples));
    expect(spoken).toEqual(FLITE_IDENTITY_CLAUSES.map((clause) => clause.sha256));
    // All of it in one instance, each voice loaded once.
    expect(bank.stats()).toMatchObject({ instances: 1, voiceLoads: 3, faults: 0 });
  });

  it('are the same from a fresh instance for each clause', () => {
    for (const clause of FLITE_IDENTITY_CLAUSES.slice(1)) {
      const fresh = new FliteVoiceBank({ modelsDir: voices.dir });
      expect(clauseSha256(say(fresh, clause).samples), clause.text).toBe(clause.sha256);
    }
  });
});
