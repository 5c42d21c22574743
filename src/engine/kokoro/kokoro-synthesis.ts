// One Kokoro job inside a worker: text to phonemes, phonemes to runs of at most 510 tokens, each run through the
// model with the style row for its length, the runs' audio back to back at 24 kHz.

import type { KokoroLanguage, KokoroPhonemizeOptions, KokoroPhonemizer } from './kokoro-phonemizer.js';
import { KOKORO_SAMPLE_RATE_HZ, type KokoroSession } from './kokoro-session.js';
import type { KokoroStyle } from './kokoro-style.js';
import { type KokoroRun, tokenize } from './kokoro-vocab.js';

export interface KokoroVoice {
  readonly session: KokoroSession;
  readonly style: KokoroStyle;
  readonly language: KokoroLanguage;
}

export interface KokoroClip {
  readonly samples: Float32Array;
  readonly sampleRateHz: typeof KOKORO_SAMPLE_RATE_HZ;
  readonly phonemes: string;
  readonly runs: readonly KokoroRun[];
  /** Phoneme symbols the vocabulary lacks, dropped, with counts. */
  readonly unknown: Map<string, number>;
}

export interface KokoroSynthesisOptions extends KokoroPhonemizeOptions {
  /** Kokoro's own speed: durations are divided by it (1 = as trained). */
  readonly speed: number;
}

export async function synthesizeKokoro(
  phonemizer: KokoroPhonemizer,
  voice: KokoroVoice,
  text: string,
  options: KokoroSynthesisOptions,
): Promise<KokoroClip> {
  const phonemes = phonemizer.phonemize(text, voice.language, options);
  const { runs, unknown } = tokenize(phonemes);
  const parts: Float32Array[] = [];
  for (const run of runs) parts.push(await voice.session.run(run.ids, voice.style.forTokens(run.ids.length - 2), options.speed));
  const samples = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    samples.set(part, offset);
    offset += part.length;
  }
  return { samples, sampleRateHz: KOKORO_SAMPLE_RATE_HZ, phonemes, runs, unknown };
}
