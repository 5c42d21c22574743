// The Piper/VITS engine kind: installed packs are an `.onnx` with its `.onnx.json` sidecar (and a speaker of a
// multi-speaker model). Builds one PiperEngine for all of them, leaving out (and reporting) packs that cannot load.

import { z } from 'zod';
import { definePackEngine, type InstalledPack } from '../engine-module.js';
import { failureReason, packFileIdentity, reportPackFailed, requirePackFile } from '../pack-checks.js';
import { TRIAL_SENTENCES } from '../trial-sentences.js';
import { PiperEngine, PIPER_ENGINE_KIND, type PiperModel, type PiperRoute } from './piper-engine.js';
import { loadPiperSidecar, resolveSpeakerId, sidecarPathFor } from './piper-sidecar.js';

const GiB = 1024 ** 3;

const PiperPackOptions = z.strictObject({
  /** Speaker id inside a multi-speaker model; 0 for single-speaker models. */
  speaker: z.number().int().min(0).default(0),
});
export type PiperPackOptions = z.infer<typeof PiperPackOptions>;

/** Reads each pack's sidecar; a pack with a missing model, a bad sidecar or a speaker it lacks is a failure. */
function piperRoutes(packs: readonly InstalledPack<PiperPackOptions>[], modelsDir: string) {
  const models = new Map<string, PiperModel>();
  const routes: PiperRoute[] = [];
  const failures: { pack: InstalledPack<PiperPackOptions>; reason: string }[] = [];
  for (const pack of packs) {
    try {
      const stat = requirePackFile(pack.path, 'model file', modelsDir);
      requirePackFile(sidecarPathFor(pack.path), 'voice sidecar', modelsDir);
      const model = models.get(pack.path) ?? { modelPath: pack.path, sidecar: loadPiperSidecar(sidecarPathFor(pack.path)) };
      resolveSpeakerId(model.sidecar, pack.options.speaker);
      models.set(pack.path, model);
      routes.push({ voiceName: pack.voiceName, language: pack.language, path: pack.path, speakerId: pack.options.speaker, modelIdentity: packFileIdentity(pack, stat) });
    } catch (error) {
      failures.push({ pack, reason: failureReason(error) });
    }
  }
  return { models: [...models.values()], routes, failures };
}

export const piperEngineModule = definePackEngine<PiperPackOptions>({
  kind: PIPER_ENGINE_KIND,
  packOptions: PiperPackOptions,
  threadedWorkers: true,
  // Installed as model.onnx + model.onnx.json, Piper's own convention, so the model and its sidecar always pair up.
  packFiles: [{ field: 'path', suffix: '.onnx', label: 'Piper model (.onnx with its .onnx.json sidecar)', maxBytes: GiB, companions: ['.json'], installAs: 'model.onnx' }],

  installFields(files, flags) {
    const model = files.path as string;
    const sidecar = loadPiperSidecar(sidecarPathFor(model));
    const speaker = resolveSpeakerId(sidecar, flags.speaker ?? 0);
    const phonemes = sidecar.phoneme_type === 'espeak' ? `eSpeak '${sidecar.espeak?.voice ?? '?'}' phonemes` : 'character tokens';
    return {
      options: { speaker },
      summary: `${sidecar.audio.sample_rate} Hz, ${phonemes}, ${sidecar.num_speakers} speaker${sidecar.num_speakers === 1 ? '' : 's'}; speaker ${speaker}`,
      details: { sampleRateHz: sidecar.audio.sample_rate, phonemeType: sidecar.phoneme_type, espeakVoice: sidecar.espeak?.voice, numSpeakers: sidecar.num_speakers, speakerId: speaker },
    };
  },

  create(packs, context) {
    const { models, routes, failures } = piperRoutes(packs, context.modelsDir);
    for (const { pack, reason } of failures) reportPackFailed(context, pack, reason);
    if (models.length === 0) return undefined;
    return new PiperEngine({ ...context, models, routes });
  },

  async trial(pack) {
    const sidecar = loadPiperSidecar(sidecarPathFor(pack.path));
    const speakerId = resolveSpeakerId(sidecar, pack.options.speaker);
    // Loaded here only: the native runtime and the phonemizer are heavy, and only an install needs them in-process.
    const { PiperSession } = await import('./piper-session.js');
    const { phonemizeText } = await import('./piper-phonemizer.js');
    const session = await PiperSession.create(pack.path, sidecar, { intraOpNumThreads: 1 }).catch((error: unknown) => {
      throw new Error(`${pack.path} does not load as a Piper voice: ${failureReason(error)}`);
    });
    try {
      let espeak;
      if (sidecar.phoneme_type === 'espeak' && sidecar.espeak !== undefined) {
        const { EspeakPhonemizer } = await import('../espeak/espeak-phonemizer.js');
        espeak = await EspeakPhonemizer.create();
        try {
          espeak.phonemize('a', sidecar.espeak.voice);
        } catch (error) {
          // The server would refuse the pack at start: this eSpeak NG build cannot phonemize for it.
          throw new Error(`the sidecar's espeak.voice '${sidecar.espeak.voice}' cannot be used: ${failureReason(error)}`);
        }
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
});
