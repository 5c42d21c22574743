// The zod schema of a Piper voice sidecar (`model.onnx.json`) and its loader: the single source of truth for the
// fields Raaga reads. Unknown fields (dataset, piper_version, language...) are kept so real sidecars validate.

import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Piper's special symbols: padding between phonemes, beginning and end of a sentence. */
export const PAD = '_';
export const BOS = '^';
export const EOS = '$';

const PhonemeIdsSchema = z.array(z.number().int().min(0)).min(1);

export const PiperSidecarSchema = z
  .looseObject({
    audio: z.looseObject({
      sample_rate: z.number().int().min(8000).max(48000),
      quality: z.string().optional(),
    }),
    espeak: z.looseObject({ voice: z.string().min(1) }).optional(),
    phoneme_type: z.enum(['espeak', 'text']).default('espeak'),
    phoneme_id_map: z.record(z.string().min(1), PhonemeIdsSchema),
    num_symbols: z.number().int().min(1).optional(),
    num_speakers: z.number().int().min(1).default(1),
    speaker_id_map: z.record(z.string(), z.number().int().min(0)).default({}),
    inference: z
      .looseObject({
        noise_scale: z.number().min(0).max(2).default(0.667),
        length_scale: z.number().gt(0).max(10).default(1),
        noise_w: z.number().min(0).max(2).default(0.8),
      })
      .default({ noise_scale: 0.667, length_scale: 1, noise_w: 0.8 }),
  })
  .superRefine((sidecar, ctx) => {
    if (sidecar.phoneme_type === 'espeak' && sidecar.espeak === undefined) {
      ctx.addIssue({ code: 'custom', path: ['espeak', 'voice'], message: "required when phoneme_type is 'espeak'" });
    }
    for (const symbol of [PAD, BOS, EOS]) {
      if (sidecar.phoneme_id_map[symbol] === undefined) {
        ctx.addIssue({ code: 'custom', path: ['phoneme_id_map', symbol], message: `the '${symbol}' symbol is missing` });
      }
    }
    for (const [name, id] of Object.entries(sidecar.speaker_id_map)) {
      if (id >= sidecar.num_speakers) {
        ctx.addIssue({ code: 'custom', path: ['speaker_id_map', name], message: `speaker id ${id} is not below num_speakers (${sidecar.num_speakers})` });
      }
    }
    if (sidecar.num_symbols !== undefined) {
      for (const [symbol, ids] of Object.entries(sidecar.phoneme_id_map)) {
        if (ids.some((id) => id >= (sidecar.num_symbols as number))) {
          ctx.addIssue({ code: 'custom', path: ['phoneme_id_map', symbol], message: `id is not below num_symbols (${sidecar.num_symbols})` });
        }
      }
    }
  });

export type PiperSidecar = z.infer<typeof PiperSidecarSchema>;

export class PiperSidecarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PiperSidecarError';
  }
}

/** The sidecar sits next to the model: `<model>.onnx.json`. */
export function sidecarPathFor(modelPath: string): string {
  return `${modelPath}.json`;
}

/** Reads and validates a sidecar; throws PiperSidecarError naming the file and each offending field. */
export function loadPiperSidecar(path: string): PiperSidecar {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new PiperSidecarError(`voice sidecar ${path} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PiperSidecarError(`voice sidecar ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parsePiperSidecar(json, path);
}

export function parsePiperSidecar(json: unknown, source: string): PiperSidecar {
  const parsed = PiperSidecarSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`);
    throw new PiperSidecarError(`voice sidecar ${source} is invalid:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

/** Resolves `--speaker` input (an id or a name from speaker_id_map) to an id the model accepts. */
export function resolveSpeakerId(sidecar: PiperSidecar, speaker: string | number): number {
  const byName = typeof speaker === 'string' ? sidecar.speaker_id_map[speaker] : undefined;
  const id = byName ?? (typeof speaker === 'number' ? speaker : /^\d+$/.test(speaker) ? Number(speaker) : NaN);
  if (!Number.isInteger(id) || id < 0 || id >= sidecar.num_speakers) {
    const names = Object.keys(sidecar.speaker_id_map);
    throw new PiperSidecarError(
      `speaker '${speaker}' is not in this voice: it has ${sidecar.num_speakers} speaker(s) (ids 0-${sidecar.num_speakers - 1}${names.length > 0 ? `; names ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', ...' : ''}` : ''})`,
    );
  }
  return id;
}
