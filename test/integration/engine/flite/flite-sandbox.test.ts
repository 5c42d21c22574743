// What flite's WASI guest can reach (security review c283aa8, L3): never the pack's directory, only a private one
// holding the voice file (a hard link, or a read-only copy across devices), so other files of the pack directory and
// directory symlinks there are out of its sight; a pack directory holding a symbolic link is refused when the voice
// is loaded (directly, at install, and by the engine's workers), naming the link; the engine removes its workers'
// private directories when it closes, and a killed process's are removed by the next one. On the real flite.wasm.

import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PackEvent } from '../../../../src/engine/engine-module.js';
import type { FliteEngine } from '../../../../src/engine/flite/flite-engine.js';
import { fliteEngineModule } from '../../../../src/engine/flite/flite-engine-module.js';
import { GUEST_VOICE_DIR, runFlite } from '../../../../src/engine/flite/flite-module.js';
import { fliteSandboxRoot, makeFliteSandbox } from '../../../../src/engine/flite/flite-sandbox.js';
import { synthesizeFlite } from '../../../../src/engine/flite/flite-synth.js';
import { FliteVoiceError } from '../../../../src/engine/flite/flite-voice-error.js';
import { openFliteVoice } from '../../../../src/engine/flite/flite-voice.js';
import { useFliteVoices } from '../../../helpers/flite-voices.js';
import { dumpFliteVoice } from '../../../../fixtures/voices/lib/flite-voices.js';

const voices = useFliteVoices(['slt']);
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A pack directory of its own: the slt voice and whatever else the test puts beside it. */
function packDir(parent = tmpdir()): { dir: string; voice: string } {
  const dir = mkdtempSync(join(parent, 'raaga-flite-pack-'));
  made.push(dir);
  const voice = join(dir, 'slt.flitevox');
  copyFileSync(voices.path('slt'), voice);
  return { dir, voice };
}

function refusal(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(FliteVoiceError);
    return (error as Error).message;
  }
  throw new Error('the voice was used');
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("flite's private voice directory", () => {
  it('holds only the voice file, as a hard link of the pack file, in a directory nothing can be added to', () => {
    const pack = packDir();
    writeFileSync(join(pack.dir, 'notes.txt'), 'not for flite');
    const voice = openFliteVoice(pack.voice, 'en-IN');
    expect(voice.dir).not.toBe(pack.dir);
    expect(dirname(voice.dir)).toBe(fliteSandboxRoot());
    expect(readdirSync(voice.dir)).toEqual(['slt.flitevox']);
    expect(voice.guestPath).toBe(`${GUEST_VOICE_DIR}/slt.flitevox`);
    // Same device here (both under the temp directory): the pack's very file, nothing copied.
    expect(statSync(join(voice.dir, 'slt.flitevox')).ino).toBe(statSync(pack.voice).ino);
    expect(mode(voice.dir)).toBe(0o500);
    expect(mode(fliteSandboxRoot())).toBe(0o700);
  });

  it('speaks through it, word timings included (their phone analysis runs flite there too)', () => {
    const pack = packDir();
    const voice = openFliteVoice(pack.voice, 'en-IN');
    const clip = synthesizeFlite({ voice, text: 'Your order arrives tomorrow.', speed: 1, pitchShiftSemitones: 0, wordTimings: true });
    expect(clip.sampleRateHz).toBe(16000);
    expect(clip.samples.length).toBeGreaterThan(16000);
    expect(clip.words?.length).toBeGreaterThanOrEqual(3);
  });

  it('the guest cannot open other files of the pack directory, which it could when the pack directory was preopened', () => {
    const pack = packDir();
    copyFileSync(pack.voice, join(pack.dir, 'other.flitevox'));
    mkdirSync(join(pack.dir, 'sub'));
    copyFileSync(pack.voice, join(pack.dir, 'sub', 'deep.flitevox'));
    const voice = openFliteVoice(pack.voice, 'en-IN');
    const load = (dir: string, file: string) => runFlite({ args: ['-voice', `${GUEST_VOICE_DIR}/${file}`, '-t', 'hi', '-o', 'none'], voiceDir: dir }).stderr;
    // The old preopen, for contrast: every file of the directory tree loads.
    expect(load(pack.dir, 'other.flitevox')).toBe('');
    expect(load(pack.dir, 'sub/deep.flitevox')).toBe('');
    for (const file of ['other.flitevox', 'sub/deep.flitevox', '../slt.flitevox']) {
      expect(load(voice.dir, file)).toContain(`Error load voice: can't open file ${GUEST_VOICE_DIR}/${file}`);
    }
    expect(load(voice.dir, 'slt.flitevox')).toBe('');
  });

  const otherDevice = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev;
  it.skipIf(!otherDevice)('is a read-only copy when the pack is on another device (no hard link across devices)', () => {
    const dir = mkdtempSync(join('/dev/shm', 'raaga-flite-pack-'));
    made.push(dir);
    const path = dumpFliteVoice('slt', dir);
    const voice = openFliteVoice(path, 'en-IN');
    const inside = join(voice.dir, basename(path));
    expect(readdirSync(voice.dir)).toEqual(['slt.flitevox']);
    expect(statSync(inside).dev).not.toBe(statSync(path).dev);
    expect(mode(inside)).toBe(0o400);
    expect(readFileSync(inside).equals(readFileSync(path))).toBe(true);
    expect(synthesizeFlite({ voice, text: 'Hello.', speed: 1, pitchShiftSemitones: 0, wordTimings: false }).samples.length).toBeGreaterThan(0);
  });
});

