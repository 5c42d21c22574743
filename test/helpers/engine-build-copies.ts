// Copies of an engine's build from source (src/engine/<kind>/wasm/ with its BUILD.json) in a temp directory, for
// tests that break one file the way a bad copy or a hand edit would: one byte changed, or the file gone. The copies
// are real files, checked by the real hashing (engine/build-record-check.ts); the tree's own build is never touched.

import { cp, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BuildCopies {
  /** A fresh copy of the build directory; each call makes another. */
  copy(): Promise<string>;
  /** Removes every copy made. */
  remove(): Promise<void>;
}

export function buildCopies(dir: string): BuildCopies {
  const made: string[] = [];
  return {
    async copy() {
      const into = await mkdtemp(join(tmpdir(), 'raaga-engine-build-'));
      made.push(into);
      await cp(dir, join(into, 'wasm'), { recursive: true });
      return join(into, 'wasm');
    },
    async remove() {
      await Promise.all(made.map((path) => rm(path, { recursive: true, force: true })));
    },
  };
}

/** Inverts one byte in the middle of the file: same size, other content. */
export async function changeOneByte(path: string): Promise<void> {
  const file = await open(path, 'r+');
  try {
    const { size } = await file.stat();
    const at = Math.floor(size / 2);
    const byte = Buffer.alloc(1);
    await file.read(byte, 0, 1, at);
    byte[0] = (byte[0] as number) ^ 0xff;
    await file.write(byte, 0, 1, at);
  } finally {
    await file.close();
  }
}
