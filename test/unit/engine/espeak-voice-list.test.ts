// eSpeak lists every voice file each time it looks a voice up, and warns (and leaves voices out) past 349. An
// instance holds only the language voices of its languages, so with the variants the engine writes for every preset
// and custom voice it stays well under the limit: no warning, every language's voice found.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEspeakModule } from '../../../src/engine/espeak/espeak-build.js';
import { ESPEAK_VARIANT_DIR } from '../../../src/engine/espeak/espeak-variant.js';
import { DEFAULT_ESPEAK_LANGUAGE_IDS } from '../../../src/engine/espeak/espeak-languages.js';

afterEach(() => vi.restoreAllMocks());

describe('eSpeak voice list', () => {
  it('stays under eSpeak’s limit with a hundred variants written: no warning, every language found', async () => {
    const warn = vi.spyOn(console, 'warn');
    const glue = await createEspeakModule();
    for (let i = 0; i < 100; i++) glue.fs.writeFile(`${ESPEAK_VARIANT_DIR}raaga-test-${i}`, `language variant\nname raaga-test-${i}\npitch 80 120\n`);
    for (const id of Object.values(DEFAULT_ESPEAK_LANGUAGE_IDS)) {
      expect(glue.setVoice(`${id}+raaga-test-7`), id).toBe(0);
    }
    expect(warn.mock.calls.flat().join('\n')).not.toContain('maximum number');
  });
});
