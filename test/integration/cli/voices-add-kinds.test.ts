// `raaga voices add` for every engine kind through the kind's own files and trial: a Flite .flitevox (as an operator
// runs it, a real process) and a Kokoro model with a voice's style file (the installer in this process); and bad input,
// each refused naming the file with the manifest and models/packs/ left as they were: a truncated voice, an HTML page
// saved as one, a voice for another language, one over the size bound, a symbolic link, a pack directory linking out.

import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installPack, type InstallRequest } from '../../../src/cli/voice-install/install-pack.js';
import { loadVoiceCatalog } from '../../../src/core/voice-catalog.js';
import { dumpFliteVoice } from '../../../fixtures/voices/lib/flite-voices.js';
import { kokoroVoiceFiles, type KokoroVoiceFiles } from '../../helpers/kokoro-voice-files.js';
import { REPO_MANIFEST } from '../../helpers/voice-packs.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;
let modelsDir: string;
let slt: string;
let kokoro: KokoroVoiceFiles;

const manifestFile = () => join(modelsDir, 'raaga-v1', 'manifest.json');

function raaga(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/raaga.mjs'), ...args], { cwd: root, env: { ...process.env, RAAGA_DATA_DIR: join(dir, 'data'), RAAGA_MODELS_DIR: modelsDir } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-voices-add-kinds-'));
  slt = dumpFliteVoice('slt', join(dir, 'voices'));
  kokoro = await kokoroVoiceFiles();
}, 60_000);
afterAll(async () => {
  await kokoro.remove();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  modelsDir = join(dir, `models-${Date.now()}`);
  await mkdir(join(modelsDir, 'raaga-v1'), { recursive: true });
  await cp(REPO_MANIFEST, manifestFile());
});

/** Installing `sources` fails naming `file`, and leaves the manifest and models/packs/ as they were. */
async function refused(request: Partial<InstallRequest> & Pick<InstallRequest, 'sources'>, message: RegExp | string): Promise<void> {
  const before = await readFile(manifestFile(), 'utf8');
  await expect(installPack({ modelsDir, voiceName: 'priya', language: 'en-IN', ...request })).rejects.toThrow(message);
  expect(await readFile(manifestFile(), 'utf8')).toBe(before);
  expect(await readdir(join(modelsDir, 'packs')).catch(() => [])).toEqual([]);
}

describe('raaga voices add, every kind', () => {
  it('installs a .flitevox: checked and spoken by flite, recorded as a flite pack', async () => {
    const run = await raaga('voices', 'add', slt, '--voice', 'priya', '--language', 'en-IN');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Installed voice pack slt \(flite\) in .*\/packs\/slt\/: it spoke a test sentence of \d+\.\d s at 16000 Hz\./);
    expect(await readdir(join(modelsDir, 'packs', 'slt'))).toEqual(['slt.flitevox']);
    expect(loadVoiceCatalog(manifestFile()).voicePacks()).toEqual([
      { voiceName: 'priya', language: 'en-IN', engine: 'flite', path: 'packs/slt/slt.flitevox', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), options: {} },
    ]);
  }, 60_000);

  it('installs a Kokoro voice: its model and style file given together, spoken by the Kokoro engine', async () => {
    const model = await kokoro.model('model_tone.onnx');
    const style = await kokoro.style('hf_alpha.bin', 1);
    const result = await installPack({ modelsDir, sources: [model, style], voiceName: 'aarav', language: 'hi-IN' });
    expect(result).toMatchObject({ name: 'model_tone', engine: 'kokoro', path: 'packs/model_tone/model_tone.onnx', reused: false, trial: { sampleRateHz: 24000 } });
    expect((await readdir(join(modelsDir, 'packs', 'model_tone'))).sort()).toEqual(['hf_alpha.bin', 'model_tone.onnx']);
    expect(loadVoiceCatalog(manifestFile()).voicePacks()).toEqual([
      { voiceName: 'aarav', language: 'hi-IN', engine: 'kokoro', path: 'packs/model_tone/model_tone.onnx', sha256: result.sha256, options: { style: 'packs/model_tone/hf_alpha.bin' } },
    ]);
  }, 60_000);

  it('says what a pack is made of when the files make none', async () => {
    const lone = join(dir, 'lone');
    await mkdir(lone, { recursive: true });
    await writeFile(join(lone, 'notes.txt'), 'hello');
    await refused({ sources: [lone] }, /is no voice pack \(piper: no \.onnx file; kokoro: no \.onnx file; flite: no \.flitevox file\)\. A pack is, by kind, piper: Piper model/);
  });
});

describe('raaga voices add refuses bad input, naming the file', () => {
  it('a truncated voice file', async () => {
    const truncated = join(dir, 'truncated.flitevox');
    await writeFile(truncated, (await readFile(slt)).subarray(0, 200_000));
    await refused({ sources: [truncated] }, new RegExp(`${truncated} does not load and speak as a flite voice: flite voice ${truncated} .*; nothing was installed`));
  });

  it('an HTML page saved as a voice file', async () => {
    const html = join(dir, 'page.flitevox');
    await writeFile(html, '<!doctype html><html><body>Sign in to download this file</body></html>');
    await refused({ sources: [html] }, new RegExp(`flite voice ${html} .*`));
  });

  it('a voice for another language', async () => {
    await refused({ sources: [slt], language: 'hi-IN', voiceName: 'aarav' }, /slt\.flitevox speaks eng .*not hi-IN/);
  });

  it('a voice file over the size bound', async () => {
    await refused({ sources: [slt], maxBytes: 100_000 }, new RegExp(`${slt} is \\d+ bytes, more than the 100000 allowed for this file`));
  });

  it('a symbolic link given as the voice file', async () => {
    const link = join(dir, 'link.flitevox');
    await symlink(slt, link).catch(() => undefined);
    await refused({ sources: [link] }, new RegExp(`${link} is a symbolic link \\(to ${slt}\\): a pack's files are copied into RAAGA_MODELS_DIR, never read through a link`));
  });

  it('a pack directory holding a link out of it', async () => {
    const linking = join(dir, 'linking');
    await mkdir(linking, { recursive: true });
    await symlink('/etc/passwd', join(linking, 'voice.flitevox')).catch(() => undefined);
    await refused({ sources: [linking] }, new RegExp(`${join(linking, 'voice.flitevox')} is a symbolic link \\(to /etc/passwd\\) in the pack directory ${linking}`));
  });
});
