// The committed eSpeak NG build (src/engine/espeak/wasm/) is what its BUILD.json says: every file and nothing else,
// byte for byte by SHA-256, the glue it was linked from, the commit the build script pins, and a dictionary for
// every language the engine speaks. A binary replaced by hand, a data file added or lost, or a glue edit without a
// rebuild (scripts/build-espeak-ng-wasm.sh) fails here. The hashes are held by the check the server runs at start
// (engine/build-record-check.ts); this test adds that nothing else is there.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBuildRecord } from '../../../src/engine/build-record-check.js';
import { ESPEAK_BUILD, ESPEAK_BUILD_FILES, ESPEAK_BUILD_IDENTITY } from '../../../src/engine/espeak/espeak-build.js';
import { DEFAULT_ESPEAK_LANGUAGE_IDS } from '../../../src/engine/espeak/espeak-languages.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const wasmDir = join(root, 'src/engine/espeak/wasm');
/** The record and the glue's source live beside the output; the record names the glue by its own hash. */
const NOT_OUTPUT = new Set(['BUILD.json', 'raaga_espeak.c']);

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));

interface BuildJson {
  readonly source: { readonly tag: string; readonly commit: string; readonly url: string };
  readonly licence: string;
  readonly glue: { readonly file: string; readonly sha256: string };
  readonly toolchain: Readonly<Record<string, string>>;
  readonly languages: readonly string[];
  readonly sha256: Readonly<Record<string, string>>;
}
const build = JSON.parse(readFileSync(join(wasmDir, 'BUILD.json'), 'utf8')) as BuildJson;

describe('the committed eSpeak NG build', () => {
  it('has exactly the files BUILD.json lists, each with its SHA-256', async () => {
    const files = walk(wasmDir)
      .map((path) => relative(wasmDir, path))
      .filter((file) => !NOT_OUTPUT.has(file))
      .sort();
    expect(files).toEqual(Object.keys(build.sha256).sort());
    expect(ESPEAK_BUILD_FILES.dir.replace(/\/$/, '')).toBe(wasmDir);
    expect(await checkBuildRecord(ESPEAK_BUILD_FILES)).toBeUndefined();
    expect(files).toContain('espeak-ng.wasm');
    expect(files).toContain('espeak-ng.cjs');
    expect(files.filter((file) => file.startsWith('espeak-ng-data/')).length).toBeGreaterThan(300);
  });

  it('was linked from the glue in the tree', () => {
    expect(build.glue.file).toBe('raaga_espeak.c');
    expect(sha256(join(wasmDir, build.glue.file))).toBe(build.glue.sha256);
  });

  it('comes from the commit the build script pins, under eSpeak NG’s licence, with its toolchain recorded', () => {
    const script = readFileSync(join(root, 'scripts/build-espeak-ng-wasm.sh'), 'utf8');
    expect(script).toContain(`ESPEAK_COMMIT=${build.source.commit}`);
    expect(script).toContain(`ESPEAK_TAG=${build.source.tag}`);
    expect(build.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(build.licence).toBe('GPL-3.0-or-later');
    expect(build.toolchain.emscripten).toMatch(/^\d+\.\d+\.\d+/);
    expect(build.toolchain['clang-14']).toBeDefined();
  });

  it('carries a dictionary for every language the engine speaks, and only those languages', () => {
    const dictionaries = Object.keys(build.sha256).filter((file) => /^espeak-ng-data\/[^/]+_dict$/.test(file));
    expect(dictionaries.map((file) => file.slice('espeak-ng-data/'.length, -'_dict'.length)).sort()).toEqual([...build.languages].sort());
    for (const language of Object.values(DEFAULT_ESPEAK_LANGUAGE_IDS)) expect(build.languages).toContain(language);
  });

  it('keys cached audio on its source and its wasm', () => {
    expect(ESPEAK_BUILD.source.commit).toBe(build.source.commit);
    expect(ESPEAK_BUILD_IDENTITY).toContain(build.source.tag);
    expect(ESPEAK_BUILD_IDENTITY).toContain(build.source.commit.slice(0, 12));
    expect(ESPEAK_BUILD_IDENTITY).toContain(build.sha256['espeak-ng.wasm']!.slice(0, 16));
  });
});
