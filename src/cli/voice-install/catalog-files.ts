// Brings one catalog file onto this machine for `raaga voices install`: reused when the installed copy already has
// the published digest, else taken from a local mirror (--from <dir>), a mirror URL (--from <base-url>), a copy
// that ships with an npm package (Kokoro's voices inside kokoro-js), or the file's own URL. Downloads resume from a
// `.part` file and are checked against the published digest; the result waits in the staging directory.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ProgressSink } from '../progress.js';
import { download, type Checksum } from './download.js';
import { DEFAULT_MAX_MODEL_BYTES } from './install-pack.js';
import type { CatalogEntry, CatalogFile } from './voice-catalog-entries.js';

export interface FetchedCatalogFile {
  readonly file: CatalogFile;
  /** Where it is now: its installed place (reused) or the staging directory (new). */
  readonly path: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly reused: boolean;
  /** Where it came from: 'installed', the mirror, the npm package, or its URL. */
  readonly source: string;
}

export interface FetchOptions {
  /** The installed place of this file (models/packs/<entry>/<name>). */
  readonly installedPath: string;
  /** Downloads land here (and keep their `.part` between tries). */
  readonly stagingDir: string;
  /** `--from`: a directory or an http(s) base URL holding the files by name. */
  readonly from?: string | undefined;
  readonly progress?: ProgressSink | undefined;
}

/** Hex digest of a file on disk. */
export async function digestOf(path: string, algorithm: Checksum['algorithm']): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether the file at `path` is the catalog's file: size and published digest (sha256 when none is published). */
async function matches(path: string, file: CatalogFile): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) return false;
  if (file.size_bytes !== null && info.size !== file.size_bytes) return false;
  if (file.checksum === null) return true;
  return (await digestOf(path, file.checksum.algorithm)) === file.checksum.value;
}

/**
 * Copies of catalog files that ship inside npm packages Raaga has (Kokoro's voices in kokoro-js, a development
 * dependency: absent after `npm ci --omit=dev`, and then the file is downloaded). Used only when its digest matches.
 */
function packagedCopy(entry: CatalogEntry, file: CatalogFile): string | undefined {
  if (entry.engine !== 'kokoro-voice') return undefined;
  try {
    // kokoro-js exports no package.json; its entry is dist/kokoro.*, its voices sit beside dist/.
    return join(dirname(createRequire(import.meta.url).resolve('kokoro-js')), '..', 'voices', file.name);
  } catch {
    return undefined;
  }
}

export async function fetchCatalogFile(entry: CatalogEntry, file: CatalogFile, options: FetchOptions): Promise<FetchedCatalogFile> {
  const checksum = file.checksum === null ? undefined : { algorithm: file.checksum.algorithm, hex: file.checksum.value };
  const finish = async (path: string, reused: boolean, source: string): Promise<FetchedCatalogFile> => {
    const info = await stat(path);
    return { file, path, sha256: await digestOf(path, 'sha256'), sizeBytes: info.size, reused, source };
  };
  if (await matches(options.installedPath, file)) return finish(options.installedPath, true, 'installed');
  if ((await stat(options.installedPath).catch(() => undefined)) !== undefined) {
    throw new Error(`${options.installedPath} exists but is not ${file.name} as the catalog publishes it (size or ${file.checksum?.algorithm ?? 'content'} differs); remove it and install again`);
  }
  const staged = join(options.stagingDir, file.name);
  const from = options.from;
  if (from !== undefined && !/^https?:\/\//i.test(from)) {
    const local = join(from, file.name);
    if (!(await stat(local).catch(() => undefined))?.isFile()) throw new Error(`${local} does not exist (--from ${from} must hold ${file.name})`);
    await copyFile(local, staged);
    if (!(await matches(staged, file))) {
      throw new Error(`${local} is not ${file.name} as the catalog publishes it (${file.size_bytes ?? '?'} bytes, ${file.checksum?.algorithm ?? 'no'} digest ${file.checksum?.value.slice(0, 16) ?? ''}…); nothing was installed`);
    }
    return finish(staged, false, local);
  }
  const packaged = from === undefined ? packagedCopy(entry, file) : undefined;
  if (packaged !== undefined && (await matches(packaged, file))) {
    await copyFile(packaged, staged);
    return finish(staged, false, packaged);
  }
  const url = from === undefined ? file.url : `${from.replace(/\/+$/, '')}/${file.name}`;
  await download(url, staged, {
    maxBytes: file.size_bytes ?? DEFAULT_MAX_MODEL_BYTES,
    checksum,
    resume: true,
    progress: options.progress,
    label: `downloading ${file.name}`,
  });
  if (file.size_bytes !== null && (await stat(staged)).size !== file.size_bytes) {
    throw new Error(`${url} gave ${(await stat(staged)).size} bytes, the catalog says ${file.size_bytes}; nothing was installed`);
  }
  return finish(staged, false, url);
}
