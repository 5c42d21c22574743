// Installs one Piper voice pack for a catalog voice + language: fetch into a staging directory, validate the sidecar
// (before the large download), verify the sha256, check the model's ONNX contract, move it into models/packs/<name>/
// and record it in the manifest. Nothing is left behind on failure.

import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PIPER_ENGINE_KIND } from '../../engine/piper/piper-engine.js';
import { parsePiperSidecar, resolveSpeakerId, type PiperSidecar } from '../../engine/piper/piper-sidecar.js';
import type { LanguageCode } from '../../languages.js';
import { manifestPath } from '../preset-voice-names.js';
import { readManifestFile, recordPack } from './manifest-file.js';
import { fetchPackFile, MODEL_FILE, resolvePackSource, sha256OfFile, SIDECAR_FILE } from './pack-source.js';
import { downloadRefusal } from './download.js';

/** The largest model `voices add` accepts unless told otherwise (--max-size): above the largest public voices. */
export const DEFAULT_MAX_MODEL_BYTES = 1024 ** 3;
/** Sidecars, model cards and licences are a few KB. */
const MAX_SMALL_FILE_BYTES = 4 * 1024 ** 2;
import type { ProgressSink } from '../progress.js';

export interface InstallRequest {
  readonly modelsDir: string;
  /** A pack directory or an http(s) URL of the `.onnx` (its sidecar is `<url>.json`) or of its directory. */
  readonly source: string;
  readonly voiceName: string;
  readonly language: LanguageCode;
  /** Speaker id, or a name from the sidecar's speaker_id_map; default 0. */
  readonly speaker?: string;
  /** Expected SHA-256 of the `.onnx` (lowercase hex); required for a plain-http source. */
  readonly expectedSha256?: string;
  /** The largest model accepted (default DEFAULT_MAX_MODEL_BYTES). */
  readonly maxModelBytes?: number;
  /** Directory name under models/packs/; defaults to the source's file or directory name. */
  readonly name?: string;
  readonly progress?: ProgressSink;
}

export interface InstallResult {
  readonly name: string;
  /** The manifest's `path`: relative to the models directory. */
  readonly path: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly speakerId: number;
  readonly sampleRateHz: number;
  readonly phonemeType: PiperSidecar['phoneme_type'];
  readonly espeakVoice: string | undefined;
  readonly numSpeakers: number;
  /** True when models/packs/<name>/ already held this exact model and was reused. */
  readonly reused: boolean;
}

export function packDirName(raw: string): string {
  const name = raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  if (name === '') throw new Error(`'${raw}' gives no usable pack name; pass --name`);
  return name;
}

export async function installPack(request: InstallRequest): Promise<InstallResult> {
  const manifest = await readManifestFile(manifestPath(request.modelsDir));
  if (!manifest.catalog.hasPair(request.voiceName, request.language)) {
    const voices = manifest.catalog.voices().map((voice) => voice.name);
    throw new Error(
      voices.includes(request.voiceName)
        ? `voice ${request.voiceName} does not speak ${request.language} in the catalog`
        : `voice '${request.voiceName}' is not in the catalog; known: ${voices.join(', ')}`,
    );
  }
  const source = await resolvePackSource(request.source);
  if (source.kind === 'url') {
    const refusal = downloadRefusal(source.model.from, request.expectedSha256 === undefined ? undefined : { algorithm: 'sha256', hex: request.expectedSha256 });
    if (refusal !== undefined) throw new Error(refusal);
  }
  // With the model's checksum given, the pack's small files may come over the same plain-http host.
  const small = { maxBytes: MAX_SMALL_FILE_BYTES, plainHttpAllowed: request.expectedSha256 !== undefined };
  const name = packDirName(request.name ?? source.suggestedName);
  const packsDir = join(request.modelsDir, 'packs');
  const staging = join(packsDir, `.staging-${name}-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    // The sidecar first: a wrong or unsupported voice is refused before tens of megabytes move.
    await fetchPackFile(source, source.sidecar, join(staging, SIDECAR_FILE), small);
    const sidecarText = await readFile(join(staging, SIDECAR_FILE), 'utf8');
    let sidecarJson: unknown;
    try {
      sidecarJson = JSON.parse(sidecarText);
    } catch (error) {
      throw new Error(`voice sidecar ${source.sidecar.from} is not valid JSON: ${(error as Error).message}`);
    }
    const sidecar = parsePiperSidecar(sidecarJson, source.sidecar.from);
    const speakerId = resolveSpeakerId(sidecar, request.speaker ?? 0);

    const model = await fetchPackFile(source, source.model, join(staging, MODEL_FILE), {
      maxBytes: request.maxModelBytes ?? DEFAULT_MAX_MODEL_BYTES,
      sha256: request.expectedSha256,
      progress: request.progress,
    });
    if (model === undefined) throw new Error(`${source.model.from} is missing`);
    for (const extra of source.extras) await fetchPackFile(source, extra, join(staging, extra.to), small);

    // Loaded here only (not at CLI start): the native runtime is heavy and only this command needs it.
    const { PiperSession } = await import('../../engine/piper/piper-session.js');
    const session = await PiperSession.create(join(staging, MODEL_FILE), sidecar, { intraOpNumThreads: 1 }).catch((error: unknown) => {
      throw new Error(`${source.model.from} does not load as a Piper voice: ${error instanceof Error ? error.message : String(error)}`);
    });
    await session.release();
    if (sidecar.phoneme_type === 'espeak' && sidecar.espeak !== undefined) {
      // The server would refuse the pack at start if this eSpeak NG build cannot phonemize for it; say so now.
      const { EspeakPhonemizer } = await import('../../engine/espeak/espeak-phonemizer.js');
      const phonemizer = await EspeakPhonemizer.create();
      try {
        phonemizer.phonemize('a', sidecar.espeak.voice);
      } catch (error) {
        throw new Error(`the sidecar's espeak.voice '${sidecar.espeak.voice}' cannot be used: ${error instanceof Error ? error.message : String(error)}`);
      }
    }

    const target = join(packsDir, name);
    let reused = false;
    if (await stat(target).then(() => true, () => false)) {
      const installed = await sha256OfFile(join(target, MODEL_FILE)).catch(() => '');
      if (installed !== model.sha256) throw new Error(`models/packs/${name}/ already holds a different model; choose another --name`);
      reused = true;
    } else {
      await rename(staging, target);
    }
    const path = `packs/${name}/${MODEL_FILE}`;
    await recordPack(manifest, request.voiceName, request.language, { engine: PIPER_ENGINE_KIND, path, options: { speaker: speakerId }, sha256: model.sha256 });
    return {
      name,
      path,
      sha256: model.sha256,
      sizeBytes: model.sizeBytes,
      speakerId,
      sampleRateHz: sidecar.audio.sample_rate,
      phonemeType: sidecar.phoneme_type,
      espeakVoice: sidecar.espeak?.voice,
      numSpeakers: sidecar.num_speakers,
      reused,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
