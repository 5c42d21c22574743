// The zod schema of a voice bank manifest (models/<model_id>/manifest.json): the single source of truth for
// its shape, plus the roster rules the spec fixes (sixteen voices, eight male and eight female, all eight languages).

import { z } from 'zod';
import { packEngine, PACK_ENGINE_KINDS } from '../engine/engines.js';
import { LANGUAGE_CODES } from '../languages.js';

const LanguageCodeSchema = z.enum(LANGUAGE_CODES);

/** Mirrors EmbeddedVoiceParams in engine/espeak/; the bounds are what eSpeak NG variant files accept. */
export const EmbeddedVoiceSchema = z.strictObject({
  pitchBaseHz: z.number().min(50).max(400),
  pitchMaxHz: z.number().min(50).max(500),
  /** F0..F5 as [frequency %, strength %]. */
  formants: z.array(z.tuple([z.number().min(50).max(200), z.number().min(0).max(200)])).length(6),
  breath: z.number().min(0).max(75),
  roughness: z.number().int().min(0).max(7),
  intonationRange: z.number().min(0).max(100),
  wordsPerMinute: z.number().min(80).max(450),
}).refine((voice) => voice.pitchMaxHz > voice.pitchBaseHz, {
  message: 'pitchMaxHz must be above pitchBaseHz',
  path: ['pitchMaxHz'],
});

/** The fields every pack has; the rest are its engine's own (engine/engines.ts), checked by that engine's schema. */
export const PACK_COMMON_FIELDS = ['engine', 'path', 'sha256'] as const;

/**
 * An installed voice pack speaking one voice in one language (`raaga voices install` and `add` write these): which
 * engine kind, its main file, the file's sha256, and the engine's own fields (Piper's `speaker`, Kokoro's `style`).
 * Without `engine` a pack is Piper's, as every pack was before engines plugged in.
 */
export const VoicePackSchema = z
  .looseObject({
    engine: z.string().default('piper'),
    /** The pack's main file, relative to RAAGA_MODELS_DIR (e.g. `packs/hi_IN-example-medium/model.onnx`). */
    path: z.string().min(1),
    /** SHA-256 of the main file, recorded at install. */
    sha256: z.string().optional(),
  })
  .superRefine((pack, ctx) => {
    // Checked here, not in the shape, so a bad digest and bad engine fields are all reported at once.
    if (pack.sha256 !== undefined && !/^[0-9a-f]{64}$/.test(pack.sha256)) ctx.addIssue({ code: 'custom', path: ['sha256'], message: 'sha256 must be 64 lowercase hex digits' });
    const module = packEngine(pack.engine);
    if (module === undefined) {
      ctx.addIssue({ code: 'custom', path: ['engine'], message: `engine '${pack.engine}' is not one of ${PACK_ENGINE_KINDS.join(', ')}` });
      return;
    }
    const options = module.packOptions.safeParse(packOptionsOf(pack));
    if (!options.success) for (const issue of options.error.issues) ctx.addIssue({ code: 'custom', path: issue.path as PropertyKey[], message: issue.message });
  });

/** A pack's engine-specific fields: everything but the common ones. */
export function packOptionsOf(pack: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(pack).filter(([name]) => !(PACK_COMMON_FIELDS as readonly string[]).includes(name)));
}

export const ManifestVoiceSchema = z.strictObject({
  voice_name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'voice_name must be lowercase ascii (a-z, 0-9, _)'),
  gender: z.enum(['male', 'female']),
  description: z.string().optional(),
  /** Languages the voice speaks; absent means every language of the manifest. */
  languages: z.array(LanguageCodeSchema).min(1).optional(),
  embedded: EmbeddedVoiceSchema,
  packs: z.partialRecord(LanguageCodeSchema, VoicePackSchema).optional(),
});

export const ManifestLanguageSchema = z.strictObject({
  code: LanguageCodeSchema,
  name: z.string().optional(),
  embedded: z.strictObject({ espeakId: z.string().min(1) }),
});

export const VOICES_PER_GENDER = 8;

export const ManifestSchema = z
  .strictObject({
    model_id: z.string().min(1),
    description: z.string().optional(),
    languages: z.array(ManifestLanguageSchema),
    voices: z.array(ManifestVoiceSchema),
  })
  .superRefine((manifest, ctx) => {
    const codes = manifest.languages.map((language) => language.code);
    for (const code of LANGUAGE_CODES) {
      if (!codes.includes(code)) ctx.addIssue({ code: 'custom', path: ['languages'], message: `language ${code} is missing` });
    }
    codes.forEach((code, index) => {
      if (codes.indexOf(code) !== index) ctx.addIssue({ code: 'custom', path: ['languages', index, 'code'], message: `language ${code} is listed twice` });
    });
    const seen = new Set<string>();
    manifest.voices.forEach((voice, index) => {
      if (seen.has(voice.voice_name)) {
        ctx.addIssue({ code: 'custom', path: ['voices', index, 'voice_name'], message: `voice_name '${voice.voice_name}' is listed twice` });
      }
      seen.add(voice.voice_name);
      voice.languages?.forEach((language, languageIndex) => {
        if (!codes.includes(language)) {
          ctx.addIssue({ code: 'custom', path: ['voices', index, 'languages', languageIndex], message: `language ${language} is not in the manifest's languages` });
        }
      });
      for (const language of Object.keys(voice.packs ?? {})) {
        if (voice.languages !== undefined && !voice.languages.includes(language as (typeof voice.languages)[number])) {
          ctx.addIssue({ code: 'custom', path: ['voices', index, 'packs', language], message: `voice ${voice.voice_name} does not speak ${language}` });
        }
      }
    });
    const male = manifest.voices.filter((voice) => voice.gender === 'male').length;
    const female = manifest.voices.length - male;
    if (male !== VOICES_PER_GENDER || female !== VOICES_PER_GENDER) {
      ctx.addIssue({
        code: 'custom',
        path: ['voices'],
        message: `the roster must hold ${2 * VOICES_PER_GENDER} voices, ${VOICES_PER_GENDER} male and ${VOICES_PER_GENDER} female; found ${manifest.voices.length} (${male} male, ${female} female)`,
      });
    }
  });

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestVoice = z.infer<typeof ManifestVoiceSchema>;
export type ManifestVoicePack = z.infer<typeof VoicePackSchema>;
