// The engine a configuration and a voice catalog make: the installed packs' engines (Flite, Kokoro, Piper) in front
// of the embedded eSpeak NG engine, as one registry. Built once by deps.ts for the server and by `raaga say`, so the
// voice a CLI user hears is the one a caller would.

import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Config } from './config.js';
import type { VoiceCatalog } from './core/voice-catalog.js';
import { buildEngineRegistry } from './engine/build-engine-registry.js';
import type { EngineRegistry } from './engine/engine-registry.js';
import { EspeakEngine } from './engine/espeak-engine.js';

/** Where the engine's warnings go: the server's pino logger, or the CLI's stderr. */
export interface EngineReport {
  warn(fields: object, message: string): void;
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
  if (packs.length > 0 && config.onnxWorkers * config.onnxThreads > availableParallelism()) {
    report.warn({ onnxWorkers: config.onnxWorkers, onnxThreads: config.onnxThreads, cores: availableParallelism() }, 'ONNX workers x threads exceeds the cores');
  }
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
      } else {
        report[event.type === 'worker-ready' ? 'debug' : 'warn']({ engineEvent: event }, 'voice pack engine worker event');
      }
    },
  });
}
