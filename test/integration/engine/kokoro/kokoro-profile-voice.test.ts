// The Kokoro-82M profile voice (fixtures/voices/lib/kokoro-profile-voice.ts) at an eighth of its width: it has
// Kokoro's contract, and its audio is finite, 600 samples per frame, and shorter at a higher speed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildKokoroProfileModel } from '../../../../fixtures/voices/lib/kokoro-profile-voice.js';
import { buildKokoroStyleFile } from '../../../../fixtures/voices/lib/kokoro-style-file.js';
import { KokoroSession } from '../../../../src/engine/kokoro/kokoro-session.js';
import { KokoroStyle } from '../../../../src/engine/kokoro/kokoro-style.js';
import { kokoroVoiceFiles, type KokoroVoiceFiles } from '../../../helpers/kokoro-voice-files.js';

let files: KokoroVoiceFiles;
let session: KokoroSession;
let parameters: number;
beforeAll(async () => {
  files = await kokoroVoiceFiles();
  const model = buildKokoroProfileModel({ widthDivisor: 8 });
  parameters = model.parameters;
  const path = join(files.dir, 'profile.onnx');
  await writeFile(path, model.bytes);
  session = await KokoroSession.create(path, { intraOpNumThreads: 1 });
});
afterAll(async () => {
  await session.release();
  await files.remove();
});

describe('Kokoro profile voice (thin copy)', () => {
  it('loads with Kokoro`s contract and speaks 600 finite samples per frame, fewer frames when faster', async () => {
    expect(parameters).toBeGreaterThan(1_000_000);
    const style = KokoroStyle.fromBytes(buildKokoroStyleFile(1), 'voice.bin');
    const ids = [0, ...Array.from({ length: 40 }, (_, i) => 43 + (i % 120)), 0];
    const normal = await session.run(ids, style.forTokens(40), 1);
    const fast = await session.run(ids, style.forTokens(40), 2);
    for (const samples of [normal, fast]) {
      expect(samples.length % 600).toBe(0);
      expect(samples.every(Number.isFinite)).toBe(true);
    }
    // At least one frame per token, and speed divides the durations.
    expect(normal.length).toBeGreaterThanOrEqual(600 * ids.length);
    expect(fast.length).toBeLessThan(normal.length);
  });
});
