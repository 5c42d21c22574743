// `raaga speak` as a user runs it: a real process using the TypeScript client against a real server, over the
// HTTP stream and the WebSocket, with plain progress lines on a non-terminal stderr; and `say` of a long text
// showing its progress the same way.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeAudio } from '../../helpers/decode-audio.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const TEXT = 'नमस्ते। आपका खाता सक्रिय है। आपकी बकाया राशि ₹1,250 है। धन्यवाद।';
let dir: string;
let server: TestServer;
let key: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-speak-'));
  server = await startTestServer();
  key = (await server.account('growth', 100_000)).keys[0] as string;
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

function raaga(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/raaga.mjs'), ...args], { cwd: root, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

it('speaks over the HTTP stream into a file, with plain progress lines on stderr', async () => {
  const out = join(dir, 'stream.wav');
  const run = await raaga(['speak', TEXT, '--url', server.url, '--voice', 'meera', '--language', 'hi-IN', '--out', out, '--rate', '16000'], { RAAGA_API_KEY: key });
  expect(run.stderr).toMatch(/^receiving audio: \d+\.\d s$/m);
  expect(run.stderr).toMatch(/^receiving audio: done, \d+\.\d s$/m);
  expect(run.stderr).not.toContain('\r');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/Wrote .*stream\.wav: wav, 16000 Hz, \d+ bytes \(\d+ credits\)/);
  const decoded = await decodeAudio(await readFile(out), 'wav', 16000);
  expect(decoded.samples.length / 16000).toBeGreaterThan(3);
});

it('speaks sentence by sentence over the WebSocket', async () => {
  const out = join(dir, 'ws.pcm');
  const run = await raaga(['speak', TEXT, '--url', server.url, '--key', key, '--voice', 'meera', '--language', 'hi-IN', '--out', out, '--mode', 'websocket', '--rate', '8000']);
  expect(run.code).toBe(0);
  expect(run.stderr.split('\n').filter((line) => line !== '')).toEqual(['speaking: 4 sentences', 'speaking: 25% (1/4 sentences)', 'speaking: 50% (2/4 sentences)', 'speaking: 75% (3/4 sentences)', 'speaking: done, 4 sentences']);
  expect(run.stdout).toMatch(/4 sentences, \d+ credits/);
  const decoded = await decodeAudio(await readFile(out), 'pcm', 8000);
  expect(decoded.samples.length / 8000).toBeGreaterThan(3);
});

it('reports server refusals as one line with the code and request id', async () => {
  const run = await raaga(['speak', TEXT, '--url', server.url, '--key', `rk_live_${'Q'.repeat(40)}`, '--voice', 'meera', '--language', 'hi-IN', '--out', join(dir, 'x.wav')]);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^raaga speak: Invalid API key.*\(invalid_api_key, request [0-9a-f-]{36}\)$/m);
  expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+/);
});

it('say of a long text shows its chunks as plain progress lines', async () => {
  const out = join(dir, 'long.wav');
  const long = Array.from({ length: 8 }, (_, i) => `यह वाक्य संख्या ${i + 1} है।`).join(' ');
  const run = await raaga(['say', long, '--voice', 'meera', '--language', 'hi-IN', '--out', out]);
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(/^synthesizing: \d+ chunks\n/);
  expect(run.stderr).toMatch(/synthesizing: done, \d+ chunks\n$/);
});
