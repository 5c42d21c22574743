// Pieces of `raaga voices add` that need no process: the progress display on a terminal and in a log, the
// manifest layout, pack names, which kind a set of files makes a pack of (each kind's own file patterns), and where a
// URL's sidecar and model card are looked for.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatManifest } from '../../../../src/cli/voice-install/manifest-file.js';
import { packDirName } from '../../../../src/cli/voice-install/install-pack.js';
import { packLayout } from '../../../../src/cli/voice-install/pack-layout.js';
import { besideUrl, companionUrl, gatherSources } from '../../../../src/cli/voice-install/pack-sources.js';
import { PACK_ENGINES } from '../../../../src/engine/engines.js';
import { createProgress } from '../../../../src/cli/progress.js';

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
    const text = readFileSync(new URL('../../../../models/raaga-v1/manifest.json', import.meta.url), 'utf8');
    expect(`${formatManifest(JSON.parse(text))}\n`).toBe(text);
  });

  it('makes safe directory names', () => {
    expect(packDirName('hi_IN-priyamvada-medium')).toBe('hi_IN-priyamvada-medium');
    expect(packDirName('../../etc/x y')).toBe('etc-x-y');
    expect(() => packDirName('...')).toThrow(/--name/);
  });

  it('finds the kind a set of files makes a pack of, by each kind\'s own file patterns', () => {
    const kindOf = (...names: string[]) => packLayout(names.map((name) => ({ name })), PACK_ENGINES, { source: 'test' });
    const piper = kindOf('hi_IN-x-medium.onnx', 'hi_IN-x-medium.onnx.json', 'MODEL_CARD');
    expect(piper.module.kind).toBe('piper');
    expect(piper.parts.map((part) => [part.pattern.field, part.file.name, part.companions.map((companion) => companion.file?.name)])).toEqual([['path', 'hi_IN-x-medium.onnx', ['hi_IN-x-medium.onnx.json']]]);
    const kokoro = kindOf('kokoro-v1.0.onnx', 'af_heart.bin');
    expect([kokoro.module.kind, ...kokoro.parts.map((part) => `${part.pattern.field}=${part.file.name}`)]).toEqual(['kokoro', 'path=kokoro-v1.0.onnx', 'style=af_heart.bin']);
    expect(kindOf('cmu_us_slt.flitevox', 'README').module.kind).toBe('flite');
    expect(() => kindOf('model.onnx', 'model.onnx.json', 'af_heart.bin')).toThrow(/makes a pack of piper or kokoro: choose one with --engine/);
    expect(packLayout([{ name: 'model.onnx' }, { name: 'model.onnx.json' }, { name: 'af_heart.bin' }], PACK_ENGINES, { source: 'test', engine: 'kokoro' }).module.kind).toBe('kokoro');
    expect(() => kindOf('model.onnx')).toThrow(/piper: model\.onnx but no model\.onnx\.json beside it; kokoro: no \.bin file; flite: no \.flitevox file/);
    expect(() => kindOf('a.flitevox', 'b.flitevox')).toThrow(/several \.flitevox files \(a\.flitevox, b\.flitevox\): keep one per pack/);
    expect(() => packLayout([{ name: 'x.onnx' }], PACK_ENGINES, { source: 'test', engine: 'festival' })).toThrow(/--engine festival is not a kind of pack this Raaga has \(piper, kokoro, flite\)/);
  });

  it("finds a URL's sidecar and model card next to it, and takes files and URLs only", async () => {
    const { files } = await gatherSources(['https://example.test/hi/hi_IN/priyamvada/medium/hi_IN-priyamvada-medium.onnx?download=true']);
    const model = files[0]!;
    expect(model).toMatchObject({ name: 'hi_IN-priyamvada-medium.onnx', remote: true });
    expect(companionUrl(model, '.json')).toBe('https://example.test/hi/hi_IN/priyamvada/medium/hi_IN-priyamvada-medium.onnx.json?download=true');
    expect(besideUrl(model, 'MODEL_CARD')).toBe('https://example.test/hi/hi_IN/priyamvada/medium/MODEL_CARD');
    await expect(gatherSources(['https://example.test/packs/'])).rejects.toThrow(/names no file/);
    await expect(gatherSources(['ftp://example.test/x.onnx'])).rejects.toThrow(/only http\(s\) URLs, files and directories/);
  });
});
