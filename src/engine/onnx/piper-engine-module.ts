// The Piper/VITS engine kind: installed packs are an `.onnx` with its `.onnx.json` sidecar (and a speaker of a
// multi-speaker model). Builds one OnnxEngine for all of them, leaving out (and reporting) packs that cannot load.

import { statSync } from 'node:fs';
import { z } from 'zod';
import type { EngineModule, InstalledPack } from '../engine-module.js';
import { TRIAL_SENTENCES } from '../trial-sentences.js';
import { OnnxEngine, PIPER_ENGINE_KIND, type OnnxModel, type OnnxRoute } from './onnx-engine.js';
import { loadPiperSidecar, resolveSpeakerId, sidecarPathFor } from './piper-sidecar.js';

const PiperPackOptions = z.strictObject({
  /** Speaker id inside a multi-speaker model; 0 for single-speaker models. */
  speaker: z.number().int().min(0).default(0),
});
export type PiperPackOptions = z.infer<typeof PiperPackOptions>;

/** Reads each pack's sidecar; a pack with a missing model, a bad sidecar or a speaker it lacks is a failure. */
function piperRoutes(packs: readonly InstalledPack<PiperPackOptions>[]) {
  const models = new Map<string, OnnxModel>();
  const routes: OnnxRoute[] = [];
  const failures: { pack: InstalledPack<PiperPackOptions>; reason: string }[] = [];
  for (const pack of packs) {
    try {
      const stat = statSync(pack.path, { throwIfNoEntry: false });
      if (!stat?.isFile()) throw new Error(`model file ${pack.path} does not exist`);
      const model = models.get(pack.path) ?? { modelPath: pack.path, sidecar: loadPiperSidecar(sidecarPathFor(pack.path)) };
      resolveSpeakerId(model.sidecar, pack.options.speaker);
      models.set(pack.path, model);
      const modelIdentity = pack.sha256 !== undefined ? `sha256:${pack.sha256}` : `size:${stat.size},mtime:${Math.round(stat.mtimeMs)}`;
      routes.push({ voiceName: pack.voiceName, language: pack.language, modelPath: pack.path, speakerId: pack.options.speaker, modelIdentity });
    } catch (error) {
      failures.push({ pack, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { models: [...models.values()], routes, failures };
}

export const piperEngineModule: EngineModule<PiperPackOptions> = {
  kind: PIPER_ENGINE_KIND,
  packOptions: PiperPackOptions,

  create(packs, context) {
    const { models, routes, failures } = piperRoutes(packs);
    const fail = (pack: { voiceName: string; language: InstalledPack<unknown>['language']; path: string }, reason: string): void =>
      context.onEvent({ type: 'pack-failed', voiceName: pack.voiceName, language: pack.language, path: pack.path, reason });
    for (const { pack, reason } of failures) fail(pack, reason);
    if (models.length === 0) return undefined;
    return new OnnxEngine({
      models,
      routes,
      workers: context.workers,
      intraOpNumThreads: context.threadsPerWorker,
      maxQueue: context.maxQueue,
      ...(context.niceness === undefined ? {} : { niceness: context.niceness }),
      ...(context.startTimeoutMs === undefined ? {} : { startTimeoutMs: context.startTimeoutMs }),
      onEvent: (event) => {
        if (event.type === 'voice-failed') {
          for (const route of routes) if (route.modelPath === event.modelPath) fail({ ...route, path: route.modelPath }, event.error);
        } else if (event.type === 'unknown-phonemes') {
          context.onEvent({ type: 'unknown-phonemes', path: event.modelPath, count: event.count, symbols: event.symbols });
        } else {
          context.onEvent({ ...event, engine: PIPER_ENGINE_KIND });
        }
      },
    });
  },

  async trial(pack) {
    const sidecar = loadPiperSidecar(sidecarPathFor(pack.path));
    const speakerId = resolveSpeakerId(sidecar, pack.options.speaker);
    // Loaded here only: the native runtime and the phonemizer are heavy, and only an install needs them in-process.
    const { PiperSession } = await import('./piper-session.js');
    const { phonemizeText } = await import('./piper-phonemizer.js');
    const session = await PiperSession.create(pack.path, sidecar, { intraOpNumThreads: 1 });
    try {
      let espeak;
      if (sidecar.phoneme_type === 'espeak') {
        const { EspeakPhonemizer } = await import('../espeak/espeak-phonemizer.js');
        espeak = await EspeakPhonemizer.create();
      }
      const { sentences } = phonemizeText(TRIAL_SENTENCES[pack.language], sidecar, espeak);
      let samples = 0;
      for (const ids of sentences) samples += (await session.run(ids, { lengthScale: sidecar.inference.length_scale, speakerId })).length;
      if (samples === 0) throw new Error(`${pack.path} spoke nothing for a ${pack.language} sentence`);
      return { sampleRateHz: sidecar.audio.sample_rate, durationMs: (1000 * samples) / sidecar.audio.sample_rate };
    } finally {
      await session.release();
    }
  },
};
