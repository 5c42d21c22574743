// The one home of the embedded engine's eSpeak NG build: eSpeak NG compiled to WebAssembly by the project's own
// script (scripts/build-espeak-ng-wasm.sh, GPL-3.0-or-later) into wasm/, with where it came from in wasm/BUILD.json.
// Loads new instances of it: the module compiled once per thread, its data copied into each instance's MEMFS.

import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineBuild } from '../build-record-check.js';
import { EspeakGlue, EspeakMessages, type EmscriptenEspeak } from './espeak-glue.js';

const WASM_DIR = fileURLToPath(new URL('./wasm/', import.meta.url));
/** The build's files and their BUILD.json, held to it before the server starts (build-voice-engine.ts). */
export const ESPEAK_BUILD_FILES: EngineBuild = { dir: WASM_DIR, rebuild: 'scripts/build-espeak-ng-wasm.sh' };
const DATA_DIR = join(WASM_DIR, 'espeak-ng-data');
/** Where the instance reads its data: the path the variant files are written under (espeak-variant.ts). */
export const ESPEAK_DATA_PATH = '/usr/share/espeak-ng-data';
/** espeak_Initialize's buffer (ms of audio per internal piece); the npm build this replaced used 100. */
const BUFFER_MS = 100;

interface BuildRecord {
  readonly source: { readonly name: string; readonly tag: string; readonly commit: string; readonly url: string };
  readonly languages: readonly string[];
  readonly sha256: Readonly<Record<string, string>>;
}

/** wasm/BUILD.json as the build script wrote it. */
export const ESPEAK_BUILD: BuildRecord = JSON.parse(readFileSync(join(WASM_DIR, 'BUILD.json'), 'utf8')) as BuildRecord;

/**
 * The build that speaks, for cache keys: its upstream source and the hash of its code. A rebuild that changes a
 * sample changes the wasm (the glue and the library are all in it); the data is the source tag's.
 */
export const ESPEAK_BUILD_IDENTITY = `${ESPEAK_BUILD.source.name}-${ESPEAK_BUILD.source.tag}-${ESPEAK_BUILD.source.commit.slice(0, 12)}+wasm-${ESPEAK_BUILD.sha256['espeak-ng.wasm']?.slice(0, 16)}`;

/** The emscripten factory of wasm/espeak-ng.cjs (CommonJS: 3.1.6's ES-module output cannot run as a module). */
type Factory = (moduleArg: object) => Promise<EmscriptenEspeak>;

export interface EspeakModuleOptions {
  /** Dictionaries to copy (eSpeak language ids such as `hi`); default every one the build has. */
  readonly dictionaries?: readonly string[];
  /** espeak_Initialize options (espeakINITIALIZE_PHONEME_EVENTS = 1, _PHONEME_IPA = 2); default 0. */
  readonly options?: number;
}

let compiled: WebAssembly.Module | undefined;
let dataFiles: ReadonlyArray<{ readonly path: string; readonly bytes: Uint8Array }> | undefined;

/** The module, compiled once per thread (a few ms: V8 compiles lazily): each instance then only instantiates it. */
function compiledModule(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(readFileSync(join(WASM_DIR, 'espeak-ng.wasm'))));
}

/** The build's data files (paths relative to espeak-ng-data/), read once per thread. */
function data(): ReadonlyArray<{ readonly path: string; readonly bytes: Uint8Array }> {
  if (dataFiles !== undefined) return dataFiles;
  const files: Array<{ path: string; bytes: Uint8Array }> = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push({ path: relative(DATA_DIR, path), bytes: readFileSync(path) });
    }
  };
  walk(DATA_DIR);
  return (dataFiles = files);
}

/**
 * Only the language voices (`lang/<family>/<id>`) of the languages whose dictionaries are copied: eSpeak lists every
 * voice file when it looks a voice up, and all 141 of the data's with the 198 variants and the engine's own pass its
 * limit of 349 (it then prints a warning at every lookup, and would leave voices out of the list).
 */
function isLanguageVoiceOf(path: string, languages: readonly string[]): boolean {
  const parts = path.split(/[\\/]/u);
  if (parts[0] !== 'lang' || parts.length < 2) return true;
  const id = (parts.at(-1) as string).toLowerCase();
  return languages.some((language) => id === language || id.startsWith(`${language}-`));
}

/**
 * A new eSpeak NG instance (its own heap and global state) with its data in place and espeak_Initialize done.
 * eSpeak keeps global C state: one instance per thread is the rule (espeak-instance.ts).
 */
export async function createEspeakModule(options: EspeakModuleOptions = {}): Promise<EspeakGlue> {
  const wasm = compiledModule();
  const factory = createRequire(import.meta.url)('./wasm/espeak-ng.cjs') as Factory;
  const messages = new EspeakMessages();
  const module = await new Promise<EmscriptenEspeak>((resolve, reject) => {
    factory({
      printErr: messages.print,
      // Handing over the compiled module skips emscripten's own loading, which under Node 20 tries fetch() on a file
      // path and fails ("Failed to parse URL"), and saves compiling per instance.
      instantiateWasm(imports: Record<string, Record<string, unknown>>, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
        const instance = new WebAssembly.Instance(wasm, imports);
        receive(instance, wasm);
        return instance.exports;
      },
    }).then(resolve, reject);
  });
  const languages = options.dictionaries ?? ESPEAK_BUILD.languages;
  const dictionaries = new Set(languages.map((language) => `${language}_dict`));
  for (const { path, bytes } of data()) {
    if (path.endsWith('_dict') && !path.includes('/') && !dictionaries.has(path)) continue;
    if (!isLanguageVoiceOf(path, languages)) continue;
    const target = `${ESPEAK_DATA_PATH}/${path.split('\\').join('/')}`;
    module.FS.mkdirTree(target.slice(0, target.lastIndexOf('/')));
    module.FS.writeFile(target, bytes);
  }
  return EspeakGlue.initialize(module, messages, ESPEAK_DATA_PATH, BUFFER_MS, options.options ?? 0);
}
