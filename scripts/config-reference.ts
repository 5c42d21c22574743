// docs/configuration.md, made from the zod schema of src/config.ts: every environment variable with its default and the
// description its `.meta()` gives, grouped by concern. `npx tsx scripts/config-reference.ts` writes the file;
// test/unit/config-reference.test.ts fails while the committed file differs.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { ConfigSchema, SETTING_GROUPS, type SettingDoc } from '../src/config.js';

export const CONFIG_REFERENCE_FILE = 'docs/configuration.md';

/** The variable's documentation, as the schema carries it. */
export function settingDoc(name: string): SettingDoc {
  const schema = ConfigSchema.shape[name as keyof typeof ConfigSchema.shape] as z.ZodType;
  const meta = schema.meta() as Partial<SettingDoc> | undefined;
  if (meta?.group === undefined || meta.description === undefined) throw new Error(`${name} in src/config.ts has no .meta(doc(group, description))`);
  return meta as SettingDoc;
}

/** The default the schema applies, found through its wrappers (a transform's input, an optional, a default). */
function schemaDefault(schema: z.ZodType): { readonly has: boolean; readonly value?: unknown } {
  const def = schema.def as { type: string; defaultValue?: unknown; innerType?: z.ZodType; in?: z.ZodType };
  if (def.type === 'default') return { has: true, value: def.defaultValue };
  if (def.type === 'pipe' && def.in) return schemaDefault(def.in);
  return { has: false };
}

function defaultCell(name: string): string {
  const doc = settingDoc(name);
  if (doc.defaultText !== undefined) return doc.defaultText;
  const found = schemaDefault(ConfigSchema.shape[name as keyof typeof ConfigSchema.shape] as z.ZodType);
  if (!found.has) return 'unset';
  if (found.value === '') return 'empty';
  return `\`${String(found.value)}\``;
}

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replaceAll('\n', ' ').replaceAll('|', '\\|');
}

export function renderConfigReference(): string {
  const names = Object.keys(ConfigSchema.shape);
  const sections = Object.entries(SETTING_GROUPS).flatMap(([group, title]) => {
    const mine = names.filter((name) => settingDoc(name).group === group);
    if (mine.length === 0) return [];
    return ['', `## ${title}`, '', '| Variable | Default | What it does |', '|---|---|---|', ...mine.map((name) => `| \`${name}\` | ${cell(defaultCell(name))} | ${cell(settingDoc(name).description)} |`)];
  });
  return [
    '# Configuration: every environment variable',
    '',
    'For operators: everything Raaga reads from its environment, read once at start and checked (a bad value stops the',
    'server with a message naming the variable). An empty value (`VAR=`) counts as unset. The CLI reads the same',
    'variables. Generated from the schema in `src/config.ts` by `npx tsx scripts/config-reference.ts`: edit the schema,',
    'not this page (a test fails while they differ).',
    ...sections,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL(`../${CONFIG_REFERENCE_FILE}`, import.meta.url), renderConfigReference());
  console.log(`wrote ${CONFIG_REFERENCE_FILE}`);
}
