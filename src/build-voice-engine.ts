// The engine a configuration and a voice catalog make: the installed packs' engines (Flite, Kokoro, Piper) in front
// of the embedded eSpeak NG engine, as one registry. Built once by deps.ts for the server and by `raaga say`, so the
// voice a CLI user hears is the one a caller would.

import { resolve } from 'node:path';
import type { Config } from './config.js';
import type { VoiceCatalog } from './core/voice-catalog.js';
import { buildEngineRegistry } from './engine/build-engine-registry.js';
import type { EngineRegistry } from './engine/engine-registry.js';
import { EspeakEngine } from './engine/espeak-engine.js';

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
}

export function buildVoiceEngine(config: Config, catalog: VoiceCatalog, report: EngineReport, options: VoiceEngineOptions = {}): EngineRegistry {
  const embedded = new EspeakEngine({
    workers: config.ttsWorkers,
    maxQueue: config.ttsQueueSize,
    niceness: config.ttsWorkerNice,
    voices: catalog.embeddedVoices(),
    languageIds: catalog.embeddedLanguageIds(),
    onEvent: (event) => report[event.type === 'worker-ready' ? 'debug' : 'warn']({ engineEvent: event }, 'engine worker event'),
  });
  const packs = options.embeddedOnly ? [] : catalog.voicePacks().map((pack) => ({ ...pack, path: resolve(config.modelsDir, pack.path) }));
  return buildEngineRegistry(embedded, packs, {
    workers: config.onnxWorkers,
    threadsPerWorker: config.onnxThreads,
    maxQueue: config.ttsQueueSize,
    niceness: config.ttsWorkerNice,
    modelsDir: config.modelsDir,
    onEvent: (event) => {
      if (event.type === 'pack-failed') {
        report.warn({ pack: event.path, voice: event.voiceName, language: event.language, reason: event.reason }, 'voice pack failed to load; its pair uses the embedded engine');
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
  });
}
