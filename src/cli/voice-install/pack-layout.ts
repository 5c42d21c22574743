// Which engine kind a set of files makes a pack of, and which file is which: each kind declares its pack's files by how
// their names end (EngineModule.packFiles: Piper's `.onnx` with its `.onnx.json`, Kokoro's `.onnx` and `.bin`, Flite's
// `.flitevox`), so `raaga voices add` and the catalog installer find a new kind's packs with no change here.

import type { EngineModule, PackFilePattern } from '../../engine/engine-module.js';

/** A file an installer was given, by name (a local file, a URL, a catalog entry's file). */
export interface NamedFile {
  readonly name: string;
}

export interface PackPart<TFile extends NamedFile> {
  readonly pattern: PackFilePattern;
  readonly file: TFile;
  /** The files that go beside it (Piper's sidecar), in the pattern's order; absent ones are named, for remote sources. */
  readonly companions: readonly { readonly suffix: string; readonly file: TFile | undefined }[];
}

export interface PackLayout<TFile extends NamedFile> {
  readonly module: EngineModule;
  readonly parts: readonly PackPart<TFile>[];
}

/** The files `module`'s pack is made of among `files`, or why they are not one (as a phrase: "no .bin file"). */
function layoutFor<TFile extends NamedFile>(module: EngineModule, files: readonly TFile[], companionsNeeded: boolean): PackLayout<TFile> | string {
  const parts: PackPart<TFile>[] = [];
  const companionNames = new Set(module.packFiles.flatMap((pattern) => files.flatMap((file) => (file.name.endsWith(pattern.suffix) ? (pattern.companions ?? []).map((suffix) => `${file.name}${suffix}`) : []))));
  for (const pattern of module.packFiles) {
    const candidates = files.filter((file) => file.name.endsWith(pattern.suffix) && !companionNames.has(file.name));
    if (candidates.length === 0) return `no ${pattern.suffix} file`;
    if (candidates.length > 1) return `several ${pattern.suffix} files (${candidates.map((file) => file.name).join(', ')}): keep one per pack`;
    const file = candidates[0] as TFile;
    const companions = (pattern.companions ?? []).map((suffix) => ({ suffix, file: files.find((other) => other.name === `${file.name}${suffix}`) }));
    const missing = companions.find((companion) => companion.file === undefined);
    if (companionsNeeded && missing !== undefined) return `${file.name} but no ${file.name}${missing.suffix} beside it`;
    parts.push({ pattern, file, companions });
  }
  return { module, parts };
}

/** What each kind's pack is made of, for a refusal that tells the operator what to give. */
export function packShapes(modules: readonly EngineModule[]): string {
  return modules.map((module) => `${module.kind}: ${module.packFiles.map((pattern) => pattern.label).join(' and ')}`).join('; ');
}

/**
 * The one kind whose pack `files` make (`engine` names it when several could), with each of its files. Companions must
 * be among the files unless `companionsNeeded` is false (a URL's companions are fetched from beside it). Throws a
 * message saying what was found and what each kind needs.
 */
export function packLayout<TFile extends NamedFile>(
  files: readonly TFile[],
  modules: readonly EngineModule[],
  options: { readonly engine?: string | undefined; readonly companionsNeeded?: boolean; readonly source: string },
): PackLayout<TFile> {
  const asked = options.engine === undefined ? modules : modules.filter((module) => module.kind === options.engine);
  if (asked.length === 0) throw new Error(`--engine ${options.engine} is not a kind of pack this Raaga has (${modules.map((module) => module.kind).join(', ')})`);
  const tries = asked.map((module) => ({ module, layout: layoutFor(module, files, options.companionsNeeded ?? true) }));
  const found = tries.flatMap((attempt) => (typeof attempt.layout === 'string' ? [] : [attempt.layout]));
  if (found.length === 1) return found[0] as PackLayout<TFile>;
  if (found.length > 1) throw new Error(`${options.source} makes a pack of ${found.map((layout) => layout.module.kind).join(' or ')}: choose one with --engine`);
  const names = files.map((file) => file.name).join(', ') || 'no files';
  const why = tries.map((attempt) => `${attempt.module.kind}: ${attempt.layout as string}`).join('; ');
  throw new Error(`${options.source} (${names}) is no voice pack (${why}). A pack is, by kind, ${packShapes(asked)}`);
}
