// `raaga voices add` for every engine kind: the files given (a file, a directory, URLs) make a pack of the kind whose
// file patterns they match (pack-layout.ts); they are staged under models/packs/ (a kind's small companions first, so
// a bad sidecar is refused before a large model moves), the kind reads its own fields from them (Piper's speaker),
// the pack speaks a sentence through the kind's own trial, and only then is it moved to models/packs/<name>/ and
// recorded in the manifest. Nothing is left behind on failure.

import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineBuildDirs } from '../../engine/build-record-check.js';
import type { EngineModule, PackInstallFields, PackInstallFlags, PackTrial } from '../../engine/engine-module.js';
import { PACK_ENGINES } from '../../engine/engines.js';
import type { LanguageCode } from '../../languages.js';
import { manifestPath } from '../preset-voice-names.js';
import type { ProgressSink } from '../progress.js';
import { downloadRefusal } from './download.js';
import { readManifestFile, recordPack } from './manifest-file.js';
import { packLayout, type PackLayout } from './pack-layout.js';
import { requireMatchingBuild, trialPack } from './pack-trial.js';
import { besideUrl, companionUrl, fetchSourceFile, gatherSources, LICENCE_FILE, sha256OfFile, type FetchedFile, type SourceFile } from './pack-sources.js';

/** The largest main file `voices add` takes when the kind declares more (--max-size lowers or raises it). */
export const DEFAULT_MAX_MODEL_BYTES = 1024 ** 3;
/** Sidecars, model cards and licences are a few KB. */
const MAX_SMALL_FILE_BYTES = 4 * 1024 ** 2;

export interface InstallRequest {
  readonly modelsDir: string;
  /** Files, directories or http(s) URLs holding the pack's files. */
  readonly sources: readonly string[];
  readonly voiceName: string;
  readonly language: LanguageCode;
  /** The kind, when the files could make a pack of several. */
  readonly engine?: string | undefined;
  /** What the kind reads of the installer's flags (Piper's speaker id or name). */
  readonly flags?: PackInstallFlags;
  /** Expected SHA-256 of the pack's main file (lowercase hex); required for a plain-http source. */
  readonly expectedSha256?: string | undefined;
  /** The largest main file accepted; default the kind's own bound. */
  readonly maxBytes?: number | undefined;
  /** Directory name under models/packs/; defaults to the source's directory or main file name. */
  readonly name?: string | undefined;
  readonly progress?: ProgressSink | undefined;
  /** Engine build directories checked in place of the engines' own (tests: a broken copy); default none. */
  readonly buildDirs?: EngineBuildDirs | undefined;
}

export interface InstallResult {
  readonly name: string;
  readonly engine: string;
  /** The manifest's `path`: relative to the models directory. */
  readonly path: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  /** True when models/packs/<name>/ already held these exact files and was reused. */
  readonly reused: boolean;
  readonly trial: PackTrial;
  /** What the kind says of the pack (`22050 Hz, eSpeak 'hi' phonemes, 4 speakers; speaker 2`). */
  readonly summary: string | undefined;
  /** The same as data (Piper: sampleRateHz, phonemeType, espeakVoice, numSpeakers, speakerId). */
  readonly details: Readonly<Record<string, unknown>>;
}

/** The error with each staged file named as the operator gave it (a sidecar's URL, not its place in staging). */
function asGiven(error: unknown, staged: ReadonlyMap<string, string>): Error {
  let message = error instanceof Error ? error.message : String(error);
  for (const [path, from] of staged) message = message.replaceAll(path, from);
  return new Error(message);
}

export function packDirName(raw: string): string {
  const name = raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  if (name === '') throw new Error(`'${raw}' gives no usable pack name; pass --name`);
  return name;
}

/** A URL of a companion (Piper's `x.onnx.json`) stands for its main file. */
function mainOfCompanion(file: SourceFile, modules: readonly EngineModule[]): SourceFile {
  for (const pattern of modules.flatMap((module) => module.packFiles)) {
    for (const suffix of pattern.companions ?? []) {
      const ending = `${pattern.suffix}${suffix}`;
      if (file.name.endsWith(ending)) {
        const url = new URL(file.from);
        url.pathname = url.pathname.slice(0, -suffix.length);
        return { name: file.name.slice(0, -suffix.length), from: url.href, remote: true };
      }
    }
  }
  return file;
}

/** Each file of the pack with its installed name: its part's `installAs`, companions after it. */
interface StagedFile {
  readonly source: SourceFile;
  readonly installedName: string;
  readonly field: string | undefined;
  readonly maxBytes: number;
  readonly optional: boolean;
}

