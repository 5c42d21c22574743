// A build from source that does not match its BUILD.json, at server start (build-voice-engine.ts): Flite's, with a
// Flite pack installed, refuses that pack in one warning naming the file and the server serves the voice with eSpeak;
// eSpeak's, the fallback of every pair, refuses the start with one message naming the file. The builds are real
// copies with one byte changed or one file deleted (test/helpers/engine-build-copies.ts), the tree's are untouched.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedBuildMismatchError } from '../../src/build-voice-engine.js';
import { ESPEAK_BUILD_FILES } from '../../src/engine/espeak-engine.js';
import { FLITE_BUILD_FILES } from '../../src/engine/flite/flite-build.js';
import { decodeAudio } from '../helpers/decode-audio.js';
import { buildCopies, changeOneByte } from '../helpers/engine-build-copies.js';
import { useFliteVoices } from '../helpers/flite-voices.js';
import { ALL_TIME } from '../helpers/store-contract.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeManifestWithPacks } from '../helpers/voice-packs.js';

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

const voices = useFliteVoices(['slt']);
const flite = buildCopies(FLITE_BUILD_FILES.dir);
const espeak = buildCopies(ESPEAK_BUILD_FILES.dir);
const WARN = 40;

/** A server whose logger keeps its lines, started with Flite's build checked in `fliteBuild`. */
async function serverWithFliteBuild(fliteBuild: string): Promise<{ server: TestServer; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const server = await startTestServer({ RAAGA_MODELS_DIR: voices.dir, ONNX_WORKERS: '1', TTS_WORKERS: '1' }, { logger, engineBuildDirs: { flite: fliteBuild } });
  return { server, lines };
}

/** POST /v1/tts/generate for priya's en-IN (the pair the Flite pack holds) as a new account: the account and answer. */
async function generatePriyaEnglish(server: TestServer, text: string): Promise<{ account: { id: string }; response: Response }> {
  const account = await server.account('growth', 10_000);
  const response = await fetch(`${server.url}/v1/tts/generate`, {
    method: 'POST',
    headers: authHeaders(account.keys[0] as string),
    body: JSON.stringify({ model_id: 'raaga-v1', voice: 'priya', language: 'en-IN', text, output_format: 'wav', sample_rate: 16000 }),
  });
  return { account, response };
}

beforeAll(async () => {
  await writeManifestWithPacks(voices.dir, { priya: { 'en-IN': { engine: 'flite', path: voices.path('slt') } } });
});
afterAll(async () => {
  await flite.remove();
  await espeak.remove();
});

describe('a Flite build that does not match its BUILD.json', () => {
  let server: TestServer;
  let lines: LogLine[];
  let wasm: string;

  beforeAll(async () => {
    const dir = await flite.copy();
    wasm = join(dir, 'flite.wasm');
    await changeOneByte(wasm);
    ({ server, lines } = await serverWithFliteBuild(dir));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('refuses the Flite pack in one warning that names the file', () => {
    const warnings = lines.filter((line) => line.level >= WARN && JSON.stringify(line).includes('flite'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: WARN,
      msg: 'flite build does not match its BUILD.json; its voice packs are refused and their pairs use the embedded engine',
      engine: 'flite',
      file: wasm,
      packs: [{ pack: voices.path('slt'), voice: 'priya', language: 'en-IN' }],
      reason: expect.stringMatching(new RegExp(`^${wasm} does not match its BUILD.json \\(sha256 [0-9a-f]{64}, BUILD.json says [0-9a-f]{64}\\): rebuild with scripts/build-flite-wasm.sh or restore the file$`)),
    });
  });

  it('serves the voice from eSpeak, and the server goes on', async () => {
    const { account, response } = await generatePriyaEnglish(server, 'Your order has shipped.');
    expect(response.status).toBe(200);
    const audio = await decodeAudio(Buffer.from(((await response.json()) as { audio: string }).audio, 'base64'), 'wav', 16000);
    expect(audio.samples.length / 16000).toBeGreaterThan(0.5);
    expect((await server.deps.store.listUsage(account.id, ALL_TIME)).map((record) => [record.language, record.engine])).toEqual([['en-IN', 'espeak']]);
  });
});

describe('a Flite build with a file missing', () => {
  it('refuses the pack the same way, naming the missing file', async () => {
    const dir = await flite.copy();
    await rm(join(dir, 'flite.cjs'));
    const { server, lines } = await serverWithFliteBuild(dir);
    try {
      const warnings = lines.filter((line) => line.level >= WARN && JSON.stringify(line).includes('flite'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ engine: 'flite', file: join(dir, 'flite.cjs'), reason: expect.stringContaining(`${join(dir, 'flite.cjs')} is missing, though its BUILD.json lists it`) });
      const { account, response } = await generatePriyaEnglish(server, 'Hello.');
      expect(response.status).toBe(200);
      expect((await server.deps.store.listUsage(account.id, ALL_TIME)).map((record) => record.engine)).toEqual(['espeak']);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('an eSpeak NG build that does not match its BUILD.json', () => {
  it('refuses the start with one message naming the file', async () => {
    const dir = await espeak.copy();
    const wasm = join(dir, 'espeak-ng.wasm');
    await changeOneByte(wasm);
    const dataDir = await mkdtemp(join(tmpdir(), 'raaga-espeak-mismatch-'));
    try {
      const start = startTestServer({}, { dataDir, engineBuildDirs: { espeak: dir } });
      await expect(start).rejects.toBeInstanceOf(EmbeddedBuildMismatchError);
      await expect(start).rejects.toThrow(
        new RegExp(
          `^eSpeak NG, the embedded engine every voice falls back to, cannot be used: ${wasm} does not match its BUILD.json \\(sha256 [0-9a-f]{64}, BUILD.json says [0-9a-f]{64}\\): rebuild with scripts/build-espeak-ng-wasm.sh or restore the file$`,
        ),
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses it for a data file that is gone', async () => {
    const dir = await espeak.copy();
    await rm(join(dir, 'espeak-ng-data', 'en_dict'));
    const dataDir = await mkdtemp(join(tmpdir(), 'raaga-espeak-mismatch-'));
    try {
      await expect(startTestServer({}, { dataDir, engineBuildDirs: { espeak: dir } })).rejects.toThrow(`${join(dir, 'espeak-ng-data', 'en_dict')} is missing, though its BUILD.json lists it`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
