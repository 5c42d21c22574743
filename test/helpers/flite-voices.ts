// Real Flite voice files for one test file: the built-in clustergen voices dumped as .flitevox into a temp directory
// before its tests (about 50-100 ms each) and removed after; nothing is downloaded or committed.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { dumpFliteVoice, type BuiltinFliteVoice } from '../../fixtures/voices/lib/flite-voices.js';

export interface FliteVoiceFixture {
  /** The temp directory, for files a test writes beside the voices. */
  readonly dir: string;
  /** The dumped voice's path; only valid inside the tests and hooks of the file that called useFliteVoices. */
  path(name: BuiltinFliteVoice): string;
}

export function useFliteVoices(names: readonly BuiltinFliteVoice[] = ['slt']): FliteVoiceFixture {
  let dir: string | undefined;
  const paths = new Map<BuiltinFliteVoice, string>();
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'raaga-flite-voices-'));
    for (const name of names) paths.set(name, dumpFliteVoice(name, dir));
  });
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir(): string {
      if (dir === undefined) throw new Error('the flite voices are used outside the tests of their file');
      return dir;
    },
    path(name: BuiltinFliteVoice): string {
      const path = paths.get(name);
      if (path === undefined) throw new Error(`flite voice ${name} was not dumped for this file`);
      return path;
    },
  };
}
