// `raaga voices install <catalog-id>`: brings the voice's files (and, for a Kokoro voice, the model it needs) into
// models/packs/, checks that the pack loads and speaks a sentence in its language with its own engine, then records
// it for its preset voices in one atomic manifest write. Any failure leaves the installed packs and the manifest as
// they were (a broken download keeps its `.part` so the next try resumes).

import { mkdir, rename, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { EngineModule, PackTrial, UnparsedPack } from '../../engine/engine-module.js';
import { packEngine } from '../../engine/engines.js';
import type { LanguageCode } from '../../languages.js';
import { manifestPath } from '../preset-voice-names.js';
import type { ProgressSink } from '../progress.js';
import { readManifestFile, recordPacks, type PackRecord } from '../voice-packs/manifest-file.js';
import { fetchCatalogFile, type FetchedCatalogFile } from './catalog-files.js';
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
}

export interface CatalogInstallResult {
  readonly id: string;
  readonly engine: string;
  readonly language: LanguageCode;
  readonly voices: readonly string[];
  readonly files: readonly { readonly name: string; readonly path: string; readonly sha256: string; readonly sizeBytes: number; readonly reused: boolean; readonly source: string }[];
  readonly trial: PackTrial;
}

/** What one catalog kind installs: the engine kind, the entries whose files it needs, and the pack built of them. */
interface PackPlan {
  readonly engine: string;
  readonly entries: readonly CatalogEntry[];
  /** The pack's main file and the engine's own fields, given where each entry's files are. */
  pack(placeOf: (entry: CatalogEntry, name: string) => string): { readonly path: string; readonly options: Record<string, unknown> };
}

/** The name of `owner`'s file ending in `suffix` (its model, voice or style file). */
function fileEnding(owner: CatalogEntry, suffix: string): string {
  const file = owner.files.find((candidate) => candidate.name.endsWith(suffix));
  if (file === undefined) throw new Error(`catalog entry ${owner.id} has no ${suffix} file`);
  return file.name;
}

function planFor(catalog: VoiceCatalogIndex, entry: CatalogEntry, modelId: string | undefined): PackPlan {
  const mainFile = (suffix: string): string => fileEnding(entry, suffix);
  switch (entry.engine) {
    case 'flite':
      return { engine: 'flite', entries: [entry], pack: (placeOf) => ({ path: placeOf(entry, mainFile('.flitevox')), options: {} }) };
    case 'piper':
      return { engine: 'piper', entries: [entry], pack: (placeOf) => ({ path: placeOf(entry, mainFile('.onnx')), options: { speaker: 0 } }) };
    case 'kokoro-voice': {
      const model = catalog.entry(modelId ?? DEFAULT_KOKORO_MODEL);
      if (model === undefined || model.engine !== 'kokoro-model') throw new Error(`--model ${modelId ?? DEFAULT_KOKORO_MODEL}: ${model ? 'not a Kokoro model variant' : catalog.unknownEntryMessage(modelId ?? DEFAULT_KOKORO_MODEL)}`);
      return {
        engine: 'kokoro',
        entries: [model, entry],
        pack: (placeOf) => ({ path: placeOf(model, fileEnding(model, '.onnx')), options: { style: placeOf(entry, mainFile('.bin')) } }),
      };
    }
    case 'kokoro-model':
      throw new Error(`${entry.id} is a Kokoro model: install a Kokoro voice (raaga voices catalog --engine kokoro) and choose this model with --model ${entry.id}`);
    default:
      throw new Error(`catalog entry ${entry.id} is a ${entry.engine} entry, which this installer has no plan for`);
  }
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
  const module = packEngine(plan.engine);
  if (module === undefined) throw new Error(`this Raaga has no ${plan.engine} engine`);

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
  const trialPack = plan.pack(placeNow);
  const mainSha256 = [...fetched.values()].find((file) => file.path === trialPack.path)?.sha256;
  const trial = await trialOf(module, { voiceName: voices[0] as string, language, path: trialPack.path, sha256: mainSha256, options: trialPack.options }, request.modelsDir, entry);

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
  const installed = plan.pack((owner, name) => relativeOf(installedPath(owner, name)));
  const record: PackRecord = { engine: plan.engine, path: installed.path, sha256: mainSha256, options: installed.options };
  await recordPacks(manifest, voices.map((voiceName) => ({ voiceName, language, pack: record })));
  return {
    id: entry.id,
    engine: plan.engine,
    language,
    voices,
    files: [...fetched.entries()].map(([key, file]) => ({ name: file.file.name, path: relativeOf(installedPath(catalog.entry(key.split('/')[0] as string) as CatalogEntry, file.file.name)), sha256: file.sha256, sizeBytes: file.sizeBytes, reused: file.reused, source: file.source })),
    trial,
  };
}

async function trialOf(module: EngineModule, pack: UnparsedPack, modelsDir: string, entry: CatalogEntry): Promise<PackTrial> {
  try {
    return await module.trial(pack, { modelsDir });
  } catch (error) {
    throw new Error(`${entry.id} does not load and speak as a ${module.kind} voice: ${error instanceof Error ? error.message : String(error)}; nothing was installed`);
  }
}
