// One real embedded engine per test file (two eSpeak NG WASM workers), started before the file's tests and closed
// after them; the shipped voice catalog with it. Tests that need the engine itself, not a server, use this.

import { afterAll, beforeAll } from 'vitest';
import { loadVoiceCatalog, type VoiceCatalog } from '../../src/core/voice-catalog.js';
import { EspeakEngine } from '../../src/engine/espeak-engine.js';

export const catalog: VoiceCatalog = loadVoiceCatalog(new URL('../../models/raaga-v1/manifest.json', import.meta.url).pathname);

export interface EspeakFixture {
  /** The started engine; only valid inside tests and hooks of the file that called useEspeakEngine. */
  readonly engine: EspeakEngine;
}

export function useEspeakEngine(options: { workers?: number; maxQueue?: number } = {}): EspeakFixture {
  let engine: EspeakEngine | undefined;
  beforeAll(async () => {
    engine = new EspeakEngine({
      workers: options.workers ?? 2,
      maxQueue: options.maxQueue ?? 64,
      voices: catalog.embeddedVoices(),
      languageIds: catalog.embeddedLanguageIds(),
    });
    await engine.start();
  });
  afterAll(async () => {
    await engine?.close();
  });
  return {
    get engine(): EspeakEngine {
      if (engine === undefined) throw new Error('the eSpeak engine is used outside the tests of its file');
      return engine;
    },
  };
}
