// `raaga say`: synthesizes text with the embedded engine directly (no server, no account) into an audio file,
// for trying voices and for scripts. Format comes from --format or the --out extension.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SynthesisService } from '../../core/synthesis/synthesis-service.js';
import { loadVoiceCatalog } from '../../core/voice-catalog.js';
import { EspeakEngine } from '../../engine/espeak-engine.js';
import { isLanguageCode, LANGUAGE_CODES } from '../../languages.js';
import { concatBytes } from '../../audio/bytes.js';
import { optionalString, parseCommandArgs, requireString } from '../arg-parsing.js';
import { fileFormatFor, FILE_RATES, type FileRate } from '../audio-file-format.js';
import { UsageError, wantsHelp, type Command } from '../cli-command.js';
import { createProgress, items } from '../progress.js';

type Rate = FileRate;
const RATES = FILE_RATES;

const HELP = `Usage: raaga say "<text>" --voice <name> --language <code> --out <file> [--format wav|mp3|pcm|mulaw] [--rate 24000] [--speed 1.0]

Synthesizes the text with the embedded engine and writes an audio file. The format defaults to the --out
extension (.wav, .mp3, .pcm, .ulaw/.mulaw), else wav. Voices: see 'GET /v1/voices' or models/raaga-v1/manifest.json.
Languages: ${LANGUAGE_CODES.join(', ')}.`;

export const sayCommand: Command = {
  name: 'say',
  summary: 'Synthesize text to an audio file with the embedded engine.',
  async run(args, ctx) {
    if (wantsHelp(args)) {
      ctx.out(HELP);
      return;
    }
    const parsed = parseCommandArgs(
      args,
      { voice: { type: 'string' }, language: { type: 'string' }, out: { type: 'string' }, format: { type: 'string' }, rate: { type: 'string' }, speed: { type: 'string' } },
      1,
    );
    const text = parsed.positionals[0];
    if (!text || text.trim() === '') throw new UsageError('the text to say is required', 'say');
    const voice = requireString(parsed, 'voice');
    const language = requireString(parsed, 'language');
    const out = requireString(parsed, 'out');
    if (!isLanguageCode(language)) throw new UsageError(`--language must be one of ${LANGUAGE_CODES.join(', ')}`, 'say');
    const rate = Number(optionalString(parsed, 'rate') ?? 24000);
    if (!(RATES as readonly number[]).includes(rate)) throw new UsageError(`--rate must be one of ${RATES.join(', ')}`, 'say');
    const speed = Number(optionalString(parsed, 'speed') ?? 1);
    if (!(speed >= 0.5 && speed <= 2)) throw new UsageError('--speed must be from 0.5 to 2.0', 'say');
    const format = fileFormatFor(out, optionalString(parsed, 'format'), 'say');

    const catalog = loadVoiceCatalog(join(ctx.modelsDir, 'raaga-v1', 'manifest.json'));
    const params = catalog.hasPair(voice, language) ? catalog.embeddedParams(voice) : undefined;
    if (!params) throw new UsageError(`unknown voice '${voice}'; voices: ${catalog.voices().map((v) => v.name).join(', ')}`, 'say');

    const engine = new EspeakEngine({ workers: 1, maxQueue: 16, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
    await engine.start();
    try {
      const utterance = new SynthesisService(engine, { firstChunkMaxChars: 300, maxChunkChars: 300 }).utterance({
        text,
        language,
        voice: { voiceName: voice, params, pitchShiftSemitones: 0, rateMultiplier: 1 },
        format,
        sampleRateHz: rate as Rate,
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
      ctx.out(`Wrote ${out}: ${format}, ${rate} Hz, ${(utterance.durationMs / 1000).toFixed(2)} s.`);
    } finally {
      await engine.close();
    }
  },
};
