// The engines Raaga builds from source (eSpeak NG in espeak/wasm/, Flite in flite/wasm/) ship with a BUILD.json that
// records each file's SHA-256. A file replaced by hand, truncated by a copy or lost on the way to a host would make
// the engine speak differently from what cached audio and the tests assume, or fail in a worker with an opaque trap;
// so before an engine runs, its files are held to that record and the first one that differs is named with the way
// to fix it. Read off the event loop (fs.promises) a few files at a time, once per directory per process (the files
// do not change under a running server), never per request. The files are small (eSpeak's 350 data files, the largest
// binary 1.3 MB, a few ms of hashing): a stream per file cost three times the whole check.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A build from source: where its files and their BUILD.json are, and the script that makes them again. */
export interface EngineBuild {
  /** The directory holding BUILD.json and the files it lists (names in its `sha256` are relative to it). */
  readonly dir: string;
  /** The script that rebuilds it, as an operator types it: `scripts/build-flite-wasm.sh`. */
  readonly rebuild: string;
}

/** The first file of a build that is not what its BUILD.json records. */
export interface BuildMismatch {
  /** The file, absolute (BUILD.json itself when the record cannot be read). */
  readonly file: string;
  /** One line naming the file, what differs and what to do. */
  readonly message: string;
}

/**
 * Another directory to check in place of a kind's own build, by kind (`espeak`, `flite`): tests hold a copy with one
 * byte changed to the same rule. The engines still load their own files; production passes none.
 */
export type EngineBuildDirs = Readonly<Record<string, string>>;

const HEX_SHA256 = /^[0-9a-f]{64}$/;
/** Files read at once: enough to keep the thread pool busy, few enough to leave it to others (DNS, the store). */
const HASHED_AT_ONCE = 8;
const checked = new Map<string, Promise<BuildMismatch | undefined>>();

/** Whole: every file of these builds is small (see above). */
async function sha256Of(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

/** The record's `sha256` map, or why it is not one. */
function fileHashes(record: unknown): Readonly<Record<string, string>> | string {
  const hashes = (record as { sha256?: unknown } | null)?.sha256;
  if (typeof hashes !== 'object' || hashes === null || Array.isArray(hashes)) return 'has no sha256 record of its files';
  const entries = Object.entries(hashes as Record<string, unknown>);
  if (entries.length === 0) return 'lists no files';
  const bad = entries.find(([, value]) => typeof value !== 'string' || !HEX_SHA256.test(value));
  if (bad !== undefined) return `records no SHA-256 for ${bad[0]}`;
  return hashes as Record<string, string>;
}

/** Why the listed file is not what the record says, or undefined when it is. */
async function fileMismatch(dir: string, recordPath: string, name: string, expected: string, fix: string): Promise<BuildMismatch | undefined> {
  const path = resolve(dir, name);
  const rest = relative(dir, path);
  if (rest === '' || rest === '..' || rest.startsWith(`..${sep}`) || isAbsolute(rest)) {
    return { file: recordPath, message: `${recordPath} lists ${name}, which is outside its directory: ${fix}` };
  }
  let actual: string;
  try {
    actual = await sha256Of(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'is missing' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${(error as Error).message})`;
    return { file: path, message: `${path} ${why}, though its BUILD.json lists it (sha256 ${expected}): ${fix}` };
  }
  if (actual !== expected) return { file: path, message: `${path} does not match its BUILD.json (sha256 ${actual}, BUILD.json says ${expected}): ${fix}` };
  return undefined;
}

async function check(build: EngineBuild): Promise<BuildMismatch | undefined> {
  const dir = resolve(build.dir);
  const recordPath = join(dir, 'BUILD.json');
  const fix = `rebuild with ${build.rebuild} or restore the file`;
  let record: unknown;
  try {
    record = JSON.parse(await readFile(recordPath, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : `cannot be read (${(error as Error).message})`;
    return { file: recordPath, message: `${recordPath} ${why}: ${fix}` };
  }
  const hashes = fileHashes(record);
  if (typeof hashes === 'string') return { file: recordPath, message: `${recordPath} ${hashes}: ${fix}` };
  // A few files at a time (eSpeak's data is 350 small ones), and named in the record's order: the same file on every host.
  const entries = Object.entries(hashes);
  for (let start = 0; start < entries.length; start += HASHED_AT_ONCE) {
    const answers = await Promise.all(entries.slice(start, start + HASHED_AT_ONCE).map(([name, expected]) => fileMismatch(dir, recordPath, name, expected, fix)));
    const first = answers.find((answer) => answer !== undefined);
    if (first !== undefined) return first;
  }
  return undefined;
}

/**
 * The first file of the build that is missing or differs from its BUILD.json, or undefined when every file matches.
 * Checked once per directory in this process; later calls get the same answer.
 */
export function checkBuildRecord(build: EngineBuild): Promise<BuildMismatch | undefined> {
  const key = resolve(build.dir);
  let answer = checked.get(key);
  if (answer === undefined) {
    answer = check(build);
    checked.set(key, answer);
  }
  return answer;
}

/** A kind's build checked where `dirs` says (a test's copy), else where it lives. */
export function checkEngineBuild(kind: string, build: EngineBuild, dirs: EngineBuildDirs = {}): Promise<BuildMismatch | undefined> {
  return checkBuildRecord({ ...build, dir: dirs[kind] ?? build.dir });
}
