// `raaga voices install` as an operator runs it, against a loopback HTTPS server (a certificate made at test time)
// serving generated voice files under an operator catalog (RAAGA_VOICE_CATALOG): checksum and size verified, a
// broken download resumed with a Range request, an HTML page or a mirror's wrong file refused with nothing
// installed, licences that need --accept-licence, a trial sentence with the pack's own engine, one manifest write.

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadVoiceCatalog } from '../../../src/core/voice-catalog.js';
import { TONE_ESPEAK } from '../../../fixtures/voices/lib/fixture-voices.js';
import { loopbackCertificate, startFileServer, type FileServer } from '../../helpers/file-server.js';
import { REPO_MANIFEST } from '../../helpers/voice-packs.js';
import { dumpFliteVoice } from '../../../fixtures/voices/lib/flite-voices.js';
import { buildKokoroToneModel } from '../../../fixtures/voices/lib/kokoro-tone-voice.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const toneDir = join(root, 'fixtures', 'voices', TONE_ESPEAK.name);
let dir: string;
let modelsDir: string;
let catalogPath: string;
let server: FileServer;
let model: Buffer;
let sidecar: Buffer;
let flite: Buffer;
let kokoroModel: Buffer;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const manifestFile = () => join(modelsDir, 'raaga-v1', 'manifest.json');

function raaga(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'bin/raaga.mjs'), ...args],
      { cwd: root, env: { ...process.env, RAAGA_DATA_DIR: join(dir, 'data'), RAAGA_MODELS_DIR: modelsDir, RAAGA_VOICE_CATALOG: catalogPath, NODE_EXTRA_CA_CERTS: loopbackCertificate().certPath } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function entry(id: string, folder: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    engine: 'piper',
    languages: ['hi-IN'],
    gender: 'male',
    speaker: 'tone',
    licence: { name: 'Test licence', spdx: null, commercial_use: true, url: 'https://example.test/licence' },
    files: [
      { name: 'hi_IN-tone.onnx', url: `${server.url}/${folder}/hi_IN-tone.onnx`, size_bytes: model.length, checksum: { algorithm: 'sha256', value: sha256(model) }, checksum_source: 'generated' },
      { name: 'hi_IN-tone.onnx.json', url: `${server.url}/${folder}/hi_IN-tone.onnx.json`, size_bytes: sidecar.length, checksum: { algorithm: 'sha256', value: sha256(sidecar) }, checksum_source: 'generated' },
    ],
    quality: null,
    notes: 'a generated test voice',
    presets: { 'hi-IN': ['aarav', 'rohan'] },
    ...overrides,
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-voices-install-'));
  model = await readFile(join(toneDir, 'model.onnx'));
  sidecar = await readFile(join(toneDir, 'model.onnx.json'));
  const html = Buffer.from('<!doctype html><html><body>Sign in to download this file</body></html>');
  flite = await readFile(dumpFliteVoice('slt', join(dir, 'flite')));
  kokoroModel = Buffer.from(buildKokoroToneModel());
  server = await startFileServer(
    {
      '/ok/hi_IN-tone.onnx': { body: model },
      '/ok/hi_IN-tone.onnx.json': { body: sidecar },
      '/html/hi_IN-tone.onnx': { body: html, contentType: 'text/html' },
      '/html/hi_IN-tone.onnx.json': { body: sidecar },
      '/cut/hi_IN-tone.onnx': { body: model, cutAfterBytes: Math.floor(model.length / 3) },
      '/cut/hi_IN-tone.onnx.json': { body: sidecar },
      '/flite/cmu_us_slt.flitevox': { body: flite },
      '/kokoro/model_tone.onnx': { body: kokoroModel },
    },
    { https: true },
  );
  catalogPath = join(dir, 'catalog.json');
  await writeFile(
    catalogPath,
    JSON.stringify([
      entry('test-tone', 'ok'),
      entry('test-tone-nc', 'ok', { licence: { name: 'CC BY-NC 4.0', spdx: 'CC-BY-NC-4.0', commercial_use: false, url: 'https://example.test/nc' } }),
      entry('test-tone-html', 'html'),
      entry('test-tone-cut', 'cut'),
      ...['en-IN', 'gu-IN'].map((language) => ({
        ...entry(`test-flite-slt-${language.slice(0, 2)}`, 'flite'),
        engine: 'flite',
        languages: [language],
        files: [{ name: 'cmu_us_slt.flitevox', url: `${server.url}/flite/cmu_us_slt.flitevox`, size_bytes: flite.length, checksum: { algorithm: 'sha512', value: createHash('sha512').update(flite).digest('hex') }, checksum_source: 'generated' }],
        presets: { [language]: ['priya', 'meera'] },
      })),
      {
        ...entry('test-kokoro-model', 'kokoro'),
        engine: 'kokoro-model',
        languages: ['en-IN', 'hi-IN'],
        files: [{ name: 'model_tone.onnx', url: `${server.url}/kokoro/model_tone.onnx`, size_bytes: kokoroModel.length, checksum: { algorithm: 'sha256', value: sha256(kokoroModel) }, checksum_source: 'generated' }],
        presets: {},
      },
    ]),
  );
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});
let testNumber = 0;
beforeEach(async () => {
  // A models directory of its own per test.
  modelsDir = join(dir, `models-${++testNumber}`);
  await mkdir(join(modelsDir, 'raaga-v1'), { recursive: true });
  await cp(REPO_MANIFEST, manifestFile());
  server.requests.length = 0;
});

