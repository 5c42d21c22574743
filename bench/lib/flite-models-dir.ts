// A models directory (RAAGA_MODELS_DIR) in which the preset voice priya speaks en-IN with a Flite voice made here:
// Flite's own slt dumped from the dev dependency (2.5 MB), or its stand-in inflated to the size class of the
// largest CMU Indic voices (28.6 MB, bench/lib/flitevox-inflate.ts). For the benches that run a whole server.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dumpFliteVoice } from '../../fixtures/voices/lib/flite-voices.js';
import { writeManifestWithPacks } from '../../test/helpers/voice-packs.js';
import { inflateFlitevox } from './flitevox-inflate.js';

export type FliteSizeClass = 'flite' | 'flite-large';

/** The stand-in of a 28.6 MB voice repeats slt's parameter model this many times. */
const LARGE_COPIES = 12;

export async function fliteModelsDir(sizeClass: FliteSizeClass): Promise<{ dir: string; voicePath: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'raaga-bench-flite-'));
  let voicePath = dumpFliteVoice('slt', dir);
  if (sizeClass === 'flite-large') {
    const large = join(dir, 'slt-x12.flitevox');
    writeFileSync(large, inflateFlitevox(readFileSync(voicePath), LARGE_COPIES));
    voicePath = large;
  }
  await writeManifestWithPacks(dir, { priya: { 'en-IN': { engine: 'flite', path: voicePath } } });
  return { dir, voicePath };
}
