// `raaga speak`: synthesizes text on a running Raaga server through the TypeScript client (raaga/client), over
// HTTP generate, HTTP stream or a WebSocket session, with the client's retries, and writes the audio to a file.
// Progress (seconds of audio, or sentences over the WebSocket) goes to stderr: a bar on a terminal, lines otherwise.

import { writeFile } from 'node:fs/promises';
import { MP3_KBPS } from '../../audio/mp3-encoder.js';
import { OPUS_KBPS } from '../../audio/ogg-opus-encoder.js';
import { RaagaApiError, RaagaClient, type SynthesisRequest } from '../../client/index.js';
import { LANGUAGE_CODES } from '../../languages.js';
import { oneOf, optionalString, optionTable, parseLanguage, parseNumberInRange, requireString } from '../arg-parsing.js';
import { fileFormatFor, fileRateFor, type FileFormat } from '../audio-file-format.js';
import { singleCommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { createProgress, items, SECONDS } from '../progress.js';

const MODES = ['generate', 'stream', 'websocket'] as const;
type Mode = (typeof MODES)[number];

const HELP = `Usage: raaga speak "<text>" --url <base> --voice <name> --language <code> --out <file> [options]

Synthesizes the text on a running Raaga server (with the TypeScript client, retrying as the API asks: after
Retry-After on 429, with backoff on 503) and writes the audio to a file.

Options:
  --url <base>            Server base URL, e.g. http://localhost:8080 (required)
  --key <API key>         The API key; prefer the RAAGA_API_KEY environment variable (arguments show in ps)
  --mode <mode>           generate, stream (default) or websocket (one text message per sentence; pcm only)
  --format <format>       wav, mp3, pcm, mulaw, alaw or opus (Ogg/Opus) (default: from the --out extension, else wav)
  --rate <Hz>             8000, 16000, 24000 (default) or 48000
  --speed <x>             0.5 to 2.0 (default 1.0)
Languages: ${LANGUAGE_CODES.join(', ')}.`;

/** Bytes of one second of audio, to turn a byte count into seconds for the progress display. */
function bytesPerSecond(format: FileFormat, rateHz: number): number {
  if (format === 'mp3') return ((MP3_KBPS[rateHz] ?? 64) * 1000) / 8;
  // Opus is VBR: its target bitrate is near enough for a progress display.
  if (format === 'opus') return ((OPUS_KBPS[rateHz] ?? 32) * 1000) / 8;
  return format === 'mulaw' || format === 'alaw' ? rateHz : rateHz * 2;
}

/** Sentences for the WebSocket, which takes one sentence per `text` message. */
function splitSentences(text: string): string[] {
  return (text.match(/[^.?!।॥\n]+[.?!।॥]*/g) ?? []).map((sentence) => sentence.trim()).filter((sentence) => sentence !== '');
}

export const speakCommand = singleCommand('speak', COMMAND_SUMMARIES.speak, {
  help: HELP,
  options: optionTable({ strings: ['url', 'key', 'mode', 'voice', 'language', 'out', 'format', 'rate', 'speed'] }),
  positionals: 1,
  async run(parsed, ctx) {
    const text = parsed.positionals[0];
    if (!text || text.trim() === '') throw new UsageError('the text to speak is required');
    const baseUrl = requireString(parsed, 'url');
    const apiKey = optionalString(parsed, 'key') ?? ctx.env?.RAAGA_API_KEY;
    if (!apiKey) throw new UsageError('an API key is required: set RAAGA_API_KEY or pass --key');
    const language = parseLanguage(requireString(parsed, 'language'));
    const out = requireString(parsed, 'out');
    const mode: Mode = oneOf(optionalString(parsed, 'mode') ?? 'stream', 'mode', MODES);
    const format = fileFormatFor(out, optionalString(parsed, 'format'));
    if (mode === 'websocket' && format !== 'pcm') throw new UsageError('--mode websocket writes raw pcm: use --format pcm (or a .pcm file)');
    const rate = fileRateFor(optionalString(parsed, 'rate'));
    const speedArg = optionalString(parsed, 'speed');
    const speed = speedArg === undefined ? 1 : parseNumberInRange(speedArg, 'speed', 0.5, 2);
    const request: SynthesisRequest = {
      model_id: 'raaga-v1',
      voice: requireString(parsed, 'voice'),
      language,
      text,
      output_format: format,
      sample_rate: rate,
      speed,
    };
    const client = new RaagaClient({ baseUrl, apiKey });
    const parts: Uint8Array[] = [];
    const summary = await synthesize(client, request, mode, text, parts).catch((error: unknown) => {
      // One line with what the operator needs to look the request up in the server log.
      if (error instanceof RaagaApiError) throw new Error(`${error.message} (${error.code}${error.requestId ? `, request ${error.requestId}` : ''})`);
      throw error;
    });
    const bytes = Buffer.concat(parts);
    await writeFile(out, bytes);
    ctx.out(`Wrote ${out}: ${format}, ${rate} Hz, ${bytes.length} bytes (${summary}).`);
  },
});

/** Runs the request in the chosen mode, appending audio to `parts`; returns the summary's tail. */
async function synthesize(client: RaagaClient, request: SynthesisRequest, mode: Mode, text: string, parts: Uint8Array[]): Promise<string> {
  const format = request.output_format as FileFormat;
  const rate = request.sample_rate as number;
  if (mode === 'generate') {
    const result = await client.generate(request);
    parts.push(result.bytes);
    return `${result.duration_seconds.toFixed(2)} s, ${result.characters_used} credits`;
  }
  if (mode === 'stream') {
    let progress: ReturnType<typeof createProgress> | undefined;
    let credits = 0;
    for await (const chunk of client.stream(request, {
      onResponse: (info) => {
        credits = info.charactersUsed;
        progress = createProgress(process.stderr, 'receiving audio', info.estimatedDurationSeconds, { unit: SECONDS });
      },
    })) {
      parts.push(chunk);
      progress?.advance(chunk.byteLength / bytesPerSecond(format, rate));
    }
    progress?.done();
    return `${credits} credits`;
  }
  // websocket: one `text` per sentence, as the protocol asks.
  const sentences = splitSentences(text);
  const progress = createProgress(process.stderr, 'speaking', sentences.length, { unit: items('sentences') });
  const session = await client.session();
  let credits = 0;
  try {
    await session.configure({ model_id: 'raaga-v1', voice: request.voice, language: request.language, output_format: 'pcm', sample_rate: rate, speed: request.speed });
    for (const sentence of sentences) {
      const utterance = session.speak(sentence);
      for await (const frame of utterance) parts.push(frame);
      credits += (await utterance.result).characters_used;
      progress.advance(1);
    }
  } finally {
    await session.close();
  }
  progress.done();
  return `${sentences.length} sentences, ${credits} credits`;
}
