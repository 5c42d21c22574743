// `raaga voices install <catalog-id>`: brings the voice's files (and the parts its kind's packs share, Kokoro's model)
// into models/packs/, lays them out by the kind's own file patterns as `raaga voices add` does (pack-layout.ts), has
// the pack speak a sentence through the same trial, then records it for its preset voices in one atomic manifest
// write. Any failure leaves the installed packs and the manifest as they were (a broken download keeps its `.part`
// so the next try resumes).

import { mkdir, rename, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { EngineBuildDirs } from '../../engine/build-record-check.js';
import type { EngineModule, PackTrial } from '../../engine/engine-module.js';
import { PACK_ENGINES } from '../../engine/engines.js';
import type { LanguageCode } from '../../languages.js';
import { manifestPath } from '../preset-voice-names.js';
import type { ProgressSink } from '../progress.js';
import { readManifestFile, recordPacks, type PackRecord } from './manifest-file.js';
import { fetchCatalogFile, type FetchedCatalogFile } from './catalog-files.js';
import { packLayout } from './pack-layout.js';
import { requireMatchingBuild, trialPack } from './pack-trial.js';
import { entryLanguage, needsLicenceAcceptance, type CatalogEntry, type VoiceCatalogIndex } from './voice-catalog-entries.js';

/** The Kokoro model a voice is installed with unless --model names another: int8, a quarter of fp32's size. */
export const DEFAULT_KOKORO_MODEL = 'kokoro-82m-v1-0-onnx-q8';

export interface CatalogInstallRequest {
  readonly modelsDir: string;
  readonly catalog: VoiceCatalogIndex;
  readonly id: string;
  /** Preset voices to speak with it; default: the entry's presets for the language. */
  readonly voices?: readonly string[] | undefined;
  readonly language?: LanguageCode | undefined;
  /** A local mirror: a directory or an http(s) base URL holding the files by name. */
  readonly from?: string | undefined;
  /** Kokoro: the model variant's catalog id. */
  readonly model?: string | undefined;
  readonly acceptLicence?: boolean;
  readonly progress?: ProgressSink | undefined;
  /** Engine build directories checked in place of the engines' own (tests: a broken copy); default none. */
  readonly buildDirs?: EngineBuildDirs | undefined;
}

export interface CatalogInstallResult {
  readonly id: string;
  readonly engine: string;
  readonly language: LanguageCode;
  readonly voices: readonly string[];
  readonly files: readonly { readonly name: string; readonly path: string; readonly sha256: string; readonly sizeBytes: number; readonly reused: boolean; readonly source: string }[];
  readonly trial: PackTrial;
}

/** What a catalog entry installs: its engine kind and the entries whose files make the pack (shared parts first). */
interface PackPlan {
  readonly module: EngineModule;
  readonly entries: readonly CatalogEntry[];
}

/**
 * The catalog's default entry for a kind of shared part (an entry several packs need, chosen with --model): catalog
 * data, not engine code; a kind whose packs are one entry each needs none.
 */
const DEFAULT_SHARED_PARTS: Readonly<Record<string, string>> = { 'kokoro-model': DEFAULT_KOKORO_MODEL };

/**
 * The engine kind whose `catalogKinds` name the entry's kind: its first catalog kind is a pack's own entry, the others
 * are parts packs share (Kokoro's model), installed with each pack that needs them and chosen with --model.
 */
function planFor(catalog: VoiceCatalogIndex, entry: CatalogEntry, partId: string | undefined): PackPlan {
  const module = PACK_ENGINES.find((candidate) => candidate.catalogKinds.includes(entry.engine));
  if (module === undefined) throw new Error(`catalog entry ${entry.id} is a ${entry.engine} entry, which no engine of this Raaga installs`);
  const [own, ...sharedKinds] = module.catalogKinds;
  if (entry.engine !== own) {
    throw new Error(`${entry.id} is a ${entry.engine} entry that ${module.kind} packs share: install a ${module.kind} voice (raaga voices catalog --engine ${module.kind}) and choose this one with --model ${entry.id}`);
  }
  const shared = sharedKinds.map((kind) => {
    const id = partId ?? DEFAULT_SHARED_PARTS[kind];
    const part = id === undefined ? undefined : catalog.entry(id);
    if (id === undefined || part === undefined || part.engine !== kind) {
      throw new Error(`--model ${id ?? '(none)'}: ${part ? `not a ${kind} entry` : catalog.unknownEntryMessage(id ?? '')}`);
    }
    return part;
  });
  return { module, entries: [...shared, entry] };
}

export async function installCatalogVoice(request: CatalogInstallRequest): Promise<CatalogInstallResult> {
  const { catalog } = request;
  const entry = catalog.entry(request.id);
  if (entry === undefined) throw new Error(catalog.unknownEntryMessage(request.id));
  const plan = planFor(catalog, entry, request.model);
  for (const needed of plan.entries) {
    if (needsLicenceAcceptance(needed) && request.acceptLicence !== true) {
      throw new Error(
        `${needed.id} is licensed under ${needed.licence.name} (${needed.licence.url}), which ${needed.licence.commercial_use === false ? 'does not allow' : 'may not allow'} commercial use; read it, then install again with --accept-licence`,
      );
    }
  }
  const language = entryLanguage(entry, request.language);
  const manifest = await readManifestFile(manifestPath(request.modelsDir));
  const voices = request.voices ?? entry.presets[language];
  if (voices === undefined || voices.length === 0) throw new Error(`${entry.id} has no default preset voices for ${language}; name them with --voice`);
  for (const voice of voices) {
    if (!manifest.catalog.hasPair(voice, language)) throw new Error(`preset voice '${voice}' does not speak ${language} in ${manifest.path}`);
  }
  const { module } = plan;
  await requireMatchingBuild(module, request.buildDirs);

  const packsDir = join(request.modelsDir, 'packs');
  const installedPath = (owner: CatalogEntry, name: string): string => join(packsDir, owner.id, name);
  // Stable per entry, so a broken download's .part is found again by the next try.
  const stagingOf = (owner: CatalogEntry): string => join(packsDir, '.downloads', owner.id);
  const fetched = new Map<string, FetchedCatalogFile>();
  for (const owner of plan.entries) {
    await mkdir(stagingOf(owner), { recursive: true });
    for (const file of owner.files) {
      fetched.set(`${owner.id}/${file.name}`, await fetchCatalogFile(owner, file, { installedPath: installedPath(owner, file.name), stagingDir: stagingOf(owner), from: request.from, progress: request.progress }));
    }
  }
  const placeNow = (owner: CatalogEntry, name: string): string => fetched.get(`${owner.id}/${name}`)?.path ?? installedPath(owner, name);
  // Which file is which by the kind's own patterns, as `raaga voices add` finds them; the kind's fields from its files.
  const layout = packLayout(
    plan.entries.flatMap((owner) => owner.files.map((file) => ({ name: file.name, owner }))),
    [module],
    { source: `catalog entry ${entry.id}` },
  );
  const main = layout.parts.find((part) => part.pattern.field === 'path');
  if (main === undefined) throw new Error(`the ${module.kind} engine declares no main file`);
  const fileOptions = (place: (owner: CatalogEntry, name: string) => string): Record<string, string> =>
    Object.fromEntries(layout.parts.filter((part) => part !== main).map((part) => [part.pattern.field, place(part.file.owner, part.file.name)]));
  const mainNow = placeNow(main.file.owner, main.file.name);
  const fields = module.installFields({ path: mainNow, ...fileOptions(placeNow) }, {});
  const mainSha256 = [...fetched.values()].find((file) => file.path === mainNow)?.sha256;
  const trial = await trialPack(module, { voiceName: voices[0] as string, language, path: mainNow, sha256: mainSha256, options: { ...fields.options, ...fileOptions(placeNow) } }, request.modelsDir, entry.id);

  // The pack speaks: move new files into place, then record it for every preset at once.
  for (const owner of plan.entries) {
    await mkdir(join(packsDir, owner.id), { recursive: true });
    for (const file of owner.files) {
      const got = fetched.get(`${owner.id}/${file.name}`);
      if (got && !got.reused) await rename(got.path, installedPath(owner, file.name));
    }
    await rm(stagingOf(owner), { recursive: true, force: true });
  }
  const relativeOf = (path: string): string => relative(request.modelsDir, path);
  const installedRelative = (owner: CatalogEntry, name: string): string => relativeOf(installedPath(owner, name));
  const record: PackRecord = {
    engine: module.kind,
    path: installedRelative(main.file.owner, main.file.name),
    sha256: mainSha256,
    options: { ...fields.options, ...fileOptions(installedRelative) },
  };
  await recordPacks(manifest, voices.map((voiceName) => ({ voiceName, language, pack: record })));
  return {
    id: entry.id,
    engine: module.kind,
    language,
    voices,
    files: [...fetched.entries()].map(([key, file]) => ({ name: file.file.name, path: relativeOf(installedPath(catalog.entry(key.split('/')[0] as string) as CatalogEntry, file.file.name)), sha256: file.sha256, sizeBytes: file.sizeBytes, reused: file.reused, source: file.source })),
    trial,
  };
}
