// Both installers refuse a Flite voice while Flite's build does not match its BUILD.json: `raaga voices add` with a
// real .flitevox and `raaga voices install` with a catalog entry, each before any file is fetched or copied, naming the
// file, with the manifest and models/packs/ left as they were. A Piper pack (no build of Raaga's own) still installs.

import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCatalogVoice } from '../../../src/cli/voice-install/catalog-install.js';
import { installPack } from '../../../src/cli/voice-install/install-pack.js';
import { VoiceCatalogIndex } from '../../../src/cli/voice-install/voice-catalog-entries.js';
import { FLITE_BUILD_FILES } from '../../../src/engine/flite/flite-build.js';
import { dumpFliteVoice } from '../../../fixtures/voices/lib/flite-voices.js';
import { TONE_ESPEAK } from '../../../fixtures/voices/lib/fixture-voices.js';
import { buildCopies, changeOneByte } from '../../helpers/engine-build-copies.js';
import { REPO_MANIFEST } from '../../helpers/voice-packs.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const flite = buildCopies(FLITE_BUILD_FILES.dir);
let dir: string;
let slt: string;
let broken: string;
let wasm: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-install-build-'));
  slt = dumpFliteVoice('slt', join(dir, 'voices'));
  broken = await flite.copy();
  wasm = join(broken, 'flite.wasm');
  await changeOneByte(wasm);
});
afterAll(async () => {
  await flite.remove();
  await rm(dir, { recursive: true, force: true });
});

async function modelsDir(name: string): Promise<string> {
  const models = join(dir, name);
  await mkdir(join(models, 'raaga-v1'), { recursive: true });
  await cp(REPO_MANIFEST, join(models, 'raaga-v1', 'manifest.json'));
  return models;
}

const refusal = (): RegExp =>
  new RegExp(`^flite voices cannot be installed: ${wasm} does not match its BUILD.json \\(sha256 [0-9a-f]{64}, BUILD.json says [0-9a-f]{64}\\): rebuild with scripts/build-flite-wasm.sh or restore the file; nothing was installed$`);

describe('installing a Flite voice while Flite’s build does not match its BUILD.json', () => {
  it('raaga voices add refuses it naming the file, and installs nothing', async () => {
    const models = await modelsDir('add');
    const before = await readFile(join(models, 'raaga-v1', 'manifest.json'), 'utf8');
    await expect(installPack({ modelsDir: models, sources: [slt], voiceName: 'priya', language: 'en-IN', buildDirs: { flite: broken } })).rejects.toThrow(refusal());
    expect(await readFile(join(models, 'raaga-v1', 'manifest.json'), 'utf8')).toBe(before);
    expect(await readdir(join(models, 'packs')).catch(() => [])).toEqual([]);
  });

  it('raaga voices install refuses a catalog entry before fetching anything', async () => {
    const models = await modelsDir('install');
    const before = await readFile(join(models, 'raaga-v1', 'manifest.json'), 'utf8');
    const catalog = VoiceCatalogIndex.load();
    expect(catalog.entry('flite-cmu-indic-hin-ab')?.engine).toBe('flite');
    await expect(installCatalogVoice({ modelsDir: models, catalog, id: 'flite-cmu-indic-hin-ab', buildDirs: { flite: broken } })).rejects.toThrow(refusal());
    expect(await readFile(join(models, 'raaga-v1', 'manifest.json'), 'utf8')).toBe(before);
    expect(await readdir(join(models, 'packs')).catch(() => [])).toEqual([]);
  });

  it('leaves the kinds without a build of their own alone: a Piper pack installs', async () => {
    const models = await modelsDir('piper');
    const result = await installPack({ modelsDir: models, sources: [join(root, 'fixtures', 'voices', TONE_ESPEAK.name)], voiceName: 'aarav', language: 'hi-IN', buildDirs: { flite: broken } });
    expect(result.engine).toBe('piper');
  }, 60_000);
});
