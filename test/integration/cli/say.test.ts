// `raaga say` as a user runs it: a real process, the real engine (the registry the server builds: an installed pack
// speaks its pair), a real file that decodes.

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeAudio, rmsDbfs } from '../../helpers/decode-audio.js';
import { useFliteVoices } from '../../helpers/flite-voices.js';
import { REPO_MANIFEST } from '../../helpers/voice-packs.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-say-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const voices = useFliteVoices(['slt']);

function say(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return sayWith({}, ...args);
}

function sayWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/raaga.mjs'), 'say', ...args], { cwd: root, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
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

it('speaks with the installed pack of the pair, as the server would; --engine espeak forces the embedded engine', async () => {
  // priya's en-IN is a Flite voice (Flite's own slt, dumped for this file); her other languages stay eSpeak.
  const manifest = JSON.parse(await readFile(REPO_MANIFEST, 'utf8')) as { voices: { voice_name: string; packs?: Record<string, unknown> }[] };
  manifest.voices.find((voice) => voice.voice_name === 'priya')!.packs = { 'en-IN': { engine: 'flite', path: voices.path('slt') } };
  await mkdir(join(voices.dir, 'raaga-v1'));
  await writeFile(join(voices.dir, 'raaga-v1', 'manifest.json'), JSON.stringify(manifest));
  const env = { RAAGA_MODELS_DIR: voices.dir };
  const text = 'Your order has shipped.';
  const files = { auto: join(dir, 'auto.wav'), flite: join(dir, 'flite.wav'), espeak: join(dir, 'espeak.wav') };
  const auto = await sayWith(env, text, '--voice', 'priya', '--language', 'en-IN', '--out', files.auto);
  expect(auto.stderr).toBe('');
  expect(auto.stdout).toMatch(/spoken by flite\.$/m);
  expect((await sayWith(env, text, '--voice', 'priya', '--language', 'en-IN', '--engine', 'flite', '--out', files.flite)).code).toBe(0);
  const embedded = await sayWith(env, text, '--voice', 'priya', '--language', 'en-IN', '--engine', 'espeak', '--out', files.espeak);
  expect(embedded.stdout).toMatch(/spoken by espeak\.$/m);
  const [heard, forced, espeak] = await Promise.all([files.auto, files.flite, files.espeak].map(async (file) => (await decodeAudio(await readFile(file), 'wav', 24000)).samples));
  expect(rmsDbfs(heard!)).toBeGreaterThan(-35);
  // The default is Flite's audio exactly (flite is seeded per clause), and not eSpeak's.
  expect(Buffer.from(heard!.buffer).equals(Buffer.from(forced!.buffer))).toBe(true);
  expect(Buffer.from(heard!.buffer).equals(Buffer.from(espeak!.buffer))).toBe(false);
  // A pair without a pack of the kind asked for is refused, naming the fix.
  const noPack = await sayWith(env, 'नमस्ते', '--voice', 'priya', '--language', 'hi-IN', '--engine', 'flite', '--out', join(dir, 'x.wav'));
  expect(noPack.code).toBe(2);
  expect(noPack.stderr).toMatch(/--engine flite: priya speaks hi-IN with espeak here .*raaga voices catalog --engine flite --language hi-IN/);
});

it('refuses an unknown voice, language or option in one line naming the fix, exit 2, no stack trace', async () => {
  const badVoice = await say('hi', '--voice', 'meeraa', '--language', 'hi-IN', '--out', join(dir, 'x.wav'));
  expect(badVoice.code).toBe(2);
  expect(badVoice.stderr).toBe("raaga say: --voice: unknown voice 'meeraa'; did you mean meera? (see 'raaga say --help')\n");
  const badLanguage = await say('hi', '--voice', 'arjun', '--language', 'hi', '--out', join(dir, 'x.wav'));
  expect(badLanguage.code).toBe(2);
  expect(badLanguage.stderr).toMatch(/^raaga say: --language must be one of .*, got 'hi'; did you mean hi-IN\?/);
  const badOption = await say('hi', '--vocie', 'arjun', '--language', 'hi-IN', '--out', join(dir, 'x.wav'));
  expect(badOption.code).toBe(2);
  expect(badOption.stderr).toMatch(/^raaga say: unknown option '--vocie'; did you mean --voice\?/);
  const missingValue = await say('hi', '--voice', 'arjun', '--language');
  expect(missingValue.stderr).toMatch(/^raaga say: --language needs a value/);
  for (const run of [badVoice, badLanguage, badOption, missingValue]) expect(run.stderr.split('\n').filter((line) => line !== '')).toHaveLength(1);
});
