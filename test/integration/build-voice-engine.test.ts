// The engine a configuration builds logs its one worker budget at start: ONNX_WORKERS split among the kinds with
// packs, with eSpeak's workers beside it, and a warning when the kinds' workers x threads together exceed the cores.
// The packs' files are missing, so no worker starts: the budget is decided (and logged) before any is.
// The builds from source are held to their BUILD.json first, for the server and `raaga say` alike (both build this
// engine): a Flite build that differs refuses the Flite packs in one warning, an eSpeak build that differs refuses all.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildVoiceEngine } from '../../src/build-voice-engine.js';
import { parseConfig } from '../../src/config.js';
import { loadVoiceCatalog } from '../../src/core/voice-catalog.js';
import { ESPEAK_BUILD_FILES } from '../../src/engine/espeak-engine.js';
import { FLITE_BUILD_FILES } from '../../src/engine/flite/flite-build.js';
import type { EngineBuildDirs } from '../../src/engine/build-record-check.js';
import { buildCopies, changeOneByte } from '../helpers/engine-build-copies.js';
import { REPO_MANIFEST } from '../helpers/voice-packs.js';

interface Line {
  readonly level: 'warn' | 'info' | 'debug';
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

const PACKS: Record<string, Record<string, unknown>> = {
  aarav: { 'hi-IN': { engine: 'piper', path: 'packs/absent/model.onnx', speaker: 0 } },
  meera: { 'en-IN': { engine: 'kokoro', path: 'packs/absent/kokoro.onnx', style: 'packs/absent/af_x.bin' } },
  priya: { 'en-IN': { engine: 'flite', path: 'packs/absent/slt.flitevox' } },
};
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The log lines of an engine built with `env` and the packs of `voices` installed, and the engine (closed). */
async function built(env: Record<string, string>, voices: readonly string[], options: { buildDirs?: EngineBuildDirs; embeddedOnly?: boolean } = {}) {
  const modelsDir = await mkdtemp(join(tmpdir(), 'raaga-budget-'));
  dirs.push(modelsDir);
  const manifest = JSON.parse(await readFile(REPO_MANIFEST, 'utf8')) as { voices: { voice_name: string; packs?: Record<string, unknown> }[] };
  for (const voice of manifest.voices) if (voices.includes(voice.voice_name)) voice.packs = PACKS[voice.voice_name];
  await mkdir(join(modelsDir, 'raaga-v1'));
  await writeFile(join(modelsDir, 'raaga-v1', 'manifest.json'), JSON.stringify(manifest));
  const config = parseConfig({ RAAGA_MODELS_DIR: modelsDir, TTS_WORKERS: '1', ...env });
  const catalog = loadVoiceCatalog(join(modelsDir, 'raaga-v1', 'manifest.json'));
  const lines: Line[] = [];
  const report = {
    warn: (fields: object, message: string) => lines.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
    info: (fields: object, message: string) => lines.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
    debug: (fields: object, message: string) => lines.push({ level: 'debug', fields: fields as Record<string, unknown>, message }),
  };
  const engine = await buildVoiceEngine(config, catalog, report, options);
  await engine.close();
  return { lines, engine };
}

/** The log lines about workers of a server started with `env` and the packs of `voices` installed. */
async function startLog(env: Record<string, string>, voices: readonly string[]): Promise<Line[]> {
  const { lines } = await built(env, voices);
  return lines.filter((line) => line.message === 'engine workers' || line.message.startsWith('voice pack workers x threads'));
}

describe('the worker budget at start', () => {
  it('shares ONNX_WORKERS among the three kinds and warns when their threads exceed the cores', async () => {
    const lines = await startLog({ ONNX_WORKERS: '4', ONNX_THREADS: '64' }, ['aarav', 'meera', 'priya']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      message: 'voice pack workers x threads exceed the cores: lower ONNX_WORKERS or ONNX_THREADS',
      fields: {
        kinds: [
          { kind: 'piper', workers: 2, threadsPerWorker: 64 },
          { kind: 'kokoro', workers: 1, threadsPerWorker: 64 },
          { kind: 'flite', workers: 1, threadsPerWorker: 1 },
        ],
        onnxWorkers: 4,
        packWorkers: 4,
        packThreads: 2 * 64 + 64 + 1,
        cores: availableParallelism(),
        embeddedWorkers: 1,
        totalWorkers: 5,
      },
    });
  });

  it('logs the total without a warning when the sum fits the cores', async () => {
    const lines = await startLog({ ONNX_WORKERS: '1', ONNX_THREADS: '1' }, ['priya']);
    expect(lines).toEqual([
      {
        level: 'info',
        message: 'engine workers',
        fields: { kinds: [{ kind: 'flite', workers: 1, threadsPerWorker: 1 }], onnxWorkers: 1, packWorkers: 1, packThreads: 1, cores: availableParallelism(), embeddedWorkers: 1, totalWorkers: 2 },
      },
    ]);
  });

  it('says nothing of a budget when no pack is installed', async () => {
    expect(await startLog({ ONNX_WORKERS: '4' }, [])).toEqual([]);
  });
});

describe('the builds from source at start', () => {
  const flite = buildCopies(FLITE_BUILD_FILES.dir);
  const espeak = buildCopies(ESPEAK_BUILD_FILES.dir);
  afterAll(async () => {
    await flite.remove();
    await espeak.remove();
  });

  it('a Flite build that differs: its packs refused in one warning, their pairs eSpeak’s, the other kinds kept', async () => {
    const dir = await flite.copy();
    await changeOneByte(join(dir, 'COPYING'));
    const { lines, engine } = await built({}, ['aarav', 'priya'], { buildDirs: { flite: dir } });
    const mismatches = lines.filter((line) => line.message.includes('BUILD.json'));
    expect(mismatches).toEqual([
      {
        level: 'warn',
        message: 'flite build does not match its BUILD.json; its voice packs are refused and their pairs use the embedded engine',
        fields: { engine: 'flite', file: join(dir, 'COPYING'), packs: [{ pack: expect.stringMatching(/packs\/absent\/slt\.flitevox$/), voice: 'priya', language: 'en-IN' }], reason: expect.stringContaining(`${join(dir, 'COPYING')} does not match its BUILD.json`) },
      },
    ]);
    // Refused before its engine is made: no file check of its own, no share of the worker budget.
    expect(lines.filter((line) => line.message.startsWith('voice pack failed') && line.fields.voice === 'priya')).toEqual([]);
    expect((lines.find((line) => line.message === 'engine workers')?.fields.kinds as { kind: string }[]).map((share) => share.kind)).toEqual(['piper']);
    expect(engine.kindFor('priya', 'en-IN')).toBe('espeak');
  });

  it('an eSpeak NG build that differs refuses the engine, even for `raaga say --engine espeak`', async () => {
    const dir = await espeak.copy();
    await changeOneByte(join(dir, 'espeak-ng.cjs'));
    for (const embeddedOnly of [false, true]) {
      await expect(built({}, ['priya'], { buildDirs: { espeak: dir }, embeddedOnly })).rejects.toThrow(
        `eSpeak NG, the embedded engine every voice falls back to, cannot be used: ${join(dir, 'espeak-ng.cjs')} does not match its BUILD.json`,
      );
    }
  });
});
