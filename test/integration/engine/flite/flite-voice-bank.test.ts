// One worker's Flite (FliteVoiceBank) on the real flite.wasm: a voice is loaded once and kept (a second clause reads
// no file), loaded again only when its file changed; voices beyond the worker's budget evict the least recently used;
// a fault in the instance (a real trap, or flite failing inside through its longjmp) fails that call, the instance is
// replaced, and the next clause speaks as a fresh instance does.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { synthesizeFlite, type FliteClip } from '../../../../src/engine/flite/flite-synth.js';
import { FliteVoiceBank } from '../../../../src/engine/flite/flite-voice-bank.js';
import { FliteVoiceError } from '../../../../src/engine/flite/flite-voice-error.js';
import { FliteInstance, FliteInstanceFault } from '../../../../src/engine/flite/flite-wasm.js';
import { useFliteVoices } from '../../../helpers/flite-voices.js';

const voices = useFliteVoices(['slt', 'rms', 'awb']);
const MiB = 2 ** 20;
const TEXT = 'Your order will arrive by six';

const say = (bank: FliteVoiceBank, voicePath: string, text = TEXT): FliteClip => synthesizeFlite(bank, { voicePath, text, speed: 1, pitchShiftSemitones: 0, wordTimings: true });
const same = (a: FliteClip, b: FliteClip) => Buffer.from(a.samples.buffer).equals(Buffer.from(b.samples.buffer));

describe('a voice kept loaded', () => {
  it('is loaded once: later clauses read no file and speak what a fresh instance would', () => {
    const bank = new FliteVoiceBank({ modelsDir: voices.dir });
    say(bank, voices.path('slt'), 'Hello there.');
    const second = say(bank, voices.path('slt'));
    say(bank, voices.path('slt'), 'Thank you.');
    expect(bank.stats()).toMatchObject({ voiceLoads: 1, instances: 1, loadedVoices: 1, evictions: 0 });
    expect(bank.stats().loadedHeapBytes).toBeGreaterThan(2.5 * MiB);
    expect(same(second, say(new FliteVoiceBank({ modelsDir: voices.dir }), voices.path('slt')))).toBe(true);
  });

  it('is loaded again when its file changed, and refused when it became something else', () => {
    const path = join(voices.dir, 'changing.flitevox');
    writeFileSync(path, readFileSync(voices.path('slt')));
    const bank = new FliteVoiceBank({ modelsDir: voices.dir });
    const asSlt = say(bank, path);
    writeFileSync(path, readFileSync(voices.path('rms')));
    const asRms = say(bank, path);
    expect(same(asRms, say(bank, voices.path('rms')))).toBe(true);
    expect(same(asRms, asSlt)).toBe(false);
    expect(bank.stats()).toMatchObject({ voiceLoads: 3, loadedVoices: 2 });
    writeFileSync(path, '<html><body>moved</body></html>');
    expect(() => say(bank, path)).toThrow(new FliteVoiceError(path, 'is an HTML or XML page, not a .flitevox voice (a download that returned a web page?)'));
    expect(bank.stats()).toMatchObject({ voiceLoads: 3, loadedVoices: 1 });
  });
});

describe('the voice budget', () => {
  it('evicts the least recently used voice when the next would pass it, and reloads an evicted one on demand', () => {
    // Each of the three takes about 3-3.7 MiB loaded: two fit in 8 MiB, three do not.
    const bank = new FliteVoiceBank({ modelsDir: voices.dir, budgetBytes: 8 * MiB });
    say(bank, voices.path('slt'));
    say(bank, voices.path('rms'));
    expect(bank.stats()).toMatchObject({ voiceLoads: 2, loadedVoices: 2, evictions: 0 });
    // rms used last: awb takes slt's place.
    say(bank, voices.path('rms'));
    say(bank, voices.path('awb'));
    expect(bank.stats()).toMatchObject({ voiceLoads: 3, loadedVoices: 2, evictions: 1 });
    say(bank, voices.path('rms'));
    expect(bank.stats()).toMatchObject({ voiceLoads: 3, evictions: 1 });
    // slt again: awb (least recently used) goes.
    const slt = say(bank, voices.path('slt'));
    expect(bank.stats()).toMatchObject({ voiceLoads: 4, loadedVoices: 2, evictions: 2 });
    expect(bank.stats().loadedHeapBytes).toBeLessThanOrEqual(8 * MiB);
    say(bank, voices.path('rms'));
    expect(bank.stats().voiceLoads).toBe(4);
    expect(same(slt, say(new FliteVoiceBank({ modelsDir: voices.dir }), voices.path('slt')))).toBe(true);
  });
});

describe('a fault in the instance', () => {
  it('a real trap fails the call, the instance is replaced, and the next clause speaks as before', () => {
    const bank = new FliteVoiceBank({ modelsDir: voices.dir });
    const before = say(bank, voices.path('slt'));
    expect(() => bank.trapForTest()).toThrow(/^flite failed in synthesize: RuntimeError: memory access out of bounds; the instance was replaced$/);
    expect(bank.stats()).toMatchObject({ faults: 1, loadedVoices: 0 });
    const after = say(bank, voices.path('slt'));
    expect(same(after, before)).toBe(true);
    expect(bank.stats()).toMatchObject({ instances: 2, voiceLoads: 2, faults: 1 });
  });

  it("flite's own errors (cst_error) jump back to the glue: the call fails with what flite said, and the instance is done", () => {
    // Bytes the engine's check would refuse, given to an instance directly: flite loads part of them, then fails.
    const slt = readFileSync(voices.path('slt'));
    const instance = new FliteInstance();
    const cut = instance.loadVoice(slt.subarray(0, 100_000), 'cut.flitevox');
    expect(() => instance.synthesize(cut, 'Hello.')).toThrow(new FliteInstanceFault('flite failed in synthesize: flite reported an error (flite said: alloc: asked for negative size -16)'));
    expect(() => instance.synthesize(cut, 'Hello.')).toThrow(/^the flite instance is broken/);
    // A feature name 2 GB long: flite's allocation fails while loading.
    const corrupt = Buffer.from(slt.subarray(0, 4096));
    corrupt.writeInt32LE(0x7ffffff0, 30);
    expect(() => new FliteInstance().loadVoice(corrupt, 'corrupt.flitevox')).toThrow(/^flite failed in voice_load: flite reported an error \(flite said: alloc: can't alloc 2147483632 bytes\)$/);
  });
});
