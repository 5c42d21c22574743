// Which flite build speaks (wasm/BUILD.json: the pinned source commit and the binary's SHA-256): cached audio keys on
// it. Kept apart from flite-wasm.ts so the server's main thread can name it without loading the module.

import { readFileSync } from 'node:fs';

interface BuildRecord {
  readonly source: string;
  readonly sha256: Readonly<Record<string, string>>;
}

const build = JSON.parse(readFileSync(new URL('./wasm/BUILD.json', import.meta.url), 'utf8')) as BuildRecord;
const commit = /\b([0-9a-f]{40})\b/.exec(build.source)?.[1] ?? 'unknown';

/** `2.3-current-<commit>/<wasm sha256, 16 hex>`: changes whenever the binary could speak differently. */
export const FLITE_BUILD_ID = `2.3-current-${commit.slice(0, 7)}/${(build.sha256['flite.wasm'] ?? 'unknown').slice(0, 16)}`;
