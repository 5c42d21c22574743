// Composition root: builds the store, engine, catalog and services from a Config with plain constructors.
// Tests pass overrides (a store on a temp dir, a smaller engine) and get the same wiring the server runs.

import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AppDeps } from './app.js';
import type { Config } from './config.js';
import { Admission } from './core/admission.js';
import { SynthesisService } from './core/synthesis/synthesis-service.js';
import { loadVoiceCatalog, type VoiceCatalog } from './core/voice-catalog.js';
import { VoiceResolver } from './core/voice-resolver.js';
import { EspeakEngine } from './engine/espeak-engine.js';
import type { TtsEngine } from './engine/tts-engine.js';
import { MemoryStore } from './store/memory-store.js';
import type { Store } from './store/store.js';

export interface Deps extends AppDeps {
  readonly config: Config;
  readonly engine: TtsEngine;
  /** Abort to cancel every in-flight synthesis (end of the shutdown grace period). */
  readonly shutdownController: AbortController;
  /** Stops the engine and flushes the store. */
  close(): Promise<void>;
}

export interface DepsOverrides {
  readonly store?: Store;
  readonly engine?: TtsEngine;
  readonly catalog?: VoiceCatalog;
}

/** Longest chunk after the first: long sentences are cut at clause marks beyond this (code points). */
const MAX_CHUNK_CHARS = 300;

export function catalogPath(config: Config): string {
  return join(config.modelsDir, 'raaga-v1', 'manifest.json');
}

export async function buildDeps(config: Config, logger: Logger, overrides: DepsOverrides = {}): Promise<Deps> {
  const catalog = overrides.catalog ?? loadVoiceCatalog(catalogPath(config));
  const store = overrides.store ?? (await MemoryStore.open({ dataDir: config.dataDir }));
  const engine =
    overrides.engine ??
    new EspeakEngine({
      workers: config.ttsWorkers,
      maxQueue: config.ttsQueueSize,
      voices: catalog.embeddedVoices(),
      languageIds: catalog.embeddedLanguageIds(),
      onEvent: (event) => logger[event.type === 'worker-ready' ? 'debug' : 'warn']({ engineEvent: event }, 'engine worker event'),
    });
  const shutdownController = new AbortController();
  return {
    config,
    logger,
    store,
    engine,
    catalog,
    admission: new Admission(store, { slotLeaseMs: config.slotLeaseMs, reservationTtlMs: config.reservationTtlMs }),
    voices: new VoiceResolver(catalog, store),
    synthesis: new SynthesisService(engine, { firstChunkMaxChars: config.firstChunkMaxChars, maxChunkChars: MAX_CHUNK_CHARS }),
    shutdown: shutdownController.signal,
    shutdownController,
    maxBodyBytes: config.maxBodyBytes,
    async close() {
      await engine.close();
      await store.close();
    },
  };
}
