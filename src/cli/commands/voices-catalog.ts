// `raaga voices catalog`: every public voice Raaga knows how to install, with its engine, languages, gender,
// licence (and whether it allows commercial use), size, checksum, quality figure and the presets it speaks for.

import { PACK_ENGINE_KINDS } from '../../engine/engines.js';
import { LANGUAGE_CODES } from '../../languages.js';
import { oneOf, optionalString, parseLanguage } from '../arg-parsing.js';
import type { Subcommand } from '../cli-command.js';
import { json, table } from '../render.js';
import { VoiceCatalogIndex, type CatalogEntry } from '../voice-install/voice-catalog-entries.js';

// The engine kinds this Raaga has (engine/engines.ts): a new kind's voices are listed with no change here.
const ENGINES = PACK_ENGINE_KINDS;

function sizeOf(entry: CatalogEntry): string {
  const sizes = entry.files.map((file) => file.size_bytes);
  if (sizes.some((size) => size === null)) return 'unknown';
  const bytes = sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0);
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function commercial(entry: CatalogEntry): string {
  return entry.licence.commercial_use === true ? 'yes' : entry.licence.commercial_use === false ? 'NO' : 'unclear';
}

export const catalogCommand: Subcommand = {
  name: 'catalog',
  help: `Usage: raaga voices catalog [--language <code>] [--engine ${ENGINES.join('|')}] [--json]

Every public voice Raaga can install with 'raaga voices install <id>': engine, languages, gender, licence and
whether it allows commercial use, download size, the published checksum it is verified against, the published
quality figure where one exists, and the preset voices it speaks for by default. Sources: docs/notes/voice-catalog-sources.md.
RAAGA_VOICE_CATALOG names a JSON file of your own entries (same fields), listed after Raaga's.

Options:
  --language <code>  only voices of ${LANGUAGE_CODES.join(', ')}
  --engine <kind>    only ${ENGINES.join(', ')} (kokoro lists its voices and its model variants)
  --json             the entries as JSON`,
  options: { language: { type: 'string' }, engine: { type: 'string' }, json: { type: 'boolean' } },
  async run(parsed, ctx) {
    const languageRaw = optionalString(parsed, 'language');
    const language = languageRaw === undefined ? undefined : parseLanguage(languageRaw);
    const engineRaw = optionalString(parsed, 'engine');
    const engine = engineRaw === undefined ? undefined : oneOf(engineRaw, 'engine', ENGINES);
    const entries = VoiceCatalogIndex.load(ctx.env?.RAAGA_VOICE_CATALOG).entries.filter(
      (entry) => (language === undefined || entry.languages.includes(language)) && (engine === undefined || entry.engine.split('-')[0] === engine),
    );
    if (parsed.values.json) {
      ctx.out(json(entries));
      return;
    }
    ctx.out(
      table(
        ['ID', 'ENGINE', 'LANGUAGES', 'GENDER', 'LICENCE', 'COMMERCIAL', 'SIZE', 'CHECKSUM', 'QUALITY', 'PRESETS'],
        entries.map((entry) => [
          entry.id,
          entry.engine,
          entry.languages.join(','),
          entry.gender ?? '?',
          entry.licence.spdx ?? entry.licence.name.split(' (')[0] ?? '',
          commercial(entry),
          sizeOf(entry),
          entry.files.every((file) => file.checksum !== null) ? (entry.files[0]?.checksum?.algorithm ?? '') : 'none published',
          entry.quality ? `${entry.quality.metric ?? ''} ${entry.quality.value}`.trim() : '-',
          Object.entries(entry.presets)
            .map(([code, presets]) => `${code}: ${presets.join(' ')}`)
            .join('; ') || '-',
        ]),
      ),
    );
  },
};
