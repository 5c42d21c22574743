// The Kokoro engine kind: a pack is a Kokoro-82M model (`path`, usually shared by several packs) and the voice's style
// file (`style`). Builds one KokoroEngine for all of them, leaving out (and reporting) packs whose files are unusable.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { definePackEngine, type InstalledPack } from '../engine-module.js';
import { failureReason, packFileIdentity, reportPackFailed, requirePackFile } from '../pack-checks.js';
import { TRIAL_SENTENCES } from '../trial-sentences.js';
import { KOKORO_ENGINE_KIND, KokoroEngine, type KokoroRoute } from './kokoro-engine.js';
import { kokoroLanguageFor, type KokoroLanguage } from './kokoro-language.js';
import { KokoroStyle } from './kokoro-style.js';

const KokoroPackOptions = z.strictObject({
  /** The voice's 510 x 256 style file, relative to RAAGA_MODELS_DIR (or absolute, inside it: checked at load). */
  style: z.string().min(1),
});
export type KokoroPackOptions = z.infer<typeof KokoroPackOptions>;

type KokoroPack = InstalledPack<KokoroPackOptions>;

/** The pack's phonemizer language: Kokoro's voices each learned one accent, named by the style file's first letter. */
function packLanguage(pack: KokoroPack, stylePath: string): KokoroLanguage {
  if (pack.language !== 'en-IN' && pack.language !== 'hi-IN') throw new Error(`Kokoro-82M speaks en-IN and hi-IN here, not ${pack.language}`);
  return kokoroLanguageFor(pack.language, basename(stylePath).replace(/\.bin$/i, ''));
}

/** Checks each pack's files up front (model present, style file well formed); several packs may share either. */
function kokoroRoutes(packs: readonly KokoroPack[], modelsDir: string) {
  const styleIdentities = new Map<string, string>();
  const routes: KokoroRoute[] = [];
  const failures: { pack: KokoroPack; reason: string }[] = [];
  for (const pack of packs) {
    try {
      const stylePath = resolve(modelsDir, pack.options.style);
      const kokoroLanguage = packLanguage(pack, stylePath);
      const stat = requirePackFile(pack.path, 'model file', modelsDir);
      let styleIdentity = styleIdentities.get(stylePath);
      if (styleIdentity === undefined) {
        requirePackFile(stylePath, 'style file', modelsDir);
        const bytes = readFileSync(stylePath);
        KokoroStyle.fromBytes(bytes, stylePath);
        // Read whole anyway to check it; its digest is a cheap, exact identity for cached audio.
        styleIdentity = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
        styleIdentities.set(stylePath, styleIdentity);
      }
      const modelIdentity = packFileIdentity(pack, stat);
      routes.push({ voiceName: pack.voiceName, language: pack.language, path: pack.path, stylePath, kokoroLanguage, modelIdentity, styleIdentity });
    } catch (error) {
      failures.push({ pack, reason: failureReason(error) });
    }
  }
  return { routes, failures };
}

export const kokoroEngineModule = definePackEngine<KokoroPackOptions>({
  kind: KOKORO_ENGINE_KIND,
  packOptions: KokoroPackOptions,
  packFileOptions: ['style'],
  catalogKinds: ['kokoro-voice', 'kokoro-model'],
  threadedWorkers: true,
  packFiles: [
    { field: 'path', suffix: '.onnx', label: 'Kokoro-82M model (.onnx)', maxBytes: 1024 ** 3 },
    // A style file is 510 x 256 float32s (522,240 bytes).
    { field: 'style', suffix: '.bin', label: 'Kokoro voice style file (.bin)', maxBytes: 2 ** 20 },
  ],

  create(packs, context) {
    const { routes, failures } = kokoroRoutes(packs, context.modelsDir);
    for (const { pack, reason } of failures) reportPackFailed(context, pack, reason);
    if (routes.length === 0) return undefined;
    return new KokoroEngine({ ...context, routes });
  },

  async trial(pack, context) {
    const stylePath = resolve(context.modelsDir, pack.options.style);
    const language = packLanguage(pack, stylePath);
    requirePackFile(pack.path, 'model file');
    requirePackFile(stylePath, 'style file');
    const style = await KokoroStyle.load(stylePath);
    // Loaded here only: the native runtime and the phonemizer are heavy, and only an install needs them in-process.
    const { KokoroSession } = await import('./kokoro-session.js');
    const { KokoroPhonemizer } = await import('./kokoro-phonemizer.js');
    const { synthesizeKokoro } = await import('./kokoro-synthesis.js');
    const session = await KokoroSession.create(pack.path, { intraOpNumThreads: 1 }).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      // onnxruntime's own load errors do not always say which file.
      throw new Error(reason.includes(pack.path) ? reason : `${pack.path}: onnxruntime could not load it as a Kokoro model: ${reason}`);
    });
    try {
      const clip = await synthesizeKokoro(await KokoroPhonemizer.create(), { session, style, language }, TRIAL_SENTENCES[pack.language], { speed: 1 });
      if (clip.samples.length === 0) throw new Error(`${pack.path} spoke nothing for a ${pack.language} sentence with ${stylePath}`);
      return { sampleRateHz: clip.sampleRateHz, durationMs: (1000 * clip.samples.length) / clip.sampleRateHz };
    } finally {
      await session.release();
    }
  },
});
