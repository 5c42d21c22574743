// `raaga voices add <file|dir|url>...`: installs a voice pack of any engine kind (a Flite .flitevox, a Piper model and
// its sidecar, a Kokoro model and voice) for one preset voice in one language, through the kind's own trial.

import { PACK_ENGINE_KINDS, PACK_ENGINES } from '../../engine/engines.js';
import { LANGUAGE_CODES } from '../../languages.js';
import { oneOf, optionalString, optionTable, parseLanguage, parseNumberInRange, requireString } from '../arg-parsing.js';
import type { Subcommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { json } from '../render.js';
import { DEFAULT_MAX_MODEL_BYTES, installPack } from '../voice-install/install-pack.js';
import { packShapes } from '../voice-install/pack-layout.js';

export const addVoicePack: Subcommand = {
  name: 'add',
  help: `Usage: raaga voices add <file|dir|url>... --voice <name> --language <code> [--engine <kind>] [--speaker N] [--sha256 HEX] [--max-size MB] [--name NAME] [--json]

Installs a voice pack into <RAAGA_MODELS_DIR>/packs/<name>/ and records it in the voice bank manifest, so that preset
voice speaks that language with it. The files given make the pack of the engine kind whose files they are
(${packShapes(PACK_ENGINES)}): a file, a directory holding them, or http(s) URLs (a Piper sidecar is
fetched from <url>.json, a MODEL_CARD from the same directory; a plain http URL needs --sha256; redirects are followed
only to https, or with --sha256 to http). Links are not followed: a symbolic link given or found in the directory is
refused. The pack must load and speak a sentence in the language with its own engine before it is recorded.
Restart the server to load it.

Options:
  --voice <name>     preset voice_name from the catalog (required)
  --language <code>  ${LANGUAGE_CODES.join(', ')} (required)
  --engine <kind>    ${PACK_ENGINE_KINDS.join(', ')}: when the files could make a pack of several
  --speaker N        Piper: the speaker id (or name) in a multi-speaker model (default 0)
  --sha256 HEX       expected SHA-256 of the pack's main file; the install fails on a mismatch (required for http URLs)
  --max-size MB      refuse a main file larger than this (default: the kind's own bound, ${DEFAULT_MAX_MODEL_BYTES / 1024 ** 2} MB for a model)
  --name NAME        directory under packs/ (default: the main file's or the directory's name)

Each voice carries its own licence (see its MODEL_CARD): several Indian voices are non-commercial.`,
  options: optionTable({ strings: ['voice', 'language', 'engine', 'speaker', 'sha256', 'max-size', 'name'], flags: ['json'] }),
  positionals: 8,
  async run(parsed, ctx) {
    if (parsed.positionals.length === 0) throw new UsageError("give the pack's file, its directory or an http(s) URL");
    const voiceName = requireString(parsed, 'voice');
    const language = parseLanguage(requireString(parsed, 'language'));
    const engineRaw = optionalString(parsed, 'engine');
    const engine = engineRaw === undefined ? undefined : oneOf(engineRaw, 'engine', PACK_ENGINE_KINDS);
    const sha256 = optionalString(parsed, 'sha256')?.toLowerCase();
    if (sha256 !== undefined && !/^[0-9a-f]{64}$/.test(sha256)) throw new UsageError('--sha256 must be 64 hex digits');
    const maxSizeRaw = optionalString(parsed, 'max-size');
    const maxBytes = maxSizeRaw === undefined ? undefined : Math.round(parseNumberInRange(maxSizeRaw, 'max-size', 0.001, 100_000) * 1024 ** 2);

    const result = await installPack({
      modelsDir: ctx.modelsDir,
      sources: parsed.positionals,
      voiceName,
      language,
      engine,
      flags: { speaker: optionalString(parsed, 'speaker') },
      expectedSha256: sha256,
      maxBytes,
      name: optionalString(parsed, 'name'),
      progress: process.stderr,
    });
    if (parsed.values.json) {
      const { details, ...rest } = result;
      ctx.out(json({ ...rest, ...details }));
      return;
    }
    const spoke = `it spoke a test sentence of ${(result.trial.durationMs / 1000).toFixed(1)} s at ${result.trial.sampleRateHz} Hz`;
    ctx.out(
      [
        `${result.reused ? 'Reused' : 'Installed'} voice pack ${result.name} (${result.engine}${result.summary === undefined ? '' : `, ${result.summary}`}) in ${ctx.modelsDir}/packs/${result.name}/: ${spoke}.`,
        `${voiceName} in ${language} now speaks with it; sha256 ${result.sha256}.`,
        "Restart the server to load it. Check the voice's licence (its MODEL_CARD) before commercial use.",
      ].join('\n'),
    );
  },
};
