// `raaga say`: synthesizes text with the embedded engine directly (no server, no account) into an audio file,
// for trying voices and for scripts. Format comes from --format or the --out extension.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SynthesisService } from '../../core/synthesis/synthesis-service.js';
import { loadVoiceCatalog } from '../../core/voice-catalog.js';
import { EspeakEngine } from '../../engine/espeak-engine.js';
import { LANGUAGE_CODES } from '../../languages.js';
import { concatBytes } from '../../audio/bytes.js';
import { optionalString, parseCommandArgs, parseLanguage, parseNumberInRange, requireString } from '../arg-parsing.js';
import { fileFormatFor, fileRateFor } from '../audio-file-format.js';
import { singleCommand, UsageError } from '../cli-command.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { createProgress, items } from '../progress.js';

const HELP = `Usage: raaga say "<text>" --voice <name> --language <code> --out <file> [--format wav|mp3|pcm|mulaw|alaw|opus] [--rate 24000] [--speed 1.0]

Synthesizes the text with the embedded engine and writes an audio file. The format defaults to the --out
extension (.wav, .mp3, .pcm, .ulaw/.mulaw, .alaw/.al, .opus/.ogg), else wav. Voices: see 'GET /v1/voices' or models/raaga-v1/manifest.json.
Languages: ${LANGUAGE_CODES.join(', ')}.`;

export const sayCommand = singleCommand('say', COMMAND_SUMMARIES.say, {
  help: HELP,
  async run(args, ctx) {
    const parsed = parseCommandArgs(
      args,
      { voice: { type: 'string' }, language: { type: 'string' }, out: { type: 'string' }, format: { type: 'string' }, rate: { type: 'string' }, speed: { type: 'string' } },
      1,
    );
    const text = parsed.positionals[0];
    if (!text || text.trim() === '') throw new UsageError('the text to say is required');
    const voice = requireString(parsed, 'voice');
    const language = parseLanguage(requireString(parsed, 'language'));
    const out = requireString(parsed, 'out');
    const rate = fileRateFor(optionalString(parsed, 'rate'));
    const speedArg = optionalString(parsed, 'speed');
    const speed = speedArg === undefined ? 1 : parseNumberInRange(speedArg, 'speed', 0.5, 2);
    const format = fileFormatFor(out, optionalString(parsed, 'format'));

    const catalog = loadVoiceCatalog(join(ctx.modelsDir, 'raaga-v1', 'manifest.json'));
    if (!catalog.hasPair(voice, language)) throw new UsageError(`unknown voice '${voice}'; voices: ${catalog.voices().map((v) => v.name).join(', ')}`);

    const engine = new EspeakEngine({ workers: 1, maxQueue: 16, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
    await engine.start();
    try {
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
      ctx.out(`Wrote ${out}: ${format}, ${rate} Hz, ${(utterance.durationMs / 1000).toFixed(2)} s.`);
    } finally {
      await engine.close();
    }
  },
});
