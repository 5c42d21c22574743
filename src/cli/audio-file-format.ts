// The audio formats and rates the CLI writes, and the rule that picks a format from --format or the file name.

import { extname } from 'node:path';
import { UsageError } from './usage-error.js';

export const FILE_FORMATS = ['wav', 'mp3', 'pcm', 'mulaw', 'alaw', 'opus'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];
export const FILE_RATES = [8000, 16000, 24000, 48000] as const;
export type FileRate = (typeof FILE_RATES)[number];

const BY_EXTENSION: Readonly<Record<string, FileFormat>> = {
  '.mp3': 'mp3',
  '.pcm': 'pcm',
  '.raw': 'pcm',
  '.ulaw': 'mulaw',
  '.mulaw': 'mulaw',
  '.alaw': 'alaw',
  '.al': 'alaw',
  // An Ogg/Opus file: .opus is its registered extension (RFC 7845 §9), .ogg what WhatsApp and most tools also accept.
  '.opus': 'opus',
  '.ogg': 'opus',
};

/** `--format` when given, else the `--out` extension (.wav .mp3 .pcm/.raw .ulaw/.mulaw .alaw/.al .opus/.ogg), else wav. */
export function fileFormatFor(out: string, given: string | undefined): FileFormat {
  const format = given ?? BY_EXTENSION[extname(out).toLowerCase()] ?? 'wav';
  if (!(FILE_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FILE_FORMATS.join(', ')}`);
  return format as FileFormat;
}

/** `--rate` when given, else 24000. */
export function fileRateFor(given: string | undefined): FileRate {
  const rate = Number(given ?? 24000);
  if (!(FILE_RATES as readonly number[]).includes(rate)) throw new UsageError(`--rate must be one of ${FILE_RATES.join(', ')}`);
  return rate as FileRate;
}
