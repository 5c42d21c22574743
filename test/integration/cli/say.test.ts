// `raaga say` as a user runs it: a real process, the real engine, a real file that decodes.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeAudio, rmsDbfs } from '../../helpers/decode-audio.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-say-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function say(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/raaga.mjs'), 'say', ...args], { cwd: root }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

it('writes a WAV file named by --out, in the requested rate', async () => {
  const out = join(dir, 'hello.wav');
  const run = await say('வணக்கம், உங்கள் கணக்கு செயலில் உள்ளது.', '--voice', 'meera', '--language', 'ta-IN', '--out', out, '--rate', '16000');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/Wrote .*hello\.wav: wav, 16000 Hz/);
  const decoded = await decodeAudio(await readFile(out), 'wav', 16000);
  expect(decoded.sampleRateHz).toBe(16000);
  expect(decoded.samples.length / 16000).toBeGreaterThan(1);
  expect(rmsDbfs(decoded.samples)).toBeGreaterThan(-35);
});

it('takes the format from the extension', async () => {
  const out = join(dir, 'hello.mp3');
  expect((await say('Hello.', '--voice', 'arjun', '--language', 'en-IN', '--out', out)).code).toBe(0);
  const decoded = await decodeAudio(await readFile(out), 'mp3', 24000);
  expect(decoded.sampleRateHz).toBe(24000);
  expect(decoded.samples.length).toBeGreaterThan(2400);
});

it('refuses an unknown voice or language with a clear message and no stack trace', async () => {
  const badVoice = await say('hi', '--voice', 'nobody', '--language', 'hi-IN', '--out', join(dir, 'x.wav'));
  expect(badVoice.code).toBe(1);
  expect(badVoice.stderr).toMatch(/unknown voice 'nobody'/);
  const badLanguage = await say('hi', '--voice', 'arjun', '--language', 'fr-FR', '--out', join(dir, 'x.wav'));
  expect(badLanguage.code).toBe(1);
  expect(badLanguage.stderr).toMatch(/--language must be one of/);
  expect(badLanguage.stderr).not.toMatch(/\n\s+at /);
});
