// The one home of the eSpeak NG build (@echogarden/espeak-ng-emscripten, GPL-3.0): its version, and loading it with
// one of its helpers made fast.
//
// The build is C compiled to plain JavaScript (wasm2js), so C's 64-bit arithmetic runs as emulation routines. eSpeak's
// random numbers (espeak_rand, which drives the breath noise of every sample of a voice with `breath`) take a 64-bit
// remainder by 2^31 - 1, and the emulated unsigned 64-bit division behind it walks the dividend bit by bit: 27 % of
// the engine thread's profile; without it a voice with breath costs 0.6 of the CPU per audio second
// (bench/espeak-build.ts, docs/performance.md). The loader rewrites that one call site into the
// same remainder computed exactly in doubles, and runs the rewritten text instead of the package's file. Nothing
// else changes: with the clock fixed, both builds give the same samples, byte for byte
// (test/integration/engine/espeak-build.test.ts). If a new version of the package no longer has the call site in
// the expected form, the package's own file loads unchanged (`espeakRemainderFastPath` says which).

import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { pathToFileURL } from 'node:url';
import { runInThisContext } from 'node:vm';
import type { ESpeakNGModule } from '@echogarden/espeak-ng-emscripten';

const require = nodeModule.createRequire(import.meta.url);
const PACKAGE = '@echogarden/espeak-ng-emscripten';

/** The eSpeak NG build that speaks: a new package version may sound different, so cached audio keys on it. */
export const ESPEAK_PACKAGE_VERSION = (require(`${PACKAGE}/package.json`) as { version: string }).version;

type Init = (moduleArg?: object) => Promise<ESpeakNGModule>;

/**
 * The remainder helper as wasm2js emits it: `function F(a,b){D(a,b,2147483647);H=R;return L}`, where D is the unsigned
 * 64-bit divide-with-remainder routine (dividend low/high words a and b, 32-bit divisor), which leaves the remainder's
 * low and high words in the globals L and R; the helper returns the low word and hands the high word back in H.
 */
const REMAINDER_BY_2P31M1 = /function ([\w$]+)\(([\w$]+),([\w$]+)\)\{([\w$]+)\(\2,\3,2147483647\);([\w$]+)=([\w$]+);return ([\w$]+)\}/g;

/**
 * The same helper without the division: 2^31 ≡ 1 (mod 2^31 - 1), so 2^32 ≡ 2 and high·2^32 + low ≡ 2·high + low,
 * which is below 2^34 and exact in a double. The remainder is below 2^31: its high word is 0.
 */
export function fastRemainderHelper(name: string, low: string, high: string, returnedHigh: string, remainderLow: string, remainderHigh: string): string {
  return (
    `function ${name}(${low},${high}){var r=((${high}>>>0)*2+(${low}>>>0))%2147483647;` +
    `${remainderLow}=r;${remainderHigh}=0;${returnedHigh}=0;return r}`
  );
}

/** The build's source with the remainder helper replaced, or undefined unless it occurs exactly once. */
export function rewriteRandomRemainder(source: string): string | undefined {
  const sites = [...source.matchAll(REMAINDER_BY_2P31M1)];
  if (sites.length !== 1) return undefined;
  const site = sites[0]!;
  const [text, name, low, high, , returnedHigh, remainderHigh, remainderLow] = site as unknown as readonly string[];
  const helper = fastRemainderHelper(name!, low!, high!, returnedHigh!, remainderLow!, remainderHigh!);
  return source.slice(0, site.index) + helper + source.slice(site.index + text!.length);
}

interface LoadedBuild {
  readonly init: Init;
  readonly remainderFastPath: boolean;
}

/**
 * The build's ES module text as a function of its two outside references, run as a script named after the package's
 * file: stack traces and CPU profiles show that file, and the build still finds its data file next to it. Undefined
 * unless each of the module's own constructs occurs as expected.
 */
export function moduleAsFunction(source: string): string | undefined {
  const once = (text: string, part: string) => text.split(part).length === 2;
  const dynamicImport = 'await import("module")';
  const defaultExport = 'export default Module;';
  if (!once(source, dynamicImport) || !once(source, defaultExport)) return undefined;
  const body = source.replace(dynamicImport, '__nodeModule').replace(defaultExport, 'return Module;').replaceAll('import.meta.url', '__importMetaUrl');
  // Modules are strict code; so is this.
  return `(function (__importMetaUrl, __nodeModule) {'use strict';${body}\n})`;
}

let loaded: Promise<LoadedBuild> | undefined;

/** The build, loaded once per thread. */
function build(): Promise<LoadedBuild> {
  return (loaded ??= loadBuild());
}

async function loadBuild(): Promise<LoadedBuild> {
  const file = require.resolve(PACKAGE);
  const rewritten = rewriteRandomRemainder(readFileSync(file, 'utf8'));
  const script = rewritten === undefined ? undefined : moduleAsFunction(rewritten);
  if (script === undefined) {
    return { init: ((await import(PACKAGE)) as { default: Init }).default, remainderFastPath: false };
  }
  const factory = runInThisContext(script, { filename: file }) as (importMetaUrl: string, node: typeof nodeModule) => Init;
  return { init: factory(pathToFileURL(file).href, nodeModule), remainderFastPath: true };
}

/** A new eSpeak NG instance (its own heap and global state) of the build, rewritten when the rewrite applies. */
export async function createEspeakModule(): Promise<ESpeakNGModule> {
  const { init } = await build();
  return init();
}

/** Whether the loaded build runs the fast remainder (false: the package's own text, unchanged). */
export async function espeakRemainderFastPath(): Promise<boolean> {
  return (await build()).remainderFastPath;
}
