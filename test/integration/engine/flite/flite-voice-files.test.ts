// Which voice files flite gets, and what it can reach (security review c283aa8, L3). A file is refused, with a
// message naming it, when it is missing, truncated, an HTML page, too big for a worker's voice budget, in a language
// the build or the pack lacks, refused by flite itself, or when its real path is outside RAAGA_MODELS_DIR (a symbolic
// link to /etc/passwd or to a voice elsewhere, a pack directory linked out); a link that stays inside is followed.
// Inside the instance flite sees only MEMFS: the bytes of the one file that was checked, removed once loaded, and no
// host path at all. The engine refuses such a pack too, and its pair falls back. On the real flite.wasm.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFlitevoxFeatures } from '../../../../fixtures/voices/lib/flite-voices.js';
import type { PackEvent } from '../../../../src/engine/engine-module.js';
import type { FliteEngine } from '../../../../src/engine/flite/flite-engine.js';
import { fliteEngineModule } from '../../../../src/engine/flite/flite-engine-module.js';
import { synthesizeFlite } from '../../../../src/engine/flite/flite-synth.js';
import { FliteVoiceBank } from '../../../../src/engine/flite/flite-voice-bank.js';
import { FliteVoiceError } from '../../../../src/engine/flite/flite-voice-error.js';
import { readFliteVoice } from '../../../../src/engine/flite/flite-voice.js';
import { FliteInstance, FliteVoiceRefused } from '../../../../src/engine/flite/flite-wasm.js';
import { useFliteVoices } from '../../../helpers/flite-voices.js';

const voices = useFliteVoices(['slt']);
const MiB = 2 ** 20;
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function outsideDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'raaga-flite-outside-'));
  made.push(dir);
  return dir;
}

const limits = (budgetBytes = 384 * MiB) => ({ modelsDir: voices.dir, budgetBytes });

function refusal(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(FliteVoiceError);
    return (error as Error).message;
  }
  throw new Error('the voice was used');
}

