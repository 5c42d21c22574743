// The client as its users get it: `npm pack` of packages/client, installed into a fresh project, imported from a
// plain .mjs file that talks to a real server; and bundled for the browser, where nothing of Node may be needed.

import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let tarball: string;
let server: TestServer;

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-client-package-'));
  // packages/client/dist is built by `npm run build` (npm test runs it first).
  const packed = await run('npm', ['pack', join(root, 'packages/client'), '--pack-destination', dir], root);
  expect(packed.code, packed.stderr).toBe(0);
  tarball = join(dir, (await readdir(dir)).find((name) => name.endsWith('.tgz'))!);
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

it('the tarball holds the compiled client and its declarations, nothing of the server', async () => {
  const listed = await run('tar', ['tzf', tarball], dir);
  const files = listed.stdout.trim().split('\n').sort();
  expect(files).toContain('package/dist/index.js');
  expect(files).toContain('package/dist/index.d.ts');
  expect(files.every((file) => /^package\/(dist\/[\w-]+\.(js|d\.ts)|package\.json|README\.md)$/.test(file))).toBe(true);
  expect(files.some((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts'))).toBe(false);
});

it('a fresh Node project installs the tarball and speaks through a real server from a plain .mjs file', async () => {
  const project = join(dir, 'app');
  await run('mkdir', ['-p', project], dir);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
  expect(installed.code, installed.stderr).toBe(0);
  const { keys } = await server.account('developer', 100_000);
  await writeFile(
    join(project, 'speak.mjs'),
    `import { RaagaClient } from '@raaga/client';
const client = new RaagaClient({ baseUrl: process.env.RAAGA_URL, apiKey: process.env.RAAGA_API_KEY });
const generated = await client.generate({ model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', text: 'नमस्ते।', output_format: 'wav' });
const session = await client.session();
await session.configure({ model_id: 'raaga-v1', voice: 'meera', language: 'en-IN', output_format: 'pcm', sample_rate: 16000 });
const utterance = session.speak('Hello from a plain module.');
let audioBytes = 0;
for await (const frame of utterance) audioBytes += frame.length;
const spoken = await utterance.result;
await session.close();
console.log(JSON.stringify({ riff: new TextDecoder().decode(generated.bytes.subarray(0, 4)), characters: generated.characters_used, spoken: spoken.type, seconds: spoken.duration_seconds, audioBytes }));
`,
  );
  const spoke = await run(process.execPath, ['speak.mjs'], project, { RAAGA_URL: server.url, RAAGA_API_KEY: keys[0] as string });
  expect(spoke.stderr).toBe('');
  const result = JSON.parse(spoke.stdout) as { riff: string; characters: number; spoken: string; seconds: number; audioBytes: number };
  expect(result).toMatchObject({ riff: 'RIFF', characters: 7, spoken: 'end_of_utterance' });
  // 16-bit PCM at 16 kHz: the bytes received are exactly the duration the server reported.
  expect(result.audioBytes).toBe(Math.round(result.seconds * 16000) * 2);
  expect(result.audioBytes).toBeGreaterThan(16000 * 2 * 0.3);
}, 120_000);

it('bundles for the browser: no Node built-in and no `ws` in the bundle', async () => {
  await run('mkdir', ['-p', join(dir, 'package-src')], dir);
  await run('tar', ['xzf', tarball, '-C', join(dir, 'package-src'), '--strip-components=1'], dir);
  const result = await build({
    entryPoints: [join(dir, 'package-src', 'dist', 'index.js')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  const bundle = result.outputFiles[0]!.text;
  expect(bundle).toMatch(/RaagaClient = class/);
  expect(bundle).not.toMatch(/from ["'](node:|ws["'])|require\(["'](node:|ws["'])/);
});
