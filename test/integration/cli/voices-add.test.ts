// `raaga voices add` as an operator runs it: a real process installing the generated tone voice from a loopback
// HTTP server (never an outside address) and from a directory, with sha256 checks, sidecar validation before the
// large download, plain progress lines when not on a terminal, and an atomic manifest update in the same layout.

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadVoiceCatalog } from '../../../src/core/voice-catalog.js';
import { TONE_ESPEAK, TONE_TEXT } from '../../../fixtures/voices/lib/fixture-voices.js';
import { REPO_MANIFEST } from '../../helpers/voice-packs.js';
import { loopbackCertificate, startFileServer } from '../../helpers/file-server.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const toneDir = join(root, 'fixtures', 'voices', TONE_ESPEAK.name);
const textDir = join(root, 'fixtures', 'voices', TONE_TEXT.name);
let dir: string;
let modelsDir: string;
let http: Server;
let base: string;
const requested: string[] = [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function raaga(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'bin/raaga.mjs'), ...args],
      // The loopback HTTPS server's certificate, made at test time, is trusted like a public one.
      { cwd: root, env: { ...process.env, RAAGA_DATA_DIR: join(dir, 'data'), RAAGA_MODELS_DIR: modelsDir, NODE_EXTRA_CA_CERTS: loopbackCertificate().certPath } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const sha256 = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');
const manifestFile = () => join(modelsDir, 'raaga-v1', 'manifest.json');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-voices-add-'));
  // Piper's repository layout: <name>.onnx, <name>.onnx.json and MODEL_CARD in one directory.
  const files: Record<string, Buffer> = {
    '/hi/hi_IN-tone-medium.onnx': await readFile(join(toneDir, 'model.onnx')),
    '/hi/hi_IN-tone-medium.onnx.json': await readFile(join(toneDir, 'model.onnx.json')),
    '/hi/MODEL_CARD': await readFile(join(toneDir, 'MODEL_CARD')),
    '/bad/voice.onnx': await readFile(join(toneDir, 'model.onnx')),
    '/bad/voice.onnx.json': Buffer.from(JSON.stringify({ audio: { sample_rate: 22050 }, phoneme_type: 'espeak', phoneme_id_map: { a: [3] } })),
  };
  http = createServer((request, response) => {
    requested.push(request.url ?? '');
    const body = files[request.url ?? ''];
    if (body === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
    // Two writes so the client sees the body arrive in pieces.
    response.write(body.subarray(0, body.length >> 1));
    setTimeout(() => response.end(body.subarray(body.length >> 1)), 5);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  modelsDir = join(dir, `models-${Date.now()}`);
  await mkdir(join(modelsDir, 'raaga-v1'), { recursive: true });
  await cp(REPO_MANIFEST, manifestFile());
  requested.length = 0;
});

describe('raaga voices add', () => {
  it('downloads a pack over HTTP, verifies its sha256, installs it and records it in the manifest', async () => {
    const expected = await sha256(join(toneDir, 'model.onnx'));
    const run = await raaga('voices', 'add', `${base}/hi/hi_IN-tone-medium.onnx`, '--voice', 'aarav', '--language', 'hi-IN', '--speaker', 'chitra', '--sha256', expected.toUpperCase());
    expect(run.stderr).toMatch(/^downloading model\.onnx: 0\.0 MB\n/m);
    expect(run.stderr).toMatch(/downloading model\.onnx: done, 0\.0 MB/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Installed voice pack hi_IN-tone-medium \(piper, 22050 Hz, eSpeak 'hi' phonemes, 4 speakers; speaker 2\) in .*: it spoke a test sentence of \d+\.\d s at 22050 Hz/);
    expect(run.stdout).toMatch(/aarav in hi-IN now speaks with it/);
    expect(run.stdout).toMatch(/licence/);
    const installed = join(modelsDir, 'packs', 'hi_IN-tone-medium');
    expect((await readdir(installed)).sort()).toEqual(['MODEL_CARD', 'model.onnx', 'model.onnx.json']);
    expect(await sha256(join(installed, 'model.onnx'))).toBe(expected);
    expect(loadVoiceCatalog(manifestFile()).voicePacks()).toEqual([
      { voiceName: 'aarav', language: 'hi-IN', engine: 'piper', path: 'packs/hi_IN-tone-medium/model.onnx', sha256: expected, options: { speaker: 2 } },
    ]);
    // Same layout as the committed manifest: only the pack lines differ.
    const before = (await readFile(REPO_MANIFEST, 'utf8')).split('\n');
    const after = (await readFile(manifestFile(), 'utf8')).split('\n');
    expect(after.length - before.length).toBe(7);
    expect(after.filter((line) => !before.includes(line)).map((line) => line.trim())).toEqual([
      '"packs": {',
      '"hi-IN": {',
      '"engine": "piper",',
      '"path": "packs/hi_IN-tone-medium/model.onnx",',
      '"speaker": 2,',
      `"sha256": "${expected}"`,
      '}',
      '}',
    ]);
    expect((await readdir(join(modelsDir, 'packs'))).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('refuses a sha256 mismatch and leaves nothing behind', async () => {
    const before = await readFile(manifestFile(), 'utf8');
    const run = await raaga('voices', 'add', `${base}/hi/hi_IN-tone-medium.onnx`, '--voice', 'aarav', '--language', 'hi-IN', '--sha256', '0'.repeat(64));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/sha256 mismatch for .*hi_IN-tone-medium\.onnx: expected 0{64}, got [0-9a-f]{64}/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await readdir(join(modelsDir, 'packs'))).toEqual([]);
    expect(await readFile(manifestFile(), 'utf8')).toBe(before);
  });

  it('refuses a sidecar that does not validate before downloading the model', async () => {
    const run = await raaga('voices', 'add', `${base}/bad/voice.onnx`, '--voice', 'aarav', '--language', 'hi-IN', '--sha256', 'a'.repeat(64));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/voice sidecar .*\/bad\/voice\.onnx\.json is invalid:/);
    expect(run.stderr).toMatch(/phoneme_id_map\._: the '_' symbol is missing/);
    expect(run.stderr).toMatch(/espeak\.voice: required/);
    expect(requested).toEqual(['/bad/voice.onnx.json']);
  });

  it('takes plain http only with --sha256, follows no redirect down to http, and caps the size', async () => {
    const model = await readFile(join(toneDir, 'model.onnx'));
    const sidecar = await readFile(join(toneDir, 'model.onnx.json'));
    const secure = await startFileServer(
      {
        '/ok/voice.onnx': { body: model },
        '/ok/voice.onnx.json': { body: sidecar },
        '/down/voice.onnx': { body: model },
        '/down/voice.onnx.json': { redirect: `${base}/hi/hi_IN-tone-medium.onnx.json` },
      },
      { https: true },
    );
    try {
      const before = await readFile(manifestFile(), 'utf8');
      const plain = await raaga('voices', 'add', `${base}/hi/hi_IN-tone-medium.onnx`, '--voice', 'aarav', '--language', 'hi-IN');
      expect(plain.code).toBe(1);
      expect(plain.stderr).toMatch(/is plain http: use https, or give the file's expected checksum \(--sha256\)/);
      expect(requested).toEqual([]);
      const downgraded = await raaga('voices', 'add', `${secure.url}/down/voice.onnx`, '--voice', 'aarav', '--language', 'hi-IN');
      expect(downgraded.code).toBe(1);
      expect(downgraded.stderr).toMatch(/redirects to http:\/\/127\.0\.0\.1:\d+\/hi\/hi_IN-tone-medium\.onnx\.json, refused/);
      expect(requested).toEqual([]);
      const tooBig = await raaga('voices', 'add', `${secure.url}/ok/voice.onnx`, '--voice', 'aarav', '--language', 'hi-IN', '--max-size', String(model.length / 2 / 1024 ** 2));
      expect(tooBig.code).toBe(1);
      expect(tooBig.stderr).toMatch(/is \d+ bytes, more than the \d+ allowed for this file/);
      expect(await readFile(manifestFile(), 'utf8')).toBe(before);
      expect(await readdir(join(modelsDir, 'packs'))).toEqual([]);
      // Over https, no checksum needed.
      const ok = await raaga('voices', 'add', `${secure.url}/ok/voice.onnx`, '--voice', 'aarav', '--language', 'hi-IN');
      expect(ok.code).toBe(0);
      expect(loadVoiceCatalog(manifestFile()).voicePacks()).toHaveLength(1);
    } finally {
      await secure.close();
    }
  });

  it('installs from a directory, reuses an identical pack for a second pair, refuses a different model under the same name', async () => {
    const first = await raaga('voices', 'add', textDir, '--voice', 'meera', '--language', 'en-IN', '--json');
    expect(first.code).toBe(0);
    const result = JSON.parse(first.stdout) as { name: string; reused: boolean; phonemeType: string; sampleRateHz: number };
    expect(result).toMatchObject({ name: 'tone-text', reused: false, phonemeType: 'text', sampleRateHz: 16000 });
    expect(first.stderr).toMatch(/copying model\.onnx/);
    const second = await raaga('voices', 'add', textDir, '--voice', 'divya', '--language', 'en-IN');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Reused voice pack tone-text/);
    expect(loadVoiceCatalog(manifestFile()).voicePacks().map((pack) => `${pack.voiceName}/${pack.language}/${pack.path}`)).toEqual([
      'meera/en-IN/packs/tone-text/model.onnx',
      'divya/en-IN/packs/tone-text/model.onnx',
    ]);
    const other = join(dir, 'tone-text');
    await cp(toneDir, other, { recursive: true });
    const clash = await raaga('voices', 'add', other, '--voice', 'aarav', '--language', 'hi-IN');
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/packs\/tone-text\/ already holds a different model\.onnx; choose another --name/);
  });

  it('checks the voice, language and speaker before installing', async () => {
    const unknownVoice = await raaga('voices', 'add', toneDir, '--voice', 'nobody', '--language', 'hi-IN');
    expect(unknownVoice.stderr).toMatch(/voice 'nobody' is not in the catalog; known: vikram/);
    const badLanguage = await raaga('voices', 'add', toneDir, '--voice', 'aarav', '--language', 'ml-IN');
    expect(badLanguage.stderr).toMatch(/--language must be one of en-IN/);
    const badSpeaker = await raaga('voices', 'add', toneDir, '--voice', 'aarav', '--language', 'hi-IN', '--speaker', '9');
    expect(badSpeaker.stderr).toMatch(/speaker '9' is not in this voice: it has 4 speaker\(s\)/);
    const notOnnx = join(dir, 'not-onnx');
    await mkdir(notOnnx, { recursive: true });
    await writeFile(join(notOnnx, 'model.onnx'), 'not a model');
    await cp(join(toneDir, 'model.onnx.json'), join(notOnnx, 'model.onnx.json'));
    const broken = await raaga('voices', 'add', notOnnx, '--voice', 'aarav', '--language', 'hi-IN');
    expect(broken.stderr).toMatch(/does not load as a Piper voice/);
    const noEspeak = join(dir, 'no-espeak');
    await mkdir(noEspeak, { recursive: true });
    await cp(join(toneDir, 'model.onnx'), join(noEspeak, 'model.onnx'));
    await writeFile(join(noEspeak, 'model.onnx.json'), JSON.stringify({ ...TONE_ESPEAK.sidecar, espeak: { voice: 'zz-none' } }));
    const missingVoice = await raaga('voices', 'add', noEspeak, '--voice', 'aarav', '--language', 'hi-IN');
    expect(missingVoice.stderr).toMatch(/espeak\.voice 'zz-none' cannot be used: eSpeak has no voice 'zz-none'/);
    expect(badLanguage.code).toBe(2); // bad usage
    for (const run of [unknownVoice, badSpeaker, broken, missingVoice]) expect(run.code).toBe(1);
    expect(loadVoiceCatalog(manifestFile()).voicePacks()).toEqual([]);
  });
});
