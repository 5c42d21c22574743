// What flite's WASI guest may see (security review c283aa8, L3): node:wasi preopens read-write and follows a directory
// symlink inside a preopen out of it, so the guest never gets a pack's own directory. Each thread keeps one private
// directory (mkdtemp, 0700) holding, per voice file, a directory with only that file in it and, per run, a fresh one.
// Their names carry the process id: a process that died without cleaning up (killed) has its directories removed by
// the next one that makes its own in the same place.

import { chmodSync, constants, copyFileSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const STALE_NAME = /^raaga-flite-(?:engine-)?(\d+)-/;

let parentDir: string | undefined;
let root: string | undefined;
let voiceDirs = 0;

/** A new private directory (0700) in `parent`, named for this process; stale ones of dead processes there go first. */
export function makeFliteSandbox(parent: string, kind: 'engine' | 'thread'): string {
  removeStale(parent);
  return mkdtempSync(join(parent, `raaga-flite-${kind === 'engine' ? 'engine-' : ''}${process.pid}-`));
}

function removeStale(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(STALE_NAME.exec(name)?.[1] ?? Number.NaN);
    if (Number.isSafeInteger(pid) && pid !== process.pid && !isAlive(pid)) removeFliteSandbox(join(parent, name));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Where this thread's private directory goes (a worker: the engine's, which removes it as the engine closes; a
 * terminated worker runs no exit handler). Default: the system's temp directory, removed when the process exits.
 */
export function placeFliteSandbox(dir: string): void {
  if (root !== undefined) throw new Error('the flite sandbox of this thread exists already');
  parentDir = dir;
}

/** This thread's private directory, made on first use. */
export function fliteSandboxRoot(): string {
  if (root === undefined) {
    const made = makeFliteSandbox(parentDir ?? tmpdir(), 'thread');
    root = made;
    process.once('exit', () => removeFliteSandbox(made));
  }
  return root;
}

/** A fresh directory for one run's output and captured streams, inside the private directory. */
export function fliteRunDir(): string {
  return mkdtempSync(join(fliteSandboxRoot(), 'run-'));
}

/**
 * A private directory holding only `path` under its own name, to preopen as the voice directory: a hard link (free,
 * and the guest reads the very file that was checked; its mode is the pack file's), or a copy made read-only (0400)
 * when the link fails (another device, protected hard links). The directory itself is 0500: a guest can add, remove
 * or replace nothing in it (file modes do not bind a process running as root; the Docker image runs as `node`).
 */
export function sandboxVoiceFile(path: string): string {
  const dir = join(fliteSandboxRoot(), `voice-${++voiceDirs}`);
  mkdirSync(dir, { mode: 0o700 });
  const inside = join(dir, basename(path));
  try {
    try {
      linkSync(path, inside);
    } catch {
      // COPYFILE_FICLONE: a copy-on-write clone where the file system has them, else a plain copy.
      copyFileSync(path, inside, constants.COPYFILE_FICLONE);
      chmodSync(inside, 0o400);
    }
    chmodSync(dir, 0o500);
  } catch (error) {
    removeFliteSandbox(dir);
    throw error;
  }
  return dir;
}

/** Removes a private directory made here (a voice's, a thread's, or the engine's that holds its threads'). */
export function removeFliteSandbox(dir: string): void {
  writable(dir);
  rmSync(dir, { recursive: true, force: true });
}

// The 0500 voice directories must be writable again before their entries can be removed.
function writable(dir: string): void {
  try {
    if (!lstatSync(dir).isDirectory()) return;
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) writable(join(dir, entry.name));
  } catch {
    // gone already
  }
}
