// Character timings of one chunk's audio, for dialects that report them (ElevenLabs' `alignment`): each character of
// the text the client sent, with its start and duration in milliseconds. Only the word starts are the engine's own
// (its word boundaries, mapped back onto the input through the chunk's `sourceAt`); the characters of a word share
// the word's span evenly, and whitespace before a word takes no time, so a client that reads a word's start from its
// first character gets the engine's time exactly.

/** Parallel arrays, as ElevenLabs' alignment objects carry them. */
export interface CharacterAlignment {
  readonly chars: string[];
  readonly startsMs: number[];
  readonly durationsMs: number[];
}

export interface ChunkTimings {
  /** The chunk's part of the input, as code points (markup and surrounding whitespace included). */
  readonly sourceChars: readonly string[];
  /** The chunk's `sourceAt`: input code points fully spoken once the first k code points of its engine text have been. */
  readonly sourceAt: readonly number[];
  /** Where each word after the first starts on the chunk's audio: the words before `textEnd` were spoken by `atMs`. */
  readonly boundaries: readonly { readonly atMs: number; readonly textEnd: number }[];
  /** Where the chunk's audio starts, on the time axis of the result (the context's audio). */
  readonly startMs: number;
  /** The chunk's audio before the pause that follows it. */
  readonly speechMs: number;
}

const SPACE = /\s/u;

export function chunkAlignment(chunk: ChunkTimings): CharacterAlignment {
  const n = chunk.sourceChars.length;
  // Anchors: input position → time on the chunk's audio, non-decreasing in both.
  const anchors: { at: number; ms: number }[] = [{ at: 0, ms: 0 }];
  for (const boundary of chunk.boundaries) {
    const last = anchors[anchors.length - 1] as { at: number; ms: number };
    const at = Math.min(n, chunk.sourceAt[Math.min(boundary.textEnd, chunk.sourceAt.length - 1)] ?? 0);
    const ms = Math.min(chunk.speechMs, boundary.atMs);
    if (at > last.at && ms >= last.ms) anchors.push({ at, ms });
  }
  const end = anchors[anchors.length - 1] as { at: number; ms: number };
  if (end.at < n) anchors.push({ at: n, ms: Math.max(end.ms, chunk.speechMs) });

  const chars: string[] = [];
  const starts: number[] = [];
  for (let i = 0; i + 1 < anchors.length; i++) {
    const from = anchors[i] as { at: number; ms: number };
    const to = anchors[i + 1] as { at: number; ms: number };
    let first = from.at;
    // Whitespace before the word starts with it and takes no time.
    while (first < to.at && SPACE.test(chunk.sourceChars[first] as string)) {
      chars.push(chunk.sourceChars[first] as string);
      starts.push(from.ms);
      first++;
    }
    const spread = to.at - first;
    for (let k = 0; k < spread; k++) {
      chars.push(chunk.sourceChars[first + k] as string);
      starts.push(from.ms + ((to.ms - from.ms) * k) / spread);
    }
  }
  const endMs = Math.max(chunk.speechMs, end.ms);
  const startsMs = starts.map((ms) => Math.round(chunk.startMs + ms));
  const durationsMs = startsMs.map((ms, i) => Math.max(0, (startsMs[i + 1] ?? Math.round(chunk.startMs + endMs)) - ms));
  return { chars, startsMs, durationsMs };
}

/** What the tracker reads of an utterance (an Utterance is one). */
export interface AlignedUtterance {
  readonly chunks: readonly { readonly codePoints: number; readonly sourceAt: readonly number[] }[];
  readonly wordBoundaries: readonly { readonly chunk: number; readonly atMs: number; readonly textEnd: number }[];
  readonly timedChunks: readonly { readonly chunk: number; readonly startMs: number; readonly audioMs: number }[];
}

/**
 * The characters each new piece of an utterance's audio completes: call `next()` after every piece; it returns the
 * alignment of the chunks the engine timed since the last call (undefined when none), on a time axis that starts
 * `offsetMs` before the utterance (a streamed context's earlier segments).
 */
export class AlignmentTracker {
  readonly #sourceChars: string[];
  readonly #chunkStarts: number[] = [];
  #seen = 0;

  constructor(
    private readonly utterance: AlignedUtterance,
    /** The text the utterance was made from, as the client sent it. */
    text: string,
    private readonly offsetMs = 0,
  ) {
    this.#sourceChars = Array.from(text);
    let start = 0;
    for (const chunk of utterance.chunks) {
      this.#chunkStarts.push(start);
      start += chunk.codePoints;
    }
  }

  next(): CharacterAlignment | undefined {
    const { utterance } = this;
    let joined: CharacterAlignment | undefined;
    for (; this.#seen < utterance.timedChunks.length; this.#seen++) {
      const timed = utterance.timedChunks[this.#seen] as AlignedUtterance['timedChunks'][number];
      const chunk = utterance.chunks[timed.chunk];
      const start = this.#chunkStarts[timed.chunk];
      if (!chunk || start === undefined) continue;
      const part = chunkAlignment({
        sourceChars: this.#sourceChars.slice(start, start + chunk.codePoints),
        sourceAt: chunk.sourceAt,
        boundaries: utterance.wordBoundaries.filter((word) => word.chunk === timed.chunk),
        startMs: this.offsetMs + timed.startMs,
        speechMs: timed.audioMs,
      });
      joined = joined
        ? { chars: [...joined.chars, ...part.chars], startsMs: [...joined.startsMs, ...part.startsMs], durationsMs: [...joined.durationsMs, ...part.durationsMs] }
        : part;
    }
    return joined;
  }
}
