// The engine a configuration builds logs its one worker budget at start: ONNX_WORKERS split among the kinds with
// packs, with eSpeak's workers beside it, and a warning when the kinds' workers x threads together exceed the cores.
// The packs' files are missing, so no worker starts: the budget is decided (and logged) before any is.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildVoiceEngine } from '../../src/build-voice-engine.js';
import { parseConfig } from '../../src/config.js';
import { loadVoiceCatalog } from '../../src/core/voice-catalog.js';
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

/** The log lines about workers of a server started with `env` and the packs of `voices` installed. */
async function startLog(env: Record<string, string>, voices: readonly string[]): Promise<Line[]> {
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
  const engine = buildVoiceEngine(config, catalog, report);
  await engine.close();
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
