// The engine a configuration and a voice catalog make: the installed packs' engines (Flite, Kokoro, Piper) in front
// of the embedded eSpeak NG engine, as one registry. Built once by deps.ts for the server and by `raaga say`, so the
// voice a CLI user hears is the one a caller would.
//
// Before any engine is made, the builds from source are held to their BUILD.json (engine/build-record-check.ts). A
// pack kind's build that does not match refuses that kind's packs in one warning and their pairs speak with eSpeak,
// as for a pack that fails to load. eSpeak's own build is the fallback of every pair, so there is nothing to fall back
// to: a mismatch there refuses the start, naming the file (main.ts prints it and exits 1, `raaga say` fails the same).

import { resolve } from 'node:path';
import type { Config } from './config.js';
import type { VoiceCatalog } from './core/voice-catalog.js';
import { checkEngineBuild, type EngineBuildDirs } from './engine/build-record-check.js';
import { buildEngineRegistry, unmatchedPackBuilds } from './engine/build-engine-registry.js';
import type { EngineRegistry } from './engine/engine-registry.js';
import { ESPEAK_BUILD_FILES, ESPEAK_ENGINE_KIND, EspeakEngine } from './engine/espeak-engine.js';

/** Where the engine's warnings go: the server's pino logger, or the CLI's stderr. */
export interface EngineReport {
  warn(fields: object, message: string): void;
  /** The start's figures (the worker budget); absent: they go to `debug`. */
  info?(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

export interface VoiceEngineOptions {
  /** Only the embedded eSpeak engine, installed packs left out (`raaga say --engine espeak`). */
  readonly embeddedOnly?: boolean;
  /** Build directories checked in place of the engines' own (tests: a copy with one byte changed); default none. */
  readonly buildDirs?: EngineBuildDirs;
}

/** The embedded engine's build does not match its BUILD.json: nothing could speak, so nothing starts. */
export class EmbeddedBuildMismatchError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`eSpeak NG, the embedded engine every voice falls back to, cannot be used: ${reason}`);
    this.name = 'EmbeddedBuildMismatchError';
  }
}

export async function buildVoiceEngine(config: Config, catalog: VoiceCatalog, report: EngineReport, options: VoiceEngineOptions = {}): Promise<EngineRegistry> {
  const espeakBuild = await checkEngineBuild(ESPEAK_ENGINE_KIND, ESPEAK_BUILD_FILES, options.buildDirs);
  if (espeakBuild !== undefined) throw new EmbeddedBuildMismatchError(espeakBuild.file, espeakBuild.message);
  const packs = options.embeddedOnly ? [] : catalog.voicePacks().map((pack) => ({ ...pack, path: resolve(config.modelsDir, pack.path) }));
  const unmatchedBuilds = await unmatchedPackBuilds(packs, options.buildDirs);
  const embedded = new EspeakEngine({
    workers: config.ttsWorkers,
    maxQueue: config.ttsQueueSize,
    niceness: config.ttsWorkerNice,
    voices: catalog.embeddedVoices(),
    languageIds: catalog.embeddedLanguageIds(),
    onEvent: (event) => report[event.type === 'worker-ready' ? 'debug' : 'warn']({ engineEvent: event }, 'engine worker event'),
  });
  return buildEngineRegistry(embedded, packs, {
    workers: config.onnxWorkers,
    threadsPerWorker: config.onnxThreads,
    maxQueue: config.ttsQueueSize,
    niceness: config.ttsWorkerNice,
    modelsDir: config.modelsDir,
    onEvent: (event) => {
      if (event.type === 'pack-failed') {
        report.warn({ pack: event.path, voice: event.voiceName, language: event.language, reason: event.reason }, 'voice pack failed to load; its pair uses the embedded engine');
      } else if (event.type === 'build-mismatch') {
        const packs = event.packs.map((pack) => ({ pack: pack.path, voice: pack.voiceName, language: pack.language }));
        report.warn({ engine: event.engine, file: event.file, packs, reason: event.reason }, `${event.engine} build does not match its BUILD.json; its voice packs are refused and their pairs use the embedded engine`);
      } else if (event.type === 'unknown-phonemes') {
        report.debug({ pack: event.path, count: event.count, symbols: event.symbols }, 'phonemes missing from the voice pack were dropped');
      } else if (event.type === 'worker-budget') {
        // ONNX_WORKERS is one budget shared by the pack kinds (engine/worker-budget.ts); eSpeak's TTS_WORKERS come on top.
        const fields = {
          kinds: event.kinds,
          onnxWorkers: event.budget,
          packWorkers: event.totalWorkers,
          packThreads: event.totalThreads,
          cores: event.cores,
          embeddedWorkers: config.ttsWorkers,
          totalWorkers: config.ttsWorkers + event.totalWorkers,
        };
        if (event.oversubscribed) report.warn(fields, 'voice pack workers x threads exceed the cores: lower ONNX_WORKERS or ONNX_THREADS');
        else if (report.info) report.info(fields, 'engine workers');
        else report.debug(fields, 'engine workers');
      } else {
        report[event.type === 'worker-ready' ? 'debug' : 'warn']({ engineEvent: event }, 'voice pack engine worker event');
      }
    },
  }, unmatchedBuilds);
}
