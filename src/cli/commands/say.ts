// `raaga say`: synthesizes text on this machine (no server, no account) into an audio file, for trying voices and for
// scripts, with the engine the server would use for the voice and language: an installed pack's (Flite, Kokoro,
// Piper), else the embedded eSpeak NG. Format comes from --format or the --out extension.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildVoiceEngine, type EngineReport } from '../../build-voice-engine.js';
import { parseConfig } from '../../config.js';
import { SynthesisService } from '../../core/synthesis/synthesis-service.js';
import { loadVoiceCatalog } from '../../core/voice-catalog.js';
import { PACK_ENGINE_KINDS } from '../../engine/engines.js';
import { ESPEAK_ENGINE_KIND } from '../../engine/espeak-engine.js';
import { LANGUAGE_CODES } from '../../languages.js';
import { concatBytes } from '../../audio/bytes.js';
import { oneOf, optionalString, parseLanguage, parseNumberInRange, requireString } from '../arg-parsing.js';
import { fileFormatFor, fileRateFor } from '../audio-file-format.js';
import { singleCommand, type CliContext } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { suggestion } from '../nearest-choice.js';
import { createProgress, items } from '../progress.js';

/** `auto`: the server's choice; `espeak`: the embedded engine even where a pack is installed; a pack kind: that one or fail. */
const ENGINE_CHOICES = ['auto', ESPEAK_ENGINE_KIND, ...PACK_ENGINE_KINDS] as const;

const HELP = `Usage: raaga say "<text>" --voice <name> --language <code> --out <file> [--engine <kind>]
                 [--format wav|mp3|pcm|mulaw|alaw|opus] [--rate 24000] [--speed 1.0]

Synthesizes the text on this machine and writes an audio file, with the engine the server would use for that voice
and language: an installed voice pack's ('raaga voices list' shows which), else the embedded eSpeak NG. The format
defaults to the --out extension (.wav, .mp3, .pcm, .ulaw/.mulaw, .alaw/.al, .opus/.ogg), else wav.

Options:
  --voice <name>     a preset voice (GET /v1/voices, or models/raaga-v1/manifest.json) (required)
  --language <code>  ${LANGUAGE_CODES.join(', ')} (required)
  --out <file>       the audio file to write (required)
  --engine <kind>    auto (default: as the server), ${ESPEAK_ENGINE_KIND} (the embedded engine even where a pack is installed),
                     or ${PACK_ENGINE_KINDS.join(', ')}: that pack's engine, an error when it does not speak the pair
  --format <format>  wav, mp3, pcm, mulaw, alaw or opus (default: from --out)
  --rate <Hz>        8000, 16000, 24000 (default) or 48000
  --speed <x>        0.5 to 2.0 (default 1.0)`;

/** Pack warnings as plain lines on stderr (a CLI user reads them; the server logs them as JSON). */
function stderrReport(ctx: CliContext): EngineReport {
  return {
    warn: (fields, message) => {
      const { pack, reason } = fields as { pack?: string; reason?: string };
      ctx.err(`raaga say: ${message}${pack === undefined ? '' : `: ${pack}`}${reason === undefined ? '' : ` (${reason})`}`);
    },
    debug: () => undefined,
  };
}

export const sayCommand = singleCommand('say', COMMAND_SUMMARIES.say, {
  help: HELP,
  options: {
    voice: { type: 'string' },
    language: { type: 'string' },
    out: { type: 'string' },
    engine: { type: 'string' },
    format: { type: 'string' },
    rate: { type: 'string' },
    speed: { type: 'string' },
  },
  positionals: 1,
  async run(parsed, ctx) {
    const text = parsed.positionals[0];
    if (!text || text.trim() === '') throw new UsageError('the text to say is required: raaga say "<text>" --voice … --language … --out …');
    const voice = requireString(parsed, 'voice');
    const language = parseLanguage(requireString(parsed, 'language'));
    const out = requireString(parsed, 'out');
    const engineChoice = oneOf(optionalString(parsed, 'engine') ?? 'auto', 'engine', ENGINE_CHOICES);
    const rate = fileRateFor(optionalString(parsed, 'rate'));
    const speedArg = optionalString(parsed, 'speed');
    const speed = speedArg === undefined ? 1 : parseNumberInRange(speedArg, 'speed', 0.5, 2);
    const format = fileFormatFor(out, optionalString(parsed, 'format'));

    const catalog = loadVoiceCatalog(join(ctx.modelsDir, 'raaga-v1', 'manifest.json'));
    const names = catalog.voices().map((v) => v.name);
    if (!catalog.hasPair(voice, language)) {
      throw new UsageError(names.includes(voice) ? `${voice} does not speak ${language}` : `--voice: unknown voice '${voice}'${suggestion(voice, names, 20)}`);
    }

    // One worker of each kind: one utterance needs no more, and a pack loads once.
    const config = { ...(ctx.config ?? parseConfig(ctx.env ?? {})), ttsWorkers: 1, onnxWorkers: 1 };
    const engine = await buildVoiceEngine(config, catalog, stderrReport(ctx), { embeddedOnly: engineChoice === ESPEAK_ENGINE_KIND });
    await engine.start();
    try {
      const kind = engine.kindFor(voice, language);
      if (engineChoice !== 'auto' && kind !== engineChoice) {
        throw new UsageError(
          `--engine ${engineChoice}: ${voice} speaks ${language} with ${kind} here (no working ${engineChoice} pack for it); install one (raaga voices catalog --engine ${engineChoice} --language ${language}) or leave --engine out`,
        );
      }
      const utterance = new SynthesisService(engine, { firstChunkMaxChars: 300, maxChunkChars: 300 }).utterance({
        text,
        language,
        voice: { voiceName: voice, pitchShiftSemitones: 0, rateMultiplier: 1 },
        format,
        sampleRateHz: rate,
        speed,
        mode: 'complete',
      });
      const parts: Uint8Array[] = [];
      // A long text takes a while: show its chunks (sentences and clauses) on stderr, stdout stays the summary.
      const progress = utterance.chunks.length > 1 ? createProgress(process.stderr, 'synthesizing', utterance.chunks.length, { unit: items('chunks') }) : undefined;
      let chunksShown = 0;
      const showChunks = (): void => {
        progress?.advance(utterance.chunksDone - chunksShown);
        chunksShown = utterance.chunksDone;
      };
      // Polled: a whole-file format (wav, mp3) yields its bytes only at the end, but chunks finish all along.
      const ticker = progress ? setInterval(showChunks, 100) : undefined;
      try {
        for await (const bytes of utterance.audio(new AbortController().signal)) parts.push(bytes);
      } finally {
        clearInterval(ticker);
      }
      showChunks();
      progress?.done();
      await writeFile(out, concatBytes(parts));
      ctx.out(`Wrote ${out}: ${format}, ${rate} Hz, ${(utterance.durationMs / 1000).toFixed(2)} s, spoken by ${kind}.`);
    } finally {
      await engine.close();
    }
  },
});
