// `raaga voices add <dir-or-url>`: installs a Piper/VITS voice pack for one preset voice in one language.

import { LANGUAGE_CODES } from '../../languages.js';
import { optionalString, optionTable, parseLanguage, parseNumberInRange, requireString } from '../arg-parsing.js';
import type { Subcommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { json } from '../render.js';
import { DEFAULT_MAX_MODEL_BYTES, installPack } from '../voice-packs/install-pack.js';

export const addVoicePack: Subcommand = {
  name: 'add',
  help: `Usage: raaga voices add <dir-or-url> --voice <name> --language <code> [--speaker N] [--sha256 HEX] [--max-size MB] [--name NAME] [--json]

Installs a Piper/VITS ONNX voice pack (model .onnx + its .onnx.json sidecar) into <RAAGA_MODELS_DIR>/packs/<name>/
and records it in the voice bank manifest, so that preset voice speaks that language with the neural voice.
The source is a directory holding one .onnx and its .onnx.json, or an https URL of the .onnx (the sidecar is
fetched from <url>.json, a MODEL_CARD from the same directory); a plain http URL needs --sha256. Redirects are
followed only to https (or, with --sha256, to http). Restart the server to load it.

Options:
  --voice <name>     preset voice_name from the catalog (required)
  --language <code>  ${LANGUAGE_CODES.join(', ')} (required)
  --speaker N        speaker id (or name) in a multi-speaker model (default 0)
  --sha256 HEX       expected SHA-256 of the .onnx; the install fails on a mismatch (required for http URLs)
  --max-size MB      refuse a model larger than this (default ${DEFAULT_MAX_MODEL_BYTES / 1024 ** 2} MB)
  --name NAME        directory under packs/ (default: the model's file or directory name)

Each voice carries its own licence (see its MODEL_CARD): several Indian voices are non-commercial.`,
  options: optionTable({ strings: ['voice', 'language', 'speaker', 'sha256', 'max-size', 'name'], flags: ['json'] }),
  positionals: 1,
  async run(parsed, ctx) {
    const source = parsed.positionals[0];
    if (source === undefined) throw new UsageError('give a pack directory or an http(s) URL');
    const voiceName = requireString(parsed, 'voice');
    const language = parseLanguage(requireString(parsed, 'language'));
    const sha256 = optionalString(parsed, 'sha256')?.toLowerCase();
    if (sha256 !== undefined && !/^[0-9a-f]{64}$/.test(sha256)) throw new UsageError('--sha256 must be 64 hex digits');
    const speaker = optionalString(parsed, 'speaker');
    const name = optionalString(parsed, 'name');
    const maxSizeRaw = optionalString(parsed, 'max-size');
    const maxModelBytes = maxSizeRaw === undefined ? undefined : Math.round(parseNumberInRange(maxSizeRaw, 'max-size', 0.001, 100_000) * 1024 ** 2);

    const result = await installPack({
      modelsDir: ctx.modelsDir,
      source,
      voiceName,
      language,
      ...(speaker === undefined ? {} : { speaker }),
      ...(sha256 === undefined ? {} : { expectedSha256: sha256 }),
      ...(name === undefined ? {} : { name }),
      ...(maxModelBytes === undefined ? {} : { maxModelBytes }),
      progress: process.stderr,
    });
    if (parsed.values.json) {
      ctx.out(json(result));
      return;
    }
    const phonemes = result.phonemeType === 'espeak' ? `eSpeak '${result.espeakVoice ?? '?'}' phonemes` : 'character tokens';
    ctx.out(
      [
        `${result.reused ? 'Reused' : 'Installed'} voice pack ${result.name} (${result.sampleRateHz} Hz, ${phonemes}, ${result.numSpeakers} speaker${result.numSpeakers === 1 ? '' : 's'}) in ${ctx.modelsDir}/packs/${result.name}/.`,
        `${voiceName} in ${language} now uses speaker ${result.speakerId} of it; sha256 ${result.sha256}.`,
        'Restart the server to load it. Check the voice\'s licence (its MODEL_CARD) before commercial use.',
      ].join('\n'),
    );
  },
};
