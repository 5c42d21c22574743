// Pieces of `raaga voices add` that need no process: the progress display on a terminal and in a log, the
// manifest layout, pack names and where a URL's sidecar and model card are looked for.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatManifest } from '../../../src/cli/voice-packs/manifest-file.js';
import { packDirName } from '../../../src/cli/voice-packs/install-pack.js';
import { resolvePackSource } from '../../../src/cli/voice-packs/pack-source.js';
import { createProgress } from '../../../src/cli/progress.js';

function sink(isTTY: boolean): { isTTY: boolean; text: string; write(text: string): void } {
  return {
    isTTY,
    text: '',
    write(text) {
      this.text += text;
    },
  };
}

describe('progress', () => {
  it('redraws one bar on a terminal, at most every 100 ms', () => {
    const out = sink(true);
    let clock = 0;
    const progress = createProgress(out, 'downloading model.onnx', 64 * 2 ** 20, { now: () => clock });
    for (let i = 0; i < 64; i++) {
      clock += 20;
      progress.advance(2 ** 20);
    }
    progress.done();
    const frames = out.text.split('\r').filter((frame) => frame !== '');
    expect(frames.length).toBeLessThanOrEqual(14);
    expect(frames[frames.length - 1]).toBe(`downloading model.onnx [${'#'.repeat(24)}] 100% (64.0/64.0 MB)\u001b[K\n`);
  });

  it('prints a few plain lines otherwise', () => {
    const out = sink(false);
    const progress = createProgress(out, 'downloading model.onnx', 60 * 2 ** 20);
    for (let i = 0; i < 60; i++) progress.advance(2 ** 20);
    progress.done();
    expect(out.text.split('\n').filter((line) => line !== '')).toEqual([
      'downloading model.onnx: 60.0 MB',
      'downloading model.onnx: 25% (15.0/60.0 MB)',
      'downloading model.onnx: 50% (30.0/60.0 MB)',
      'downloading model.onnx: 75% (45.0/60.0 MB)',
      'downloading model.onnx: done, 60.0 MB',
    ]);
  });

  it('counts megabytes when the size is unknown', () => {
    const out = sink(false);
    const progress = createProgress(out, 'x', undefined);
    for (let i = 0; i < 40; i++) progress.advance(2 ** 20);
    progress.done();
    expect(out.text).toBe('x: size unknown\nx: 16.0 MB\nx: 32.0 MB\nx: done, 40.0 MB\n');
  });
});

describe('manifest layout and pack sources', () => {
  it('writes the committed manifest back byte for byte', () => {
    const text = readFileSync(new URL('../../../models/raaga-v1/manifest.json', import.meta.url), 'utf8');
    expect(`${formatManifest(JSON.parse(text))}\n`).toBe(text);
  });

  it('makes safe directory names', () => {
    expect(packDirName('hi_IN-priyamvada-medium')).toBe('hi_IN-priyamvada-medium');
    expect(packDirName('../../etc/x y')).toBe('etc-x-y');
    expect(() => packDirName('...')).toThrow(/--name/);
  });

  it("finds a URL's sidecar and model card next to the model", async () => {
    const source = await resolvePackSource('https://example.test/hi/hi_IN/priyamvada/medium/hi_IN-priyamvada-medium.onnx?download=true');
    expect(source.suggestedName).toBe('hi_IN-priyamvada-medium');
    expect(source.sidecar.from).toBe('https://example.test/hi/hi_IN/priyamvada/medium/hi_IN-priyamvada-medium.onnx.json?download=true');
    expect(source.extras[0]?.from).toBe('https://example.test/hi/hi_IN/priyamvada/medium/MODEL_CARD');
    const folder = await resolvePackSource('http://127.0.0.1:9/packs/te-voice');
    expect(folder.model.from).toBe('http://127.0.0.1:9/packs/te-voice/model.onnx');
    expect(folder.suggestedName).toBe('te-voice');
    await expect(resolvePackSource('ftp://example.test/x.onnx')).rejects.toThrow(/only http\(s\) URLs/);
  });
});
