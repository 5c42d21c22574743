// What a .flitevox file declares (flite's cst_cg_load_voice format): the magic, byte order, the feature list (language,
// variant, gender ...), voice name, sample rate and F0 statistics. The whole file is walked so an installer refuses an
// HTML page, a truncated download or another format with a message naming the file.

import { readFileSync } from 'node:fs';
import type { LanguageCode } from '../../languages.js';
import { FliteVoiceError } from './flite-voice-error.js';
import { FlitevoxCursor } from './flitevox-cursor.js';
import { walkFlitevoxBody } from './flitevox-body.js';

export const FLITEVOX_MAGIC = 'CMU_FLITE_CG_VOXDATA-v2.0';

/** flite's language modules in Raaga's build (wasm/BUILD.json; a voice naming any other is refused). */
export const FLITE_BUILD_LANGUAGES: readonly string[] = ['eng', 'usenglish', 'cmu_indic_lang', 'cmu_grapheme_lang'];

export interface FlitevoxHeader {
  readonly path: string;
  readonly sizeBytes: number;
  readonly byteOrder: 'little-endian' | 'big-endian';
  /** Every feature in file order: language, secondary_languages, country, variant, age, gender, description ... */
  readonly features: Readonly<Record<string, string>>;
  /** flite's language module (`eng`, `cmu_indic_lang` ...): it picks the text front end. */
  readonly fliteLanguage: string;
  /** ISO 639-3 code of what it speaks: `eng`, or an Indic voice's `variant` (`hin`, `tam` ...); undefined if unknown. */
  readonly spokenLanguage: string | undefined;
  /** The service language it can serve (English voices serve en-IN), or undefined. */
  readonly language: LanguageCode | undefined;
  /** The clustergen database name, e.g. `cmu_us_slt`, `cmu_indic_hin_ab`. */
  readonly voiceName: string;
  readonly sampleRateHz: number;
  readonly f0MeanHz: number;
  readonly f0StddevHz: number;
  /** F0 from the SPAM accent/phrase model: flite ignores int_f0_target_mean and f0_shift for this voice. */
  readonly spamF0: boolean;
  /** Bytes after the last field flite reads: 0 for a file flite dumped (flite ignores any). */
  readonly trailingBytes: number;
}

// cmu_indic_lex.c switches on the `variant` feature (hin, tam, tel, kan ...); the CMU Indic voices are named
// cmu_indic_<variant>_<speaker>, which is the fallback when a file leaves `variant` at `none`.
const INDIC_LANGUAGES: Readonly<Record<string, LanguageCode>> = {
  hin: 'hi-IN',
  tam: 'ta-IN',
  tel: 'te-IN',
  kan: 'kn-IN',
  mar: 'mr-IN',
  guj: 'gu-IN',
  ben: 'bn-IN',
};
const MAX_FEATURES = 1000;

function spoken(fliteLanguage: string, variant: string | undefined, voiceName: string): string | undefined {
  if (fliteLanguage === 'eng' || fliteLanguage === 'usenglish') return 'eng';
  if (fliteLanguage !== 'cmu_indic_lang') return undefined;
  if (variant !== undefined && /^[a-z]{3}$/.test(variant) && variant !== 'none') return variant;
  return /^cmu_indic_([a-z]{3})_/.exec(voiceName)?.[1];
}

function refuseForeign(bytes: Uint8Array, path: string): never {
  if (bytes.length === 0) throw new FliteVoiceError(path, 'is empty');
  const magic = new TextEncoder().encode(FLITEVOX_MAGIC);
  if (bytes.length <= magic.length && magic.subarray(0, bytes.length).every((byte, i) => byte === bytes[i])) {
    throw new FliteVoiceError(path, `is truncated: it ends after ${bytes.length} bytes, inside the ${FLITEVOX_MAGIC} magic`);
  }
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 256));
  if (/^\s*</.test(head) && /<(!doctype|html|head|body|\?xml)/i.test(head)) {
    throw new FliteVoiceError(path, 'is an HTML or XML page, not a .flitevox voice (a download that returned a web page?)');
  }
  const shown = head.slice(0, 24).replace(/[^\x20-\x7e]/g, '.');
  throw new FliteVoiceError(path, `is not a .flitevox voice: it does not start with ${FLITEVOX_MAGIC} (it starts with '${shown}')`);
}

