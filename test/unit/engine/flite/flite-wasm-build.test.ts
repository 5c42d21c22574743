// The committed Flite build is what BUILD.json says it is: each file's SHA-256 (the binary, its loader, the glue it
// was built from and Flite's licence notice), the source commit the build script pins, no built-in voice, and every
// glue function the script exports reaching the loader. An edit to raaga_flite.c without rebuilding fails here (by
// the check the server runs before it uses a Flite pack, engine/build-record-check.ts);
// `scripts/build-flite-wasm.sh --check` rebuilds and compares the bytes.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBuildRecord } from '../../../../src/engine/build-record-check.js';
import { FLITE_BUILD_FILES } from '../../../../src/engine/flite/flite-build.js';

const DIR = new URL('../../../../src/engine/flite/wasm/', import.meta.url);
const SCRIPT = readFileSync(new URL('../../../../scripts/build-flite-wasm.sh', import.meta.url), 'utf8');
const build = JSON.parse(readFileSync(new URL('BUILD.json', DIR), 'utf8')) as {
  source: string;
  licence: string;
  target: string;
  voices: string;
  languages: string;
  lexicons: string;
  sha256: Record<string, string>;
};

describe('the committed Flite build', () => {
  it('has the SHA-256 BUILD.json records for each of its files', async () => {
    expect(Object.keys(build.sha256).sort()).toEqual(['COPYING', 'flite.cjs', 'flite.wasm', 'raaga_flite.c']);
    expect(FLITE_BUILD_FILES.dir).toBe(fileURLToPath(DIR));
    expect(await checkBuildRecord(FLITE_BUILD_FILES)).toBeUndefined();
  });

  it('comes from the commit and languages the build script pins, with no built-in voice, under Flite\'s licence', () => {
    const commit = /^FLITE_COMMIT=([0-9a-f]{40})$/m.exec(SCRIPT)?.[1];
    expect(commit).toBe('6c9f20dc915b17f5619340069889db0aa007fcdc');
    expect(build.source).toBe(`flite ${commit} (2.3-current), https://github.com/festvox/flite`);
    expect(build).toMatchObject({ licence: "BSD-style (Flite's COPYING)", target: 'emscripten', voices: 'none', languages: 'usenglish cmu_indic_lang cmu_grapheme_lang', lexicons: 'cmulex cmu_indic_lex cmu_grapheme_lex' });
    expect(readFileSync(new URL('COPYING', DIR), 'utf8')).toMatch(/Carnegie Mellon University[\s\S]*Permission is hereby granted/);
  });

  it('exports every glue function through its loader', () => {
    const glue = readFileSync(new URL('raaga_flite.c', DIR), 'utf8');
    const kept = [...glue.matchAll(/EMSCRIPTEN_KEEPALIVE\s+[^(]*?\b(raaga_flite_\w+)\(/g)].map((match) => match[1]);
    const exported = JSON.parse(/^EXPORTS='(.*)'$/m.exec(SCRIPT)?.[1] ?? '[]') as string[];
    expect(exported.map((name) => name.slice(1)).sort()).toEqual([...kept].sort());
    const loader = readFileSync(new URL('flite.cjs', DIR), 'utf8');
    for (const name of exported) expect(loader).toContain(`Module["${name}"]`);
  });
});
