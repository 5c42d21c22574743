// Directories that hold what a tenant must not read off the disk (the store, call-token secret, cached audio of
// OTPs and names) are the server user's alone: created 0700, and tightened to 0700 when they already exist.

import { chmodSync, mkdirSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export async function ensurePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(path, PRIVATE_DIR_MODE);
}

export function ensurePrivateDirSync(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(path, PRIVATE_DIR_MODE);
}