/** Parses a whole .flitevox file's bytes; throws FliteVoiceError naming `path` when they are not one. */
export function parseFlitevoxHeader(bytes: Uint8Array, path: string): FlitevoxHeader {
  const magic = new TextEncoder().encode(`${FLITEVOX_MAGIC}\0`);
  if (bytes.length < magic.length || !magic.every((byte, i) => byte === bytes[i])) refuseForeign(bytes, path);
  const cursor = new FlitevoxCursor(bytes, path);
  cursor.take(magic.length, 'the magic');
  const orderAt = cursor.take(4, 'the byte order mark');
  const order = new DataView(bytes.buffer, bytes.byteOffset + orderAt, 4);
  if (order.getInt32(0, true) !== 1) {
    if (order.getInt32(0, false) !== 1) throw new FliteVoiceError(path, `is corrupt: byte order mark ${order.getInt32(0, true)} is neither 1 nor byte-swapped 1`);
    cursor.littleEndian = false;
  }
  const features: Record<string, string> = {};
  for (let i = 0; ; i++) {
    if (i >= MAX_FEATURES) throw new FliteVoiceError(path, `is corrupt: no end_of_features among its first ${MAX_FEATURES} features`);
    const name = cursor.string(`feature ${i} name`);
    const value = cursor.string(`feature '${name}' value`);
    if (name === 'end_of_features') break;
    features[name] = value;
  }
  const voiceName = cursor.string('the voice name');
  const types = cursor.count('the model type count');
  for (let i = 0; i < types; i++) cursor.padded(`model type ${i}`);
  cursor.take(4, 'the model type count (again)');
  const sampleRateHz = cursor.int32('the sample rate');
  if (sampleRateHz < 8000 || sampleRateHz > 48000) throw new FliteVoiceError(path, `is corrupt: sample rate ${sampleRateHz} Hz`);
  const f0MeanHz = cursor.float32('the F0 mean');
  const f0StddevHz = cursor.float32('the F0 deviation');
  const modelCount = (name: string, fallback: number): number => {
    const value = features[name] === undefined ? fallback : Number(features[name]);
    if (!Number.isInteger(value) || value < 0) throw new FliteVoiceError(path, `is corrupt: feature ${name} is '${features[name] ?? ''}'`);
    return value;
  };
  const body = walkFlitevoxBody(cursor, {
    f0Models: modelCount('num_f0_models', 1),
    paramModels: modelCount('num_param_models', 1),
    durModels: modelCount('num_dur_models', 1),
    modelShape: modelCount('model_shape', 1),
  });
  const fliteLanguage = features.language ?? '';
  const spokenLanguage = spoken(fliteLanguage, features.variant, voiceName);
  return {
    path,
    sizeBytes: bytes.length,
    byteOrder: cursor.littleEndian ? 'little-endian' : 'big-endian',
    features,
    fliteLanguage,
    spokenLanguage,
    language: spokenLanguage === 'eng' ? 'en-IN' : spokenLanguage === undefined ? undefined : INDIC_LANGUAGES[spokenLanguage],
    voiceName,
    sampleRateHz,
    f0MeanHz,
    f0StddevHz,
    spamF0: body.spamF0,
    trailingBytes: body.trailingBytes,
  };
}

/** Reads and checks a .flitevox file; throws FliteVoiceError naming the file when it cannot be read or is not one. */
export function readFlitevoxHeader(path: string): FlitevoxHeader {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FliteVoiceError(path, code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(error as Error).message}`);
  }
  return parseFlitevoxHeader(bytes, path);
}
