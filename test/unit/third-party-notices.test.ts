// The committed THIRD-PARTY-NOTICES.md is what scripts/third-party-notices.ts makes from package.json, the engines'
// BUILD.json and the voice catalog: a dependency, an engine build or a catalog voice added without regenerating it
// (npx tsx scripts/third-party-notices.ts) fails here.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NOTICES_FILE, renderThirdPartyNotices } from '../../scripts/third-party-notices.js';

describe('THIRD-PARTY-NOTICES.md', () => {
  it('is up to date with the dependencies, the engine builds and the catalog', () => {
    const committed = readFileSync(new URL(`../../${NOTICES_FILE}`, import.meta.url), 'utf8');
    expect(committed).toBe(renderThirdPartyNotices());
  });

  it('names every runtime dependency and the GPL engine', () => {
    const text = renderThirdPartyNotices();
    const own = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of Object.keys(own.dependencies)) expect(text).toContain(`| ${name} `);
    expect(text).toMatch(/espeak-ng .* \| GPL-3\.0-or-later \|/);
  });
});