describe('raaga voices install', () => {
  it('installs a catalog voice for its presets: verified, spoken once, recorded in one write; again, reused', async () => {
    const run = await raaga('voices', 'install', 'test-tone');
    expect(run.stderr).toMatch(/downloading hi_IN-tone\.onnx/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Installed test-tone \(piper, hi-IN\): it spoke a test sentence of \d+\.\d s at 22050 Hz\./);
    expect(run.stdout).toMatch(/aarav, rohan now speak hi-IN with it/);
    const path = 'packs/test-tone/hi_IN-tone.onnx';
    // In manifest order (aarav comes before rohan there).
    expect(loadVoiceCatalog(manifestFile()).voicePacks()).toEqual([
      { voiceName: 'aarav', language: 'hi-IN', engine: 'piper', path, sha256: sha256(model), options: { speaker: 0 } },
      { voiceName: 'rohan', language: 'hi-IN', engine: 'piper', path, sha256: sha256(model), options: { speaker: 0 } },
    ]);
    expect((await readdir(join(modelsDir, 'packs', 'test-tone'))).sort()).toEqual(['hi_IN-tone.onnx', 'hi_IN-tone.onnx.json']);
    expect(await readdir(join(modelsDir, 'packs', '.downloads'))).toEqual([]);
    server.requests.length = 0;
    const again = await raaga('voices', 'install', 'test-tone', '--voice', 'meera', '--json');
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as { files: { reused: boolean }[] }).files.every((file) => file.reused)).toBe(true);
    expect(server.requests).toEqual([]);
    expect(loadVoiceCatalog(manifestFile()).voicePacks().map((pack) => pack.voiceName).sort()).toEqual(['aarav', 'meera', 'rohan']);
    // `voices list`: who speaks each preset and language now.
    const listed = JSON.parse((await raaga('voices', 'list', '--json')).stdout) as { voice: string; language: string; engine: string; pack: string | null }[];
    expect(listed).toHaveLength(16 * 8);
    expect(listed.find((pair) => pair.voice === 'meera' && pair.language === 'hi-IN')).toEqual({ voice: 'meera', language: 'hi-IN', engine: 'piper', pack: path });
    expect(listed.find((pair) => pair.voice === 'meera' && pair.language === 'ta-IN')).toEqual({ voice: 'meera', language: 'ta-IN', engine: 'espeak', pack: null });
    await rm(join(modelsDir, 'packs', 'test-tone', 'hi_IN-tone.onnx'));
    const missing = JSON.parse((await raaga('voices', 'list', '--json')).stdout) as { voice: string; language: string; engine: string; problem?: string }[];
    expect(missing.find((pair) => pair.voice === 'aarav' && pair.language === 'hi-IN')).toMatchObject({ engine: 'espeak', problem: 'piper pack file missing' });
  });

  it('a Flite voice: checked whole and spoken by flite; one declaring another language than the entry installs nothing', async () => {
    const run = await raaga('voices', 'install', 'test-flite-slt-en');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Installed test-flite-slt-en \(flite, en-IN\): it spoke a test sentence of \d+\.\d s at 16000 Hz\./);
    expect(loadVoiceCatalog(manifestFile()).voicePacks()).toEqual([
      { voiceName: 'meera', language: 'en-IN', engine: 'flite', path: 'packs/test-flite-slt-en/cmu_us_slt.flitevox', sha256: sha256(flite), options: {} },
      { voiceName: 'priya', language: 'en-IN', engine: 'flite', path: 'packs/test-flite-slt-en/cmu_us_slt.flitevox', sha256: sha256(flite), options: {} },
    ]);
    const before = await readFile(manifestFile(), 'utf8');
    const wrong = await raaga('voices', 'install', 'test-flite-slt-gu');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/test-flite-slt-gu does not load and speak as a flite voice: flite voice .*cmu_us_slt\.flitevox speaks eng .*not gu-IN; nothing was installed/);
    expect(await readFile(manifestFile(), 'utf8')).toBe(before);
    expect((await readdir(join(modelsDir, 'packs'))).filter((name) => !name.startsWith('.'))).toEqual(['test-flite-slt-en']);
  });

  it("a Kokoro voice: its style file from kokoro-js's own copy (checked against the catalog), the model it needs alongside", async () => {
    const run = await raaga('voices', 'install', 'kokoro-voice-hf-alpha', '--model', 'test-kokoro-model', '--json');
    if (run.code !== 0) throw new Error(run.stderr);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { engine: string; voices: string[]; files: { name: string; source: string }[]; trial: { sampleRateHz: number } };
    expect(result).toMatchObject({ engine: 'kokoro', voices: ['priya', 'meera', 'lakshmi', 'pooja'], trial: { sampleRateHz: 24000 } });
    expect(result.files.find((file) => file.name === 'hf_alpha.bin')?.source).toMatch(/node_modules\/kokoro-js\/voices\/hf_alpha\.bin$/);
    expect(result.files.find((file) => file.name === 'model_tone.onnx')?.source).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/kokoro\/model_tone\.onnx$/);
    expect(loadVoiceCatalog(manifestFile()).voicePacks().find((pack) => pack.voiceName === 'meera')).toEqual({
      voiceName: 'meera',
      language: 'hi-IN',
      engine: 'kokoro',
      path: 'packs/test-kokoro-model/model_tone.onnx',
      sha256: sha256(kokoroModel),
      options: { style: 'packs/kokoro-voice-hf-alpha/hf_alpha.bin' },
    });
  });

  it('a licence that does not allow commercial use needs --accept-licence', async () => {
    const refused = await raaga('voices', 'install', 'test-tone-nc');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/licensed under CC BY-NC 4\.0 \(https:\/\/example\.test\/nc\), which does not allow commercial use; read it, then install again with --accept-licence/);
    expect(server.requests).toEqual([]);
    const accepted = await raaga('voices', 'install', 'test-tone-nc', '--accept-licence');
    expect(accepted.code).toBe(0);
  });

  it('an HTML page served instead of the model installs nothing and leaves the manifest as it was', async () => {
    const before = await readFile(manifestFile(), 'utf8');
    const run = await raaga('voices', 'install', 'test-tone-html');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/sha256 mismatch for https:\/\/127\.0\.0\.1:\d+\/html\/hi_IN-tone\.onnx: expected [0-9a-f]{64}, got [0-9a-f]{64}; nothing was installed/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await readFile(manifestFile(), 'utf8')).toBe(before);
    expect((await readdir(join(modelsDir, 'packs'))).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('a broken download resumes where it stopped on the next try', async () => {
    const first = await raaga('voices', 'install', 'test-tone-cut');
    expect(first.code).toBe(1);
    const part = join(modelsDir, 'packs', '.downloads', 'test-tone-cut', 'hi_IN-tone.onnx.part');
    const kept = (await stat(part)).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(model.length);
    server.files.set('/cut/hi_IN-tone.onnx', { body: model });
    server.requests.length = 0;
    const second = await raaga('voices', 'install', 'test-tone-cut');
    expect(second.code).toBe(0);
    expect(server.requests.find((request) => request.path === '/cut/hi_IN-tone.onnx')).toEqual({ path: '/cut/hi_IN-tone.onnx', range: `bytes=${kept}-` });
    expect(sha256(await readFile(join(modelsDir, 'packs', 'test-tone-cut', 'hi_IN-tone.onnx')))).toBe(sha256(model));
  });

  it('installs from a mirror URL (the files by name under a base URL) instead of their own URLs', async () => {
    const run = await raaga('voices', 'install', 'test-tone-cut', '--from', `${server.url}/ok`);
    expect(run.code).toBe(0);
    expect(server.requests.map((request) => request.path)).toEqual(['/ok/hi_IN-tone.onnx', '/ok/hi_IN-tone.onnx.json']);
  });

  it('installs from a local mirror directory, and refuses a mirror file that is not the published one', async () => {
    const mirror = join(dir, 'mirror');
    await mkdir(mirror, { recursive: true });
    await writeFile(join(mirror, 'hi_IN-tone.onnx'), model);
    await writeFile(join(mirror, 'hi_IN-tone.onnx.json'), sidecar);
    const run = await raaga('voices', 'install', 'test-tone', '--from', mirror);
    expect(run.code).toBe(0);
    expect(server.requests).toEqual([]);
    await rm(join(modelsDir, 'packs'), { recursive: true });
    await writeFile(join(mirror, 'hi_IN-tone.onnx'), Buffer.concat([model.subarray(0, 100), Buffer.alloc(model.length - 100)]));
    const bad = await raaga('voices', 'install', 'test-tone', '--from', mirror);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/mirror\/hi_IN-tone\.onnx is not hi_IN-tone\.onnx as the catalog publishes it/);
  });

  it('an unknown id, a language the voice lacks and a preset the manifest lacks are refused plainly', async () => {
    const unknown = await raaga('voices', 'install', 'test-tones');
    expect(unknown.stderr).toMatch(/'test-tones' is not in the voice catalog; did you mean test-tone/);
    const language = await raaga('voices', 'install', 'test-tone', '--language', 'ta-IN');
    expect(language.stderr).toMatch(/test-tone speaks hi-IN, not ta-IN/);
    const preset = await raaga('voices', 'install', 'test-tone', '--voice', 'nobody');
    expect(preset.stderr).toMatch(/preset voice 'nobody' does not speak hi-IN/);
    for (const run of [unknown, language, preset]) expect(run.code).toBe(1);
    const listed = await raaga('voices', 'catalog', '--engine', 'piper', '--json');
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((item) => item.id)).toEqual(expect.arrayContaining(['piper-hi-in-rohan-medium', 'test-tone']));
  });
});
