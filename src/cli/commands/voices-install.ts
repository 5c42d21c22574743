// `raaga voices install <catalog-id>`: one command from a catalog entry to preset voices that speak with it.

import { LANGUAGE_CODES } from '../../languages.js';
import { optionalString, optionTable, parseLanguage, repeatedStrings } from '../arg-parsing.js';
import type { Subcommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { json } from '../render.js';
import { DEFAULT_KOKORO_MODEL, installCatalogVoice } from '../voice-install/catalog-install.js';
import { VoiceCatalogIndex } from '../voice-install/voice-catalog-entries.js';

export const installCommand: Subcommand = {
  name: 'install',
  help: `Usage: raaga voices install <catalog-id> [--voice <preset>]... [--language <code>] [--from <dir|base-url>]
                            [--model <kokoro-model-id>] [--accept-licence] [--json]

Installs a voice from 'raaga voices catalog' into <RAAGA_MODELS_DIR>/packs/<catalog-id>/: downloads it with a
progress bar (a broken download resumes on the next try), verifies the published checksum (a mismatch installs
nothing), checks that it loads and speaks a sentence in its language with its own engine (Flite, Piper, Kokoro),
and records it in the voice bank manifest for its preset voices in one step. Restart the server to use it.

Options:
  --voice <preset>    a preset voice to speak with it (repeatable); default: the entry's presets for the language
  --language <code>   ${LANGUAGE_CODES.join(', ')}; needed only when the entry speaks several
  --from <dir|url>    a local mirror (air-gapped sites): a directory or an http(s) base URL holding the files by name
  --model <id>        Kokoro voices: the model variant (default ${DEFAULT_KOKORO_MODEL}); installed with the first voice
  --accept-licence    install a voice whose licence does not allow (or does not clearly allow) commercial use`,
  options: optionTable({ strings: ['language', 'from', 'model'], flags: ['accept-licence', 'json'], repeated: ['voice'] }),
  positionals: 1,
  async run(parsed, ctx) {
    const id = parsed.positionals[0];
    if (id === undefined) throw new UsageError('give a catalog id (raaga voices catalog lists them)');
    const languageRaw = optionalString(parsed, 'language');
    const voices = repeatedStrings(parsed, 'voice');
    const result = await installCatalogVoice({
      modelsDir: ctx.modelsDir,
      catalog: VoiceCatalogIndex.load(ctx.env?.RAAGA_VOICE_CATALOG),
      id,
      voices: voices.length > 0 ? voices : undefined,
      language: languageRaw === undefined ? undefined : parseLanguage(languageRaw),
      from: optionalString(parsed, 'from'),
      model: optionalString(parsed, 'model'),
      acceptLicence: parsed.values['accept-licence'] === true,
      progress: process.stderr,
    });
    if (parsed.values.json) {
      ctx.out(json(result));
      return;
    }
    ctx.out(
      [
        `Installed ${result.id} (${result.engine}, ${result.language}): it spoke a test sentence of ${(result.trial.durationMs / 1000).toFixed(1)} s at ${result.trial.sampleRateHz} Hz.`,
        ...result.files.map((file) => `  ${file.path}  ${(file.sizeBytes / 2 ** 20).toFixed(1)} MB  sha256 ${file.sha256}${file.reused ? '  (already installed)' : `  from ${file.source}`}`),
        `${result.voices.join(', ')} now speak${result.voices.length === 1 ? 's' : ''} ${result.language} with it. Restart the server to load it.`,
      ].join('\n'),
    );
  },
};
