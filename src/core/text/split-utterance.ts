// Splits input text into speakable chunks (sentences, then clauses for long sentences) so audio can stream chunk
// by chunk, and gives each chunk the text its engine reads (normalised by the front end when a language is set).
// Chunks partition the input exactly (SSML markup included), so a cancelled utterance bills only what was spoken.
// A chunk has one voicing (SSML prosody, emphasis, lang): it is cut wherever the voicing changes (voiced-spans.ts).

import type { LanguageCode } from '../../languages.js';
import { withLexicon, type TextLexicon } from './apply-lexicon.js';
import type { Replacement } from './find-replacements.js';
import { spokenTextMapped, toSourceText } from './normalize-text.js';
import { sentenceSpans } from './sentence-ends.js';
import type { SourceText } from './source-text.js';
import { chunkVoicing, replacementsByLanguage, voicedText, voicingCuts, type VoicedText } from './voiced-spans.js';
import { isNeutral, type Voicing } from './voicing.js';

export interface TextChunk {
  /** What the engine reads: plain text, trimmed, numbers and symbols in words. Empty when there is nothing to say. */
  readonly text: string;
  /** Code points of the original input this chunk covers (surrounding whitespace and markup included). */
  readonly codePoints: number;
  /**
   * Input code points (of this chunk's `codePoints`) fully spoken once the first k code points of `text` have been:
   * where an engine's word timings turn into the input text the listener heard (normalize-text.ts).
   */
  readonly sourceAt: readonly number[];
  /** Silence after the chunk: longer after a sentence than after a clause, or what an SSML `<break>` asked for. */
  readonly pauseAfterMs: number;
  /** True when `pauseAfterMs` comes from a `<break>`: kept even after the last chunk. */
  readonly explicitPause?: boolean;
  /** How the chunk is spoken beyond its words (SSML prosody, emphasis, lang); absent: as the request asks. */
  readonly voicing?: Voicing;
  /** SSML `<mark>`s in the chunk: each `at` input code points (of `codePoints`) from the chunk's start. */
  readonly marks?: readonly ChunkMark[];
}

export interface ChunkMark {
  readonly name: string;
  readonly at: number;
}

export interface SplitOptions {
  /** The first chunk is cut at a clause mark or space before this many characters, for early first audio. */
  readonly firstChunkMaxChars: number;
  /** Later sentences longer than this are cut at clause marks. */
  readonly maxChunkChars: number;
  /** Read numbers, money, dates and symbols in this language; without it chunk text is the input as written. */
  readonly language?: LanguageCode;
  /** The languages the voice speaks: a `<lang>` span in another one is spoken in `language`. Absent: all of them. */
  readonly speaks?: (language: LanguageCode) => boolean;
  /** The account's lexicons for this language, applied first: each entry found reads as a `<sub alias>` would. */
  readonly lexicon?: TextLexicon | undefined;
}

export const SENTENCE_PAUSE_MS = 250;
export const CLAUSE_PAUSE_MS = 120;

const CLAUSE_MARK = new Set([',', ';', ':', '—', '–']);
/** A range of source characters [start, end). */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly endsSentence: boolean;
  /** Sum of the `<break>`s that end this span, when any. */
  readonly breakMs?: number;
  /** Cut where the voicing changes inside a clause: the next chunk follows without a pause. */
  readonly joined?: boolean;
}

/**
 * What the splitter must respect: `inside[i]` is true when a cut before character i would split a replacement
 * (1,25,000 or a phone number must reach the engine whole); `covered[i]` when character i belongs to one.
 */
interface Guards {
  readonly inside: Uint8Array;
  readonly covered: Uint8Array;
}

function guards(length: number, replacements: readonly Replacement[]): Guards {
  const inside = new Uint8Array(length + 1);
  const covered = new Uint8Array(length);
  for (const { start, end } of replacements) {
    for (let i = start; i < end; i++) covered[i] = 1;
    for (let i = start + 1; i < end; i++) inside[i] = 1;
  }
  return { inside, covered };
}

/** Sentence spans, never cut inside a replacement. */
function splitSentences(source: SourceText, guard: Guards): Span[] {
  return sentenceSpans(source.chars, source.breaksMs, guard.covered).map((span) => ({ ...span, endsSentence: true }));
}

/** Cuts a span at the last clause mark (else last space, else hard) at or before `limit` characters, never inside a replacement. */
function cutSpan(span: Span, limit: number, chars: readonly string[], guard: Guards): [Span, Span] | null {
  const length = span.end - span.start;
  if (length <= limit) return null;
  const last = span.start + Math.min(limit, length) - 1;
  let cut = -1;
  for (let i = last; i > span.start; i--) {
    if (CLAUSE_MARK.has(chars[i] as string) && !guard.covered[i]) {
      cut = i + 1;
      break;
    }
  }
  if (cut < 0) {
    for (let i = last; i > span.start; i--) {
      if (/\s/u.test(chars[i] as string) && !guard.covered[i]) {
        cut = i + 1;
        break;
      }
    }
  }
  if (cut < 0) {
    cut = span.start + limit;
    // A hard cut inside a replacement moves to its start, or past its end when it starts the span.
    let back = cut;
    while (back > span.start && guard.inside[back]) back--;
    if (back > span.start) cut = back;
    else while (cut < span.end && guard.inside[cut]) cut++;
  }
  while (cut < span.end && /\s/u.test(chars[cut] as string)) cut++;
  if (cut >= span.end) return null;
  return [
    { start: span.start, end: cut, endsSentence: false },
    { ...span, start: cut },
  ];
}

