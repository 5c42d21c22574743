// An engine build held to its BUILD.json (engine/build-record-check.ts) on real copies of the tree's two builds:
// the intact copy passes; one byte changed in one file, that file deleted, or BUILD.json lost, and the check names
// that file with the script that rebuilds it. The answer is kept per directory: the files are hashed once a process.

import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBuildRecord, checkEngineBuild } from '../../../src/engine/build-record-check.js';
import { ESPEAK_BUILD_FILES } from '../../../src/engine/espeak-engine.js';
import { FLITE_BUILD_FILES } from '../../../src/engine/flite/flite-build.js';
import { buildCopies, changeOneByte } from '../../helpers/engine-build-copies.js';

const flite = buildCopies(FLITE_BUILD_FILES.dir);
const espeak = buildCopies(ESPEAK_BUILD_FILES.dir);
afterAll(async () => {
  await flite.remove();
  await espeak.remove();
});

const recorded = async (dir: string): Promise<Record<string, string>> => (JSON.parse(await readFile(join(dir, 'BUILD.json'), 'utf8')) as { sha256: Record<string, string> }).sha256;
const FLITE_FIX = 'rebuild with scripts/build-flite-wasm.sh or restore the file';

describe('a build held to its BUILD.json', () => {
  it('passes when every file it lists is there with its SHA-256: the tree’s own builds and copies of them', async () => {
    expect(await checkBuildRecord(FLITE_BUILD_FILES)).toBeUndefined();
    expect(await checkBuildRecord(ESPEAK_BUILD_FILES)).toBeUndefined();
    expect(await checkBuildRecord({ ...FLITE_BUILD_FILES, dir: await flite.copy() })).toBeUndefined();
  });

  it('names the file with one byte changed, its hash and the recorded one, and how to fix it', async () => {
    const dir = await flite.copy();
    await changeOneByte(join(dir, 'flite.wasm'));
    const mismatch = await checkBuildRecord({ ...FLITE_BUILD_FILES, dir });
    expect(mismatch?.file).toBe(join(dir, 'flite.wasm'));
    expect(mismatch?.message).toMatch(
      new RegExp(`^${join(dir, 'flite.wasm')} does not match its BUILD.json \\(sha256 [0-9a-f]{64}, BUILD.json says ${(await recorded(dir))['flite.wasm']}\\): ${FLITE_FIX}$`),
    );
  });

  it('names a file it lists that is gone', async () => {
    const dir = await flite.copy();
    await rm(join(dir, 'flite.cjs'));
    expect(await checkBuildRecord({ ...FLITE_BUILD_FILES, dir })).toEqual({
      file: join(dir, 'flite.cjs'),
      message: `${join(dir, 'flite.cjs')} is missing, though its BUILD.json lists it (sha256 ${(await recorded(dir))['flite.cjs']}): ${FLITE_FIX}`,
    });
  });

  it('names one eSpeak NG data file among the hundreds, with eSpeak’s own build script', async () => {
    const dir = await espeak.copy();
    await changeOneByte(join(dir, 'espeak-ng-data', 'hi_dict'));
    const mismatch = await checkEngineBuild('espeak', ESPEAK_BUILD_FILES, { espeak: dir });
    expect(mismatch?.file).toBe(join(dir, 'espeak-ng-data', 'hi_dict'));
    expect(mismatch?.message).toMatch(/ does not match its BUILD\.json \(sha256 .*\): rebuild with scripts\/build-espeak-ng-wasm\.sh or restore the file$/);
  });

  it('names BUILD.json when it is gone or records no files', async () => {
    const gone = await flite.copy();
    await rm(join(gone, 'BUILD.json'));
    expect(await checkBuildRecord({ ...FLITE_BUILD_FILES, dir: gone })).toEqual({ file: join(gone, 'BUILD.json'), message: `${join(gone, 'BUILD.json')} is missing: ${FLITE_FIX}` });
    const empty = await flite.copy();
    await writeFile(join(empty, 'BUILD.json'), JSON.stringify({ source: 'flite' }));
    expect((await checkBuildRecord({ ...FLITE_BUILD_FILES, dir: empty }))?.message).toBe(`${join(empty, 'BUILD.json')} has no sha256 record of its files: ${FLITE_FIX}`);
  });

  it('refuses a record that lists a file outside its directory', async () => {
    const dir = await flite.copy();
    await writeFile(join(dir, 'BUILD.json'), JSON.stringify({ sha256: { '../elsewhere': 'a'.repeat(64) } }));
    expect((await checkBuildRecord({ ...FLITE_BUILD_FILES, dir }))?.message).toBe(`${join(dir, 'BUILD.json')} lists ../elsewhere, which is outside its directory: ${FLITE_FIX}`);
  });

  it('hashes a directory once per process: a later call gets the first answer', async () => {
    const dir = await flite.copy();
    const first = checkBuildRecord({ ...FLITE_BUILD_FILES, dir });
    expect(checkBuildRecord({ ...FLITE_BUILD_FILES, dir: `${dir}/` })).toBe(first);
    expect(await first).toBeUndefined();
  });
});
