// Which flite build speaks (wasm/BUILD.json: the pinned source commit and the binary's SHA-256): cached audio keys on
// it, and the server holds the files to that record before a Flite pack is used or installed. Kept apart from
// flite-wasm.ts so the server's main thread can name it without loading the module.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EngineBuild } from '../build-record-check.js';

interface BuildRecord {
  readonly source: string;
  readonly sha256: Readonly<Record<string, string>>;
}

/** The build's files and their BUILD.json (build-record-check.ts), and the script that makes them. */
export const FLITE_BUILD_FILES: EngineBuild = { dir: fileURLToPath(new URL('./wasm/', import.meta.url)), rebuild: 'scripts/build-flite-wasm.sh' };

const build = JSON.parse(readFileSync(new URL('./wasm/BUILD.json', import.meta.url), 'utf8')) as BuildRecord;
const commit = /\b([0-9a-f]{40})\b/.exec(build.source)?.[1] ?? 'unknown';

/** `2.3-current-<commit>/<wasm sha256, 16 hex>`: changes whenever the binary could speak differently. */
export const FLITE_BUILD_ID = `2.3-current-${commit.slice(0, 7)}/${(build.sha256['flite.wasm'] ?? 'unknown').slice(0, 16)}`;