/**
 * The front end's readings, less those longer than a chunk (a 3,000-digit "number", a dotted name of 1,500 labels):
 * a reading is never cut, so one would make a single clause of many minutes of audio (one engine job, one block of
 * work wherever it lands). Such text is read as written and cut like any other. An SSML alias or say-as is kept.
 */
function chunkSizedReplacements(source: SourceText, replacements: readonly Replacement[], maxChunkChars: number): Replacement[] {
  const forced = new Set(source.forced.map((span) => `${span.start}:${span.end}`));
  return replacements.filter((r) => r.end - r.start <= maxChunkChars || forced.has(`${r.start}:${r.end}`));
}

export function splitUtterance(text: string, options: SplitOptions): TextChunk[] {
  const source = withLexicon(toSourceText(text), options.lexicon);
  const voiced = voicedText(source, options.language, options.speaks);
  const replacements = chunkSizedReplacements(source, replacementsByLanguage(source, voiced, options.language), options.maxChunkChars);
  const guard = guards(source.chars.length, replacements);
  const pending = splitSentences(source, guard).flatMap((span) => atVoicingChanges(span, source, voiced, guard));
  const chunks: TextChunk[] = [];
  const toChunk = chunkMaker(source, replacements, voiced);
  while (pending.length > 0) {
    const span = pending.shift() as Span;
    const limit = chunks.length === 0 ? options.firstChunkMaxChars : options.maxChunkChars;
    const parts = cutSpan(span, limit, source.chars, guard);
    if (parts) {
      pending.unshift(parts[1]);
      chunks.push(toChunk(parts[0]));
      continue;
    }
    chunks.push(toChunk(span));
  }
  return chunks;
}

/** A sentence cut wherever its voicing changes; the pieces but the last follow each other without a pause. */
function atVoicingChanges(span: Span, source: SourceText, voiced: VoicedText, guard: Guards): Span[] {
  const cuts = voicingCuts(voiced, source.chars, guard.inside, span.start, span.end);
  if (cuts.length === 0) return [span];
  const pieces: Span[] = [];
  let start = span.start;
  for (const cut of cuts) {
    pieces.push({ start, end: cut, endsSentence: false, joined: true });
    start = cut;
  }
  pieces.push({ ...span, start });
  return pieces;
}

/** Turns spans, in order, into chunks: their text, billing, pause, voicing and the marks that stand in them. */
function chunkMaker(source: SourceText, replacements: readonly Replacement[], voiced: VoicedText): (span: Span) => TextChunk {
  const marks = source.marks ?? [];
  let nextMark = 0;
  return (span) => {
    let codePoints = 0;
    const chunkMarks: ChunkMark[] = [];
    for (let i = span.start; i < span.end; i++) {
      // A mark before character i (or, in the last chunk, at the very end) is in this chunk.
      for (; nextMark < marks.length && (marks[nextMark]?.index as number) <= i; nextMark++) chunkMarks.push({ name: marks[nextMark]?.name as string, at: codePoints });
      codePoints += source.weights[i] as number;
    }
    if (span.end === source.chars.length) for (; nextMark < marks.length; nextMark++) chunkMarks.push({ name: marks[nextMark]?.name as string, at: codePoints });
    const explicit = span.breakMs !== undefined;
    const spoken = spokenTextMapped(source, replacements, span.start, span.end);
    const voicing = chunkVoicing(voiced, source.chars, span.start, span.end);
    return {
      text: spoken.text,
      codePoints,
      sourceAt: spoken.sourceAt,
      pauseAfterMs: explicit ? (span.breakMs as number) : span.endsSentence ? SENTENCE_PAUSE_MS : span.joined === true ? 0 : CLAUSE_PAUSE_MS,
      ...(explicit ? { explicitPause: true } : {}),
      ...(isNeutral(voicing) ? {} : { voicing }),
      ...(chunkMarks.length > 0 ? { marks: chunkMarks } : {}),
    };
  };
}

/**
 * The markup the text used that this request does not apply (lenient SSML): the elements the parser dropped, and
 * `lang` when a span's language is one the voice does not speak. Empty for plain text.
 */
export function ignoredMarkup(text: string, options: Pick<SplitOptions, 'language' | 'speaks'>): readonly string[] {
  const source = toSourceText(text);
  const ignored = source.ignored ?? [];
  if (!voicedText(source, options.language, options.speaks).fellBack || ignored.includes('lang')) return ignored;
  return [...ignored, 'lang'];
}

/** True when a chunk has letters or digits to speak (pure punctuation yields no engine call). */
export function isSpeakable(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
