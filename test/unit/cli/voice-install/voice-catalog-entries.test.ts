// The catalog entry schema on an operator's catalog file (RAAGA_VOICE_CATALOG): file names are plain names, and
// `.` and `..`, which pass the character class but name directories, are refused naming the field.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogEntry, VoiceCatalogIndex } from '../../../../src/cli/voice-install/voice-catalog-entries.js';

let dir: string;
let shipped: CatalogEntry;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-catalog-entries-'));
  const entries = JSON.parse(await readFile(new URL('../../../../src/cli/voice-install/catalog-entries.json', import.meta.url), 'utf8')) as CatalogEntry[];
  shipped = entries[0] as CatalogEntry;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An operator catalog holding one copy of a shipped entry whose first file is called `name`. */
async function catalogWithFileName(name: string): Promise<string> {
  const [first, ...rest] = shipped.files;
  const entry = { ...shipped, id: 'operator-voice', files: [{ ...first, name }, ...rest] };
  const path = join(dir, `catalog-${name.length}-${Buffer.from(name).toString('hex')}.json`);
  await writeFile(path, JSON.stringify([entry]));
  return path;
}

describe('catalog file names', () => {
  it.each(['.', '..'])('%s is refused, naming the field', async (name) => {
    const path = await catalogWithFileName(name);
    expect(() => VoiceCatalogIndex.load(path)).toThrow(`voice catalog ${path} is invalid: 0.files.0.name: a plain file name, not . or ..`);
  });

  it.each(['../model.onnx', 'a/b.onnx', ''])('%j is refused as not a plain file name', async (name) => {
    const path = await catalogWithFileName(name);
    expect(() => VoiceCatalogIndex.load(path)).toThrow(/0\.files\.0\.name: a plain file name/);
  });

  it.each(['model.onnx', '...', '.hidden', 'hf_alpha.bin'])('%s is accepted', async (name) => {
    const path = await catalogWithFileName(name);
    expect(VoiceCatalogIndex.load(path).entry('operator-voice')?.files[0]?.name).toBe(name);
  });
});