describe('a pack directory holding a symbolic link', () => {
  it('is refused when the voice is opened, naming the link: a directory link, a file link, the voice itself a link', () => {
    const outside = mkdtempSync(join(tmpdir(), 'raaga-outside-'));
    made.push(outside);
    writeFileSync(join(outside, 'secret'), 'host file');

    const withDir = packDir();
    symlinkSync(outside, join(withDir.dir, 'linkdir'));
    expect(refusal(() => openFliteVoice(withDir.voice, 'en-IN'))).toBe(
      `flite voice ${withDir.voice} is in a directory holding a symbolic link, ${join(withDir.dir, 'linkdir')}: Raaga refuses pack directories with symbolic links (put the file or directory itself there, or move the voice to a directory of its own)`,
    );

    const withFile = packDir();
    symlinkSync(join(outside, 'secret'), join(withFile.dir, 'a-file'));
    expect(refusal(() => openFliteVoice(withFile.voice))).toContain(`holding a symbolic link, ${join(withFile.dir, 'a-file')}:`);

    const linkedVoice = packDir();
    const link = join(linkedVoice.dir, 'linked.flitevox');
    symlinkSync(linkedVoice.voice, link);
    expect(refusal(() => openFliteVoice(link))).toContain(`holding a symbolic link, ${link}:`);
  });

  it('is refused at install (the trial), and by the engine, whose pair then falls back; the engine removes its private directories on close', async () => {
    const linked = packDir();
    symlinkSync(tmpdir(), join(linked.dir, 'tmp'));
    const plain = packDir();
    const packs = [
      { voiceName: 'priya', language: 'en-IN' as const, path: plain.voice, sha256: undefined, options: {} },
      { voiceName: 'arjun', language: 'en-IN' as const, path: linked.voice, sha256: undefined, options: {} },
    ];
    await expect(fliteEngineModule.trial(packs[1]!, { modelsDir: linked.dir })).rejects.toThrow(`holding a symbolic link, ${join(linked.dir, 'tmp')}:`);

    const events: PackEvent[] = [];
    const engine = fliteEngineModule.create(packs, { workers: 1, threadsPerWorker: 1, maxQueue: 4, modelsDir: tmpdir(), onEvent: (event) => events.push(event) }) as FliteEngine;
    try {
      await engine.start();
      expect(events.filter((event) => event.type === 'pack-failed')).toEqual([
        expect.objectContaining({ voiceName: 'arjun', language: 'en-IN', reason: expect.stringContaining(`holding a symbolic link, ${join(linked.dir, 'tmp')}:`) }),
      ]);
      expect(engine.serves('priya', 'en-IN')).toBe(true);
      expect(engine.serves('arjun', 'en-IN')).toBe(false);
      // The worker's private directory: one voice directory, holding the one voice that loaded.
      const [workerDir, ...others] = readdirSync(engine.sandboxDir);
      expect(others).toEqual([]);
      const voiceDirs = readdirSync(join(engine.sandboxDir, workerDir!)).filter((name) => name.startsWith('voice-'));
      expect(voiceDirs).toHaveLength(1);
      expect(readdirSync(join(engine.sandboxDir, workerDir!, voiceDirs[0]!))).toEqual(['slt.flitevox']);
    } finally {
      await engine.close();
    }
    expect(existsSync(engine.sandboxDir)).toBe(false);
  }, 120_000);
});

describe('private directories of a process that died without removing them', () => {
  it('are removed by the next one made in the same place; a live process\'s and other names are kept', () => {
    const parent = mkdtempSync(join(tmpdir(), 'raaga-flite-parent-'));
    made.push(parent);
    // A process that has exited: its pid names no process now.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = join(parent, `raaga-flite-engine-${dead}-AbC123`);
    mkdirSync(join(stale, `raaga-flite-${dead}-XyZ789`, 'voice-1'), { recursive: true });
    copyFileSync(voices.path('slt'), join(stale, `raaga-flite-${dead}-XyZ789`, 'voice-1', 'slt.flitevox'));
    chmodSync(join(stale, `raaga-flite-${dead}-XyZ789`, 'voice-1'), 0o500);
    const live = join(parent, `raaga-flite-${process.ppid}-LiVe00`);
    mkdirSync(live);
    const unrelated = join(parent, 'raaga-flite-voices-Q1w2E3');
    mkdirSync(unrelated);

    const mine = makeFliteSandbox(parent, 'engine');
    expect(basename(mine)).toMatch(new RegExp(`^raaga-flite-engine-${process.pid}-`));
    expect(mode(mine)).toBe(0o700);
    expect(readdirSync(parent).sort()).toEqual([basename(mine), basename(live), basename(unrelated)].sort());
  });
});
