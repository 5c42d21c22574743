// docs/configuration.md is what scripts/config-reference.ts makes from the schema in src/config.ts: a variable added,
// removed or redescribed without regenerating it (npx tsx scripts/config-reference.ts) fails here, and so does a
// variable some module reads from the environment that the schema (and so the page) does not have.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_REFERENCE_FILE, renderConfigReference, settingDoc } from '../../scripts/config-reference.js';
import { ConfigSchema, parseConfig, SETTING_GROUPS } from '../../src/config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const committed = readFileSync(join(root, CONFIG_REFERENCE_FILE), 'utf8');
const names = Object.keys(ConfigSchema.shape);

/** `| \`NAME\` | default | … |` rows of the committed page. */
const rows = [...committed.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*(?:\\\|[^|]*)*) \|/gm)].map((match) => ({ name: match[1]!, defaultCell: match[2]!.trim() }));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/configuration.md', () => {
  it('is up to date with the schema', () => {
    expect(committed).toBe(renderConfigReference());
  });

  it('has one row per variable of the schema, and no other', () => {
    expect(rows.map((row) => row.name).sort()).toEqual([...names].sort());
  });

  it('documents each variable in a group, with the default the schema applies', () => {
    const defaults = ConfigSchema.parse({});
    for (const name of names) {
      const doc = settingDoc(name);
      expect(Object.keys(SETTING_GROUPS)).toContain(doc.group);
      expect(doc.description.length).toBeGreaterThan(10);
      const value = (defaults as Record<string, unknown>)[name];
      const shown = rows.find((row) => row.name === name)!.defaultCell;
      // A plain default (a number, a word) is shown as itself, first; a variable without one reads "unset".
      if (typeof value === 'number' || (typeof value === 'string' && value !== '')) expect({ name, shown: shown.startsWith(`\`${value}\``) || shown.startsWith(String(value)) }).toEqual({ name, shown: true });
      if (value === undefined) expect({ name, shown: shown.startsWith('unset') }).toEqual({ name, shown: true });
    }
    expect(() => parseConfig({})).not.toThrow();
  });

  it('lists every variable a module of src/ reads from the environment', () => {
    const read = new Set(sourceFiles(join(root, 'src')).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\b(?:process\.env|env\??)\.([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]!)));
    expect([...read].filter((name) => !names.includes(name))).toEqual([]);
  });
});