function stagedFiles(layout: PackLayout<SourceFile>, extras: readonly SourceFile[], request: InstallRequest): { companions: StagedFile[]; large: StagedFile[]; optional: StagedFile[] } {
  const companions: StagedFile[] = [];
  const large: StagedFile[] = [];
  for (const part of layout.parts) {
    const installedName = part.pattern.installAs ?? part.file.name;
    const maxBytes = part.pattern.field === 'path' && request.maxBytes !== undefined ? request.maxBytes : part.pattern.maxBytes;
    large.push({ source: part.file, installedName, field: part.pattern.field, maxBytes, optional: false });
    for (const companion of part.companions) {
      const source = companion.file ?? { name: `${part.file.name}${companion.suffix}`, from: companionUrl(part.file, companion.suffix), remote: true };
      companions.push({ source, installedName: `${installedName}${companion.suffix}`, field: undefined, maxBytes: MAX_SMALL_FILE_BYTES, optional: false });
    }
  }
  const optional = extras.map((extra) => ({ source: extra, installedName: extra.name, field: undefined, maxBytes: MAX_SMALL_FILE_BYTES, optional: true }));
  return { companions, large, optional };
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
  const gathered = await gatherSources(request.sources);
  const remote = gathered.files.some((file) => file.remote);
  const given = gathered.files.map((file) => (file.remote ? mainOfCompanion(file, PACK_ENGINES) : file));
  // A URL's companions are fetched from beside it; a directory's must be in it.
  const layout = packLayout(given, PACK_ENGINES, { engine: request.engine, companionsNeeded: !remote, source: gathered.label });
  const main = layout.parts.find((part) => part.pattern.field === 'path');
  if (main === undefined) throw new Error(`the ${layout.module.kind} engine declares no main file`);
  await requireMatchingBuild(layout.module, request.buildDirs);
  const checksum = request.expectedSha256 === undefined ? undefined : { algorithm: 'sha256' as const, hex: request.expectedSha256 };
  // Plain http only with the main file's checksum (which then vouches for the rest of the pack over the same host).
  for (const part of layout.parts) {
    const refusal = part.file.remote ? downloadRefusal(part.file.from, checksum) : undefined;
    if (refusal !== undefined) throw new Error(refusal);
  }
  const extras = remote ? [{ name: 'MODEL_CARD', from: besideUrl(main.file, 'MODEL_CARD'), remote: true }] : given.filter((file) => LICENCE_FILE.test(file.name));
  const { companions, large, optional } = stagedFiles(layout, extras, request);

  const mainStem = main.file.name.slice(0, -main.pattern.suffix.length);
  const name = packDirName(request.name ?? (mainStem === 'model' && gathered.directoryName !== undefined ? gathered.directoryName : mainStem));
  const packsDir = join(request.modelsDir, 'packs');
  const staging = join(packsDir, `.staging-${name}-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    // With the main file's checksum given, the pack's small files may come over the same plain-http host.
    const plainHttpAllowed = request.expectedSha256 !== undefined;
    const fetched = new Map<string, FetchedFile>();
    // Refusals name each file as the operator gave it, not its place in staging.
    const givenAs = new Map([...companions, ...large, ...optional].map((file) => [join(staging, file.installedName), file.source.from]));
    const fetchSmall = async (file: StagedFile): Promise<void> => {
      const got = await fetchSourceFile(file.source, join(staging, file.installedName), { maxBytes: file.maxBytes, plainHttpAllowed, optional: file.optional, label: file.installedName });
      if (got !== undefined) fetched.set(file.installedName, got);
    };
    for (const file of companions) await fetchSmall(file);
    const stagedPathOf = Object.fromEntries(large.map((file) => [file.field as string, join(staging, file.installedName)]));
    // The kind's own fields, from its companions, before the large files move (a bad sidecar costs no download).
    let fields: PackInstallFields;
    try {
      fields = layout.module.installFields(stagedPathOf, request.flags ?? {});
    } catch (error) {
      throw asGiven(error, givenAs);
    }
    for (const file of large) {
      const isMain = file.field === 'path';
      const got = await fetchSourceFile(file.source, join(staging, file.installedName), {
        maxBytes: file.maxBytes,
        sha256: isMain ? request.expectedSha256 : undefined,
        plainHttpAllowed: !isMain && plainHttpAllowed,
        label: file.installedName,
        progress: request.progress,
      });
      if (got === undefined) throw new Error(`${file.source.from} is missing`);
      fetched.set(file.installedName, got);
    }
    for (const file of optional) await fetchSmall(file);
    const mainFile = fetched.get(main.pattern.installAs ?? main.file.name);
    if (mainFile === undefined) throw new Error(`${main.file.from} was not fetched`);
    const fileFields = (place: (installedName: string) => string): Record<string, string> =>
      Object.fromEntries(large.filter((file) => file.field !== 'path').map((file) => [file.field as string, place(file.installedName)]));
    const trial = await trialPack(
      layout.module,
      { voiceName: request.voiceName, language: request.language, path: mainFile.path, sha256: mainFile.sha256, options: { ...fields.options, ...fileFields((installed) => join(staging, installed)) } },
      request.modelsDir,
      gathered.label,
    ).catch((error: unknown) => {
      throw asGiven(error, givenAs);
    });

    const target = join(packsDir, name);
    let reused = false;
    if (await stat(target).then(() => true, () => false)) {
      // The main file first: "a different model.onnx" says more than "a different model card".
      const mainName = main.pattern.installAs ?? main.file.name;
      for (const [installed, got] of [...fetched].sort(([a], [b]) => Number(b === mainName) - Number(a === mainName))) {
        const there = await sha256OfFile(join(target, installed)).catch(() => '');
        if (there !== got.sha256) throw new Error(`models/packs/${name}/ already holds a different ${installed}; choose another --name`);
      }
      reused = true;
    } else {
      await rename(staging, target);
    }
    const relativeOf = (installed: string): string => `packs/${name}/${installed}`;
    const path = relativeOf(main.pattern.installAs ?? main.file.name);
    await recordPack(manifest, request.voiceName, request.language, { engine: layout.module.kind, path, options: { ...fields.options, ...fileFields(relativeOf) }, sha256: mainFile.sha256 });
    return { name, engine: layout.module.kind, path, sha256: mainFile.sha256, sizeBytes: mainFile.sizeBytes, reused, trial, summary: fields.summary, details: fields.details ?? {} };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
