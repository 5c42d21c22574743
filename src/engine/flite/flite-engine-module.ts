// The Flite engine kind: a pack is one .flitevox (a CMU clustergen voice) that must declare the pack's language.
// Builds one FliteEngine for all of them, leaving out (and reporting) voices that cannot be used.

import { z } from 'zod';
import { definePackEngine } from '../engine-module.js';
import { failureReason, packFileIdentity, reportPackFailed, requirePackFile } from '../pack-checks.js';
import { TRIAL_SENTENCES } from '../trial-sentences.js';
import { FLITE_BUILD_FILES } from './flite-build.js';
import { FLITE_ENGINE_KIND, FliteEngine, type FliteRoute } from './flite-engine.js';

/** A Flite pack has no fields of its own: the .flitevox says what it is. */
const FlitePackOptions = z.strictObject({});
export type FlitePackOptions = z.infer<typeof FlitePackOptions>;

export const fliteEngineModule = definePackEngine<FlitePackOptions>({
  kind: FLITE_ENGINE_KIND,
  packOptions: FlitePackOptions,
  // The CMU voices are 2.5-31 MB; a file far past the voice budget is refused before it is copied.
  packFiles: [{ field: 'path', suffix: '.flitevox', label: 'Flite voice (.flitevox)', maxBytes: 256 * 2 ** 20 }],
  // flite.wasm and its loader are built here from source: held to their BUILD.json before a pack is used or installed.
  build: FLITE_BUILD_FILES,

  create(packs, context) {
    const routes: FliteRoute[] = [];
    for (const pack of packs) {
      try {
        const stat = requirePackFile(pack.path, 'flite voice', context.modelsDir);
        routes.push({ voiceName: pack.voiceName, language: pack.language, path: pack.path, voiceIdentity: packFileIdentity(pack, stat) });
      } catch (error) {
        reportPackFailed(context, pack, failureReason(error));
      }
    }
    if (routes.length === 0) return undefined;
    // The workers check each file whole (an HTML page, a truncated download, another language): its pairs fall back.
    return new FliteEngine({ ...context, routes });
  },

  async trial(pack, context) {
    // In this process only for an install: flite.wasm is loaded when a pack is tried.
    const { FliteVoiceBank } = await import('./flite-voice-bank.js');
    const { synthesizeFlite } = await import('./flite-synth.js');
    const bank = new FliteVoiceBank({ modelsDir: context.modelsDir });
    const clip = synthesizeFlite(bank, { voicePath: pack.path, language: pack.language, text: TRIAL_SENTENCES[pack.language], speed: 1, pitchShiftSemitones: 0, wordTimings: false });
    if (clip.samples.length === 0) throw new Error(`flite voice ${pack.path} spoke nothing for a ${pack.language} sentence`);
    return { sampleRateHz: clip.sampleRateHz, durationMs: (1000 * clip.samples.length) / clip.sampleRateHz };
  },
});
