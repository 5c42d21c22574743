// `raaga normalize`: what the text front end makes of a text, as the engine will be given it (numbers, money,
// dates, identifiers and symbols in words), so operators can preview prompts and report misreadings.

import { ApiError } from '../../errors.js';
import { MAX_TEXT_CODE_POINTS } from '../../core/text/text-limits.js';
import { splitUtterance } from '../../core/text/split-utterance.js';
import type { LanguageCode } from '../../languages.js';
import { parseLanguage, requireString } from '../arg-parsing.js';
import { singleCommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const HELP = `Usage: raaga normalize --language <code> [--ssml] [text]

Prints the words the engine is given for the text (the same front end the server runs), one output line per
input line. Without a text argument it reads standard input.

Options:
  --language <code>  en-IN, hi-IN, ta-IN, te-IN, kn-IN, mr-IN, gu-IN or bn-IN
  --ssml             the whole input is one SSML-lite document (<speak>…</speak> is added when missing);
                     printed as one line; malformed markup is an error naming the problem and its position`;

/** Chunk boundaries never split a reading, so whole-sentence chunks give the same words the server speaks. */
const WHOLE = { firstChunkMaxChars: MAX_TEXT_CODE_POINTS, maxChunkChars: MAX_TEXT_CODE_POINTS } as const;

/** The engine's words for one input, or a usage error carrying the front end's own message (malformed SSML). */
export function engineText(text: string, language: LanguageCode): string {
  try {
    return splitUtterance(text, { ...WHOLE, language })
      .map((chunk) => chunk.text)
      .filter((words) => words !== '')
      .join(' ');
  } catch (error) {
    if (error instanceof ApiError) throw new UsageError(error.message);
    throw error;
  }
}

export const normalizeCommand = singleCommand('normalize', COMMAND_SUMMARIES.normalize, {
  help: HELP,
  options: { language: { type: 'string' }, ssml: { type: 'boolean' } },
  positionals: 1,
  async run(parsed, ctx) {
    const language = parseLanguage(requireString(parsed, 'language'));
    const input = parsed.positionals[0] ?? (await ctx.readStdin()).replace(/\r?\n$/u, '');
    if (input.trim() === '') throw new UsageError('the text to normalize is required (as an argument or on stdin)');
    if (parsed.values.ssml === true) {
      const document = input.trimStart().startsWith('<speak') ? input : `<speak>${input}</speak>`;
      ctx.out(engineText(document, language));
      return;
    }
    for (const line of input.split(/\r?\n/u)) ctx.out(line.trim() === '' ? '' : engineText(line, language));
  },
});
