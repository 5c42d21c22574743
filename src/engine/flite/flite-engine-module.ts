// The Flite engine kind: a pack is one .flitevox (a CMU clustergen voice) that must declare the pack's language.
// Builds one FliteEngine for all of them, leaving out (and reporting) voices that cannot be used.

import { statSync } from 'node:fs';
import { z } from 'zod';
import type { EngineModule, InstalledPack } from '../engine-module.js';
import { TRIAL_SENTENCES } from '../trial-sentences.js';
import { FLITE_ENGINE_KIND, FliteEngine, type FliteRoute } from './flite-engine.js';

/** A Flite pack has no fields of its own: the .flitevox says what it is. */
const FlitePackOptions = z.strictObject({});
export type FlitePackOptions = z.infer<typeof FlitePackOptions>;

export const fliteEngineModule: EngineModule<FlitePackOptions> = {
  kind: FLITE_ENGINE_KIND,
  packOptions: FlitePackOptions,

  create(packs, context) {
    const routes: FliteRoute[] = [];
    const fail = (pack: { voiceName: string; language: InstalledPack<unknown>['language']; path: string }, reason: string): void =>
      context.onEvent({ type: 'pack-failed', voiceName: pack.voiceName, language: pack.language, path: pack.path, reason });
    for (const pack of packs) {
      const stat = statSync(pack.path, { throwIfNoEntry: false });
      if (!stat?.isFile()) {
        fail(pack, `flite voice ${pack.path} does not exist`);
        continue;
      }
      const voiceIdentity = pack.sha256 !== undefined ? `sha256:${pack.sha256}` : `size:${stat.size},mtime:${Math.round(stat.mtimeMs)}`;
      routes.push({ voiceName: pack.voiceName, language: pack.language, voicePath: pack.path, voiceIdentity });
    }
    if (routes.length === 0) return undefined;
    return new FliteEngine({
      routes,
      workers: context.workers,
      maxQueue: context.maxQueue,
      niceness: context.niceness,
      startTimeoutMs: context.startTimeoutMs,
      onEvent: (event) => {
        // The workers check each file whole (an HTML page, a truncated download, another language): its pairs fall back.
        if (event.type === 'voice-failed') {
          for (const route of routes) if (route.voicePath === event.path && route.language === event.language) fail({ ...route, path: route.voicePath }, event.error);
        } else {
          context.onEvent({ ...event, engine: FLITE_ENGINE_KIND });
        }
      },
    });
  },

  async trial(pack) {
    // In this process only for an install: the WASI module is loaded when a pack is tried.
    const { openFliteVoice } = await import('./flite-voice.js');
    const { synthesizeFlite } = await import('./flite-synth.js');
    const voice = openFliteVoice(pack.path, pack.language);
    const clip = synthesizeFlite({ voice, text: TRIAL_SENTENCES[pack.language], speed: 1, pitchShiftSemitones: 0, wordTimings: false });
    if (clip.samples.length === 0) throw new Error(`flite voice ${pack.path} spoke nothing for a ${pack.language} sentence`);
    return { sampleRateHz: clip.sampleRateHz, durationMs: (1000 * clip.samples.length) / clip.sampleRateHz };
  },
};
