// Kokoro-82M's token vocabulary and the step from phoneme string to model runs: one id per known code point,
// unknown symbols dropped and counted, at most 510 tokens per run (split at word boundaries), pad id 0 at both ends.

/**
 * Symbol → id, the `vocab` of Kokoro-82M v1.0's config.json (hexgrad/Kokoro-82M on Hugging Face; 114 symbols,
 * n_token 178; id 0 is the pad, some ids below 178 are unused). Not downloadable here and shipped by neither
 * kokoro-js nor @huggingface/transformers: read from the copy in thewh1teagle/kokoro-onnx (MIT,
 * src/kokoro_onnx/config.json, commit 46417b4) and checked against other published copies. 'ɡ' is U+0261 and
 * '\u0303' the combining tilde; no key is normalised, eSpeak's code points go in as they come.
 */
export const KOKORO_VOCAB: Readonly<Record<string, number>> = {
  ';': 1, ':': 2, ',': 3, '.': 4, '!': 5, '?': 6, '—': 9, '…': 10, '"': 11, '(': 12, ')': 13, '“': 14, '”': 15,
  ' ': 16, '\u0303': 17, 'ʣ': 18, 'ʥ': 19, 'ʦ': 20, 'ʨ': 21, 'ᵝ': 22, 'ꭧ': 23, 'A': 24, 'I': 25, 'O': 31,
  'Q': 33, 'S': 35, 'T': 36, 'W': 39, 'Y': 41, 'ᵊ': 42, 'a': 43, 'b': 44, 'c': 45, 'd': 46, 'e': 47, 'f': 48,
  'h': 50, 'i': 51, 'j': 52, 'k': 53, 'l': 54, 'm': 55, 'n': 56, 'o': 57, 'p': 58, 'q': 59, 'r': 60, 's': 61,
  't': 62, 'u': 63, 'v': 64, 'w': 65, 'x': 66, 'y': 67, 'z': 68, 'ɑ': 69, 'ɐ': 70, 'ɒ': 71, 'æ': 72, 'β': 75,
  'ɔ': 76, 'ɕ': 77, 'ç': 78, 'ɖ': 80, 'ð': 81, 'ʤ': 82, 'ə': 83, 'ɚ': 85, 'ɛ': 86, 'ɜ': 87, 'ɟ': 90, 'ɡ': 92,
  'ɥ': 99, 'ɨ': 101, 'ɪ': 102, 'ʝ': 103, 'ɯ': 110, 'ɰ': 111, 'ŋ': 112, 'ɳ': 113, 'ɲ': 114, 'ɴ': 115, 'ø': 116,
  'ɸ': 118, 'θ': 119, 'œ': 120, 'ɹ': 123, 'ɾ': 125, 'ɻ': 126, 'ʁ': 128, 'ɽ': 129, 'ʂ': 130, 'ʃ': 131, 'ʈ': 132,
  'ʧ': 133, 'ʊ': 135, 'ʋ': 136, 'ʌ': 138, 'ɣ': 139, 'ɤ': 140, 'χ': 142, 'ʎ': 143, 'ʒ': 147, 'ʔ': 148, 'ˈ': 156,
  'ˌ': 157, 'ː': 158, 'ʰ': 162, 'ʲ': 164, '↓': 169, '→': 171, '↗': 172, '↘': 173, 'ᵻ': 177,
};

export const KOKORO_PAD_ID = 0;
/** Kokoro's context is 512 positions: 510 phoneme tokens and the two pads. */
export const KOKORO_MAX_TOKENS = 510;

export interface KokoroRun {
  /** The known symbols of this run, as one string (what the ids spell). */
  readonly phonemes: string;
  /** Model input: pad, one id per symbol, pad. */
  readonly ids: readonly number[];
}

export interface KokoroTokens {
  readonly runs: KokoroRun[];
  /** Symbols missing from the vocabulary, dropped, with counts. */
  readonly unknown: Map<string, number>;
}

interface Token {
  readonly char: string;
  readonly id: number;
}

const SPACE = KOKORO_VOCAB[' '] as number;
// Where a run may end, best first: after a sentence, a clause, a phrase (Kokoro's KPipeline waterfall).
const BREAK_CLASSES = ['.!?…', ':;', ',—'] as const;

/** Phoneme string to runs of at most `maxTokens` symbols (a word longer than that is cut, nothing is lost). */
export function tokenize(phonemes: string, maxTokens = KOKORO_MAX_TOKENS): KokoroTokens {
  const unknown = new Map<string, number>();
  const symbols: Token[] = [];
  for (const char of phonemes) {
    const id = KOKORO_VOCAB[char];
    if (id === undefined) unknown.set(char, (unknown.get(char) ?? 0) + 1);
    else symbols.push({ char, id });
  }
  const runs: KokoroRun[] = [];
  let rest = trimSpaces(symbols);
  while (rest.length > 0) {
    const end = rest.length <= maxTokens ? rest.length : breakPoint(rest, maxTokens);
    const run = trimSpaces(rest.slice(0, end));
    if (run.length > 0) runs.push({ phonemes: run.map((s) => s.char).join(''), ids: [KOKORO_PAD_ID, ...run.map((s) => s.id), KOKORO_PAD_ID] });
    rest = trimSpaces(rest.slice(end));
  }
  return { runs, unknown };
}

/** Length of the next run: at the last space of the best break class in its second half, else the last space. */
function breakPoint(symbols: readonly Token[], maxTokens: number): number {
  const spaces: number[] = [];
  for (let i = 1; i <= maxTokens && i < symbols.length; i++) if (symbols[i]?.id === SPACE) spaces.push(i);
  for (const marks of BREAK_CLASSES) {
    for (let k = spaces.length - 1; k >= 0; k--) {
      const at = spaces[k] as number;
      if (at < maxTokens / 2) break;
      if (marks.includes(symbols[at - 1]?.char ?? '')) return at;
    }
  }
  return spaces[spaces.length - 1] ?? maxTokens;
}

function trimSpaces(symbols: readonly Token[]): Token[] {
  let start = 0;
  let end = symbols.length;
  while (start < end && symbols[start]?.id === SPACE) start++;
  while (end > start && symbols[end - 1]?.id === SPACE) end--;
  return symbols.slice(start, end);
}