describe('voice files flite must not get', () => {
  it('a missing, a truncated and an HTML file, before flite reads them', () => {
    const missing = join(voices.dir, 'missing.flitevox');
    expect(refusal(() => readFliteVoice(missing, undefined, limits()))).toBe(`flite voice ${missing} does not exist`);
    const truncated = join(voices.dir, 'truncated.flitevox');
    writeFileSync(truncated, readFileSync(voices.path('slt')).subarray(0, 1_000_000));
    expect(refusal(() => readFliteVoice(truncated, undefined, limits()))).toMatch(new RegExp(`^flite voice ${truncated} is truncated`));
    const html = join(voices.dir, 'page.flitevox');
    writeFileSync(html, '<html><body>Voice not found</body></html>');
    expect(refusal(() => readFliteVoice(html, undefined, limits()))).toMatch(new RegExp(`^flite voice ${html} is an HTML`));
  });

  it('a file too big for one worker\'s voice budget, before it is read', () => {
    const huge = join(voices.dir, 'huge.flitevox');
    writeFileSync(huge, '');
    // Sparse: 3 GiB of nothing on disk, refused from its size alone.
    truncateSync(huge, 3 * 1024 * MiB);
    expect(refusal(() => readFliteVoice(huge, undefined, limits()))).toBe(
      `flite voice ${huge} is 3072.0 MiB: loaded it would take about 3840 MiB, more than one worker's Flite voice budget of 384 MiB`,
    );
    rmSync(huge);
    // The real slt (2.4 MiB) under a 2 MiB budget.
    expect(refusal(() => readFliteVoice(voices.path('slt'), undefined, limits(2 * MiB)))).toMatch(/is 2\.4 MiB: loaded it would take about 3 MiB, more than one worker's Flite voice budget of 2 MiB$/);
  });

  it('a voice of another language than asked for, or of one the build lacks', () => {
    const hindi = join(voices.dir, 'hindi.flitevox');
    writeFileSync(hindi, withFlitevoxFeatures(readFileSync(voices.path('slt')), { language: 'cmu_indic_lang', variant: 'hin' }));
    expect(refusal(() => readFliteVoice(hindi, 'en-IN', limits()))).toBe(`flite voice ${hindi} speaks hin (flite language 'cmu_indic_lang', variant 'hin'), not en-IN`);
    expect(readFliteVoice(hindi, 'hi-IN', limits()).header.voiceName).toBe('cmu_us_slt');
    const klingon = join(voices.dir, 'klingon.flitevox');
    writeFileSync(klingon, withFlitevoxFeatures(readFileSync(voices.path('slt')), { language: 'tlh' }));
    expect(refusal(() => readFliteVoice(klingon, undefined, limits()))).toMatch(/declares flite language 'tlh', which this flite build lacks/);
  });

  it('a symbolic link to /etc/passwd, or to a voice outside RAAGA_MODELS_DIR, and a pack directory linked out', () => {
    const passwd = join(voices.dir, 'passwd.flitevox');
    symlinkSync('/etc/passwd', passwd);
    expect(refusal(() => readFliteVoice(passwd, undefined, limits()))).toBe(
      `flite voice ${passwd} is a symbolic link to /etc/passwd, which is outside RAAGA_MODELS_DIR (${voices.dir}): Raaga reads voice files only from there`,
    );
    const elsewhere = outsideDir();
    writeFileSync(join(elsewhere, 'slt.flitevox'), readFileSync(voices.path('slt')));
    const linked = join(voices.dir, 'linked.flitevox');
    symlinkSync(join(elsewhere, 'slt.flitevox'), linked);
    expect(refusal(() => readFliteVoice(linked, undefined, limits()))).toContain(`flite voice ${linked} is a symbolic link to ${join(elsewhere, 'slt.flitevox')}, which is outside RAAGA_MODELS_DIR`);
    mkdirSync(join(voices.dir, 'packs'), { recursive: true });
    symlinkSync(elsewhere, join(voices.dir, 'packs', 'moved'));
    const inMoved = join(voices.dir, 'packs', 'moved', 'slt.flitevox');
    expect(refusal(() => readFliteVoice(inMoved, undefined, limits()))).toContain(`flite voice ${inMoved} is a symbolic link to ${join(elsewhere, 'slt.flitevox')}, which is outside`);
    // Not a link, just elsewhere.
    expect(refusal(() => readFliteVoice(join(elsewhere, 'slt.flitevox'), undefined, limits()))).toBe(
      `flite voice ${join(elsewhere, 'slt.flitevox')} is outside RAAGA_MODELS_DIR (${voices.dir}): Raaga reads voice files only from there`,
    );
  });

  it('follows a link that stays inside RAAGA_MODELS_DIR', () => {
    const alias = join(voices.dir, 'alias.flitevox');
    symlinkSync(voices.path('slt'), alias);
    const clip = synthesizeFlite(new FliteVoiceBank({ modelsDir: voices.dir }), { voicePath: alias, language: 'en-IN', text: 'Hello there.', speed: 1, pitchShiftSemitones: 0, wordTimings: false });
    expect(clip.samples.length).toBeGreaterThan(8000);
  });

  it('a file flite itself refuses: its reason, naming the file, and the instance goes on', () => {
    const instance = new FliteInstance();
    let refused: unknown;
    try {
      instance.loadVoice(Buffer.from('CMU_FLITE_CG_VOXDATA-v1.0\0'), '/models/old.flitevox');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(FliteVoiceRefused);
    expect((refused as FliteVoiceRefused).reason).toBe('Error load voice: /models/old.flitevox does not have expected header');
    expect(instance.fault).toBeUndefined();
    expect(instance.loadVoice(readFileSync(voices.path('slt')), voices.path('slt'))).toBeGreaterThan(0);
  });
});

describe('what flite sees inside its instance', () => {
  it('no host file: /etc/passwd and the voice files on disk do not exist there', () => {
    const instance = new FliteInstance();
    for (const path of ['/etc/passwd', voices.path('slt'), '/proc/self/environ']) {
      expect(() => instance.loadGuestPath(path)).toThrow(new FliteVoiceRefused(`Error load voice: can't open file ${path}`));
    }
    expect(instance.guestDirectory('/')).not.toContain('etc');
    expect(instance.guestDirectory('/')).not.toContain('work');
  });

  it('only the checked bytes of the voice, removed from its file system once flite has loaded them', () => {
    const instance = new FliteInstance();
    const handle = instance.loadVoice(readFileSync(voices.path('slt')), voices.path('slt'));
    expect(instance.guestDirectory('/voice')).toEqual([]);
    expect(instance.synthesize(handle, 'Still speaking.').samples.length).toBeGreaterThan(8000);
  });
});

describe('the engine', () => {
  it('refuses a pack whose file is a link to /etc/passwd, naming it; its pair falls back, the other pack serves', async () => {
    const passwd = join(voices.dir, 'engine-passwd.flitevox');
    symlinkSync('/etc/passwd', passwd);
    const packs = [
      { voiceName: 'priya', language: 'en-IN' as const, path: voices.path('slt'), sha256: undefined, options: {} },
      { voiceName: 'arjun', language: 'en-IN' as const, path: passwd, sha256: undefined, options: {} },
    ];
    await expect(fliteEngineModule.trial(packs[1]!, { modelsDir: voices.dir })).rejects.toThrow(`flite voice ${passwd} is a symbolic link to /etc/passwd, which is outside RAAGA_MODELS_DIR`);
    const events: PackEvent[] = [];
    const engine = fliteEngineModule.create(packs, { workers: 1, threadsPerWorker: 1, maxQueue: 4, modelsDir: voices.dir, onEvent: (event) => events.push(event) }) as FliteEngine;
    try {
      await engine.start();
      expect(events.filter((event) => event.type === 'pack-failed')).toEqual([
        expect.objectContaining({ voiceName: 'arjun', language: 'en-IN', reason: expect.stringContaining(`flite voice ${passwd} is a symbolic link to /etc/passwd`) }),
      ]);
      expect(engine.serves('priya', 'en-IN')).toBe(true);
      expect(engine.serves('arjun', 'en-IN')).toBe(false);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
