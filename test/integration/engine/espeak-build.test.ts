// The eSpeak NG build as the embedded engine loads it (src/engine/espeak/espeak-build.ts): the rewritten remainder
// helper computes what the emulated 64-bit division computed, and the rewritten build speaks the same samples as the
// package's own file, byte for byte. eSpeak seeds its random numbers from the clock, so the clock is fixed while
// both speak. The same check shows that a `breath` line with all amounts 0 changes no sample.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ESpeakNGModule } from '@echogarden/espeak-ng-emscripten';
import {
  createEspeakModule,
  espeakRemainderFastPath,
  fastRemainderHelper,
  moduleAsFunction,
  rewriteRandomRemainder,
} from '../../../src/engine/espeak/espeak-build.js';
import { ESPEAK_VARIANT_DIR, variantFileText } from '../../../src/engine/espeak/espeak-variant.js';
import type { EmbeddedVoiceParams } from '../../../src/engine/espeak/espeak-voice-params.js';
import { SENTENCES } from './sentences.js';

const PACKAGE_FILE = createRequire(import.meta.url).resolve('@echogarden/espeak-ng-emscripten');

const breathy: EmbeddedVoiceParams = {
  pitchBaseHz: 91,
  pitchMaxHz: 132,
  formants: [[100, 100], [93, 100], [95, 100], [97, 80], [98, 80], [99, 80]],
  breath: 6,
  roughness: 1,
  intonationRange: 60,
  wordsPerMinute: 170,
};

/** Runs `speak` with Date.now and performance.now frozen, so eSpeak's random seed is the same every time. */
async function withFixedClock<T>(speak: () => Promise<T>): Promise<T> {
  vi.spyOn(Date, 'now').mockReturnValue(1_764_000_000_000);
  vi.spyOn(performance, 'now').mockReturnValue(1000);
  try {
    return await speak();
  } finally {
    vi.restoreAllMocks();
  }
}

/** Every sample of each text, spoken in order by one new instance with the variant file given. */
function speakAll(module: ESpeakNGModule, language: string, variant: string, texts: readonly string[]): Int16Array[] {
  module.FS.writeFile(`${ESPEAK_VARIANT_DIR}test_voice`, variant);
  const worker = new module.eSpeakNGWorker();
  expect(worker.set_voice(`${language}+test_voice`)).toBe(0);
  worker.set_rate(170);
  return texts.map((text) => {
    const chunks: Int16Array[] = [];
    // The callback must return nothing: eSpeak reads a non-zero return as "stop".
    worker.synthesize(text, (samples) => {
      chunks.push(samples);
    });
    return Int16Array.from(chunks.flatMap((chunk) => Array.from(chunk)));
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the remainder helper', () => {
  it('finds the one call site in the installed build and the loader uses it', async () => {
    const source = readFileSync(PACKAGE_FILE, 'utf8');
    const rewritten = rewriteRandomRemainder(source);
    expect(rewritten).toBeDefined();
    expect(rewritten).not.toContain(',2147483647);');
    expect(rewritten!.length - source.length).toBeLessThan(200);
    expect(await espeakRemainderFastPath()).toBe(true);
  });

  it('leaves a text without exactly one call site alone', () => {
    const site = 'function Fg(a,b){Bg(a,b,2147483647);ua=ta;return sa}';
    expect(rewriteRandomRemainder('function f(){}')).toBeUndefined();
    expect(rewriteRandomRemainder(`${site}${site.replace('Fg', 'Gg')}`)).toBeUndefined();
    expect(rewriteRandomRemainder(`x;${site};y`)).toBe(`x;${fastRemainderHelper('Fg', 'a', 'b', 'ua', 'sa', 'ta')};y`);
  });

  it('gives the 64-bit remainder by 2^31 - 1 and a zero high word, as BigInt does', () => {
    const remainder = new Function(
      `var sa = 7, ta = 7, ua = 7; ${fastRemainderHelper('Fg', 'a', 'b', 'ua', 'sa', 'ta')}
       return (a, b) => { const low = Fg(a, b); return [low, ua, sa, ta]; };`,
    )() as (low: number, high: number) => [number, number, number, number];
    const words = [0, 1, 2, 0x7ffffffe, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x12345678, 0x9e3779b9];
    const pairs: Array<[number, number]> = words.flatMap((low) => words.map((high): [number, number] => [low, high]));
    let state = 12345;
    for (let i = 0; i < 20_000; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const low = state;
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      pairs.push([low, state]);
    }
    for (const [low, high] of pairs) {
      const expected = Number(((BigInt(high) << 32n) | BigInt(low)) % 0x7fffffffn);
      // wasm2js passes words as signed 32-bit integers.
      expect(remainder(low | 0, high | 0)).toEqual([expected, 0, expected, 0]);
    }
  });
});

describe('the module as a script', () => {
  it('needs the one dynamic import and the one default export the build has', () => {
    const source = readFileSync(PACKAGE_FILE, 'utf8');
    expect(moduleAsFunction(source)).toMatch(/^\(function \(__importMetaUrl, __nodeModule\) \{'use strict';/);
    expect(moduleAsFunction(source)).not.toContain('import.meta.url');
    expect(moduleAsFunction(source.replace('export default Module;', 'export { Module };'))).toBeUndefined();
    expect(moduleAsFunction(`${source}\nawait import("module");`)).toBeUndefined();
  });

  it('runs under the package file’s name, so stack traces and profiles show it (not a data URL)', async () => {
    const module = await createEspeakModule();
    const worker = new module.eSpeakNGWorker();
    expect(worker.set_voice('en')).toBe(0);
    const stacks: string[] = [];
    worker.synthesize('Hello.', () => {
      stacks.push(new Error('where').stack ?? '');
    });
    expect(stacks.length).toBeGreaterThan(0);
    expect(stacks[0]).toContain(PACKAGE_FILE);
    expect(stacks[0]).not.toContain('data:');
  });
});

describe('the rewritten build', () => {
  it.each(['en', 'hi', 'ta', 'bn'] as const)('speaks the same samples as the package’s own file (%s)', async (language) => {
    const code = ({ en: 'en-IN', hi: 'hi-IN', ta: 'ta-IN', bn: 'bn-IN' } as const)[language];
    const texts = [SENTENCES[code], 'One two three, four five six.'];
    const variant = variantFileText('test_voice', breathy, 0);
    expect(variant).toContain('breath 0 6 6 6 6 6 6 6');
    const packageOwn = ((await import('@echogarden/espeak-ng-emscripten')) as { default: () => Promise<ESpeakNGModule> }).default;
    const own = await withFixedClock(async () => speakAll(await packageOwn(), language, variant, texts));
    const rewritten = await withFixedClock(async () => speakAll(await createEspeakModule(), language, variant, texts));
    expect(own[0]!.length).toBeGreaterThan(22050);
    expect(rewritten).toEqual(own);
  });

  it('speaks the same samples with a breath line of zeros as with none', async () => {
    const quiet = { ...breathy, breath: 0 };
    const withoutLine = variantFileText('test_voice', quiet, 0);
    expect(withoutLine).not.toContain('breath');
    const withZeros = withoutLine.replace('roughness', 'breath 0 0 0 0 0 0 0 0\nroughness');
    const texts = [SENTENCES['hi-IN'], SENTENCES['en-IN']];
    const none = await withFixedClock(async () => speakAll(await createEspeakModule(), 'hi', withoutLine, texts));
    const zeros = await withFixedClock(async () => speakAll(await createEspeakModule(), 'hi', withZeros, texts));
    expect(none[0]!.length).toBeGreaterThan(22050);
    expect(zeros).toEqual(none);
  });
});
