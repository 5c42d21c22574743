// The npm build of eSpeak NG (@echogarden/espeak-ng-emscripten 0.3.5, wasm2js) as the embedded engine loaded it until
// the project's own WebAssembly build replaced it: the package's file with its one 64-bit remainder helper rewritten
// into the same remainder in doubles (that helper, emulated, was 27 % of the engine thread's profile), run as a
// script under the package file's name. bench/espeak-build.ts's baseline, so the new build is compared with what
// shipped, not with the slower unmodified package. Falls back to the package's own file if the rewrite no longer
// applies (`rewritten` says which).

import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { pathToFileURL } from 'node:url';
import { runInThisContext } from 'node:vm';
import type { ESpeakNGModule } from '@echogarden/espeak-ng-emscripten';

const PACKAGE = '@echogarden/espeak-ng-emscripten';
const require = nodeModule.createRequire(import.meta.url);

/** `function F(a,b){D(a,b,2147483647);H=R;return L}`: D divides (low, high) by 2^31 - 1, leaving the remainder in L, R. */
const REMAINDER_BY_2P31M1 = /function ([\w$]+)\(([\w$]+),([\w$]+)\)\{([\w$]+)\(\2,\3,2147483647\);([\w$]+)=([\w$]+);return ([\w$]+)\}/g;

/** 2^32 ≡ 2 (mod 2^31 - 1), so high·2^32 + low ≡ 2·high + low, below 2^34 and exact in a double. */
function rewriteRandomRemainder(source: string): string | undefined {
  const sites = [...source.matchAll(REMAINDER_BY_2P31M1)];
  if (sites.length !== 1) return undefined;
  const site = sites[0]!;
  const [text, name, low, high, , returnedHigh, remainderHigh, remainderLow] = site as unknown as readonly string[];
  const helper =
    `function ${name}(${low},${high}){var r=((${high}>>>0)*2+(${low}>>>0))%2147483647;` +
    `${remainderLow}=r;${remainderHigh}=0;${returnedHigh}=0;return r}`;
  return source.slice(0, site.index) + helper + source.slice(site.index + text!.length);
}

/** The ES module's text as a function of its two outside references (import.meta.url, the `module` import). */
function moduleAsFunction(source: string): string | undefined {
  const once = (text: string, part: string) => text.split(part).length === 2;
  const dynamicImport = 'await import("module")';
  const defaultExport = 'export default Module;';
  if (!once(source, dynamicImport) || !once(source, defaultExport)) return undefined;
  const body = source.replace(dynamicImport, '__nodeModule').replace(defaultExport, 'return Module;').replaceAll('import.meta.url', '__importMetaUrl');
  return `(function (__importMetaUrl, __nodeModule) {'use strict';${body}\n})`;
}

/** The build's factory as it shipped, and whether the rewrite applied. */
export async function loadShippedWasm2js(): Promise<{ readonly init: () => Promise<ESpeakNGModule>; readonly rewritten: boolean }> {
  const file = require.resolve(PACKAGE);
  const rewritten = rewriteRandomRemainder(readFileSync(file, 'utf8'));
  const script = rewritten === undefined ? undefined : moduleAsFunction(rewritten);
  if (script === undefined) return { init: ((await import(PACKAGE)) as { default: () => Promise<ESpeakNGModule> }).default, rewritten: false };
  const factory = runInThisContext(script, { filename: file }) as (url: string, node: typeof nodeModule) => () => Promise<ESpeakNGModule>;
  return { init: factory(pathToFileURL(file).href, nodeModule), rewritten: true };
}
