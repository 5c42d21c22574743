// Phonemes to model ids as piper-phonemize does it: BOS, PAD, then each phoneme followed by PAD, then EOS.
// Phonemes are NFD code points; those missing from the voice's map are dropped and counted.

import { BOS, EOS, PAD } from './piper-sidecar.js';

export type PhonemeIdMap = Readonly<Record<string, readonly number[]>>;

export interface PhonemeIds {
  readonly ids: number[];
  /** Dropped phonemes and how often each occurred. */
  readonly unknown: Map<string, number>;
}

/** A phoneme string as Piper sees it: NFD-decomposed, one entry per code point. */
export function toPhonemes(text: string): string[] {
  return [...text.normalize('NFD')];
}

export function phonemesToIds(phonemes: readonly string[], map: PhonemeIdMap, unknown: Map<string, number> = new Map()): PhonemeIds {
  const pad = map[PAD] ?? [];
  const ids: number[] = [...(map[BOS] ?? []), ...pad];
  for (const phoneme of phonemes) {
    const mapped = map[phoneme];
    if (mapped === undefined) {
      unknown.set(phoneme, (unknown.get(phoneme) ?? 0) + 1);
      continue;
    }
    ids.push(...mapped, ...pad);
  }
  ids.push(...(map[EOS] ?? []));
  return { ids, unknown };
}
