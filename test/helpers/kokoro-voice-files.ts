// Writes the generated Kokoro test files into a fresh temporary directory: the tone model (or a variant with one
// part of its contract changed) and style files, as an operator would install them.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildKokoroStyleFile } from '../../fixtures/voices/lib/kokoro-style-file.js';
import { buildKokoroToneModel, type KokoroToneContract } from '../../fixtures/voices/lib/kokoro-tone-voice.js';

export interface KokoroVoiceFiles {
  readonly dir: string;
  /** Writes a tone model (name, contract changes) and returns its path. */
  model(name: string, contract?: Partial<KokoroToneContract>): Promise<string>;
  /** Writes a style file whose values carry `seed` and returns its path. */
  style(name: string, seed: number): Promise<string>;
  remove(): Promise<void>;
}

export async function kokoroVoiceFiles(): Promise<KokoroVoiceFiles> {
  const dir = await mkdtemp(join(tmpdir(), 'raaga-kokoro-'));
  return {
    dir,
    async model(name, contract = {}) {
      const path = join(dir, name);
      await writeFile(path, buildKokoroToneModel(contract));
      return path;
    },
    async style(name, seed) {
      const path = join(dir, name);
      await writeFile(path, buildKokoroStyleFile(seed));
      return path;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
