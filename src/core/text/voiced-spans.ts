// The text's voicings (SSML prosody, emphasis, lang) as the splitter applies them for one request: a span's language
// is kept only when it differs from the request's and the voice speaks it (else it is the request's, and a <lang> the
// voice cannot follow is named among the ignored elements), the front end reads each language's stretch of text with
// that language's rules, and a chunk is cut wherever the voicing changes (split-utterance.ts).

import type { LanguageCode } from '../../languages.js';
import type { Replacement } from './find-replacements.js';
import { replacementsFor } from './normalize-text.js';
import type { ForcedSpan, SourceText } from './source-text.js';
import { NEUTRAL_VOICING, voicingKey, type Voicing } from './voicing.js';

export interface VoicedText {
  /** Distinct voicings as applied (the first is neutral). */
  readonly list: readonly Voicing[];
  /** Per source character, its index into `list`; empty when the text has no voicings (all neutral). */
  readonly at: readonly number[];
  /** True when some `<lang>` span is spoken in the request's language because the voice does not speak its own. */
  readonly fellBack: boolean;
}

const PLAIN: VoicedText = { list: [NEUTRAL_VOICING], at: [], fellBack: false };

/** The voicings of `source` for a request in `language` by a voice that speaks the languages `speaks` accepts. */
export function voicedText(source: SourceText, language: LanguageCode | undefined, speaks: (language: LanguageCode) => boolean = () => true): VoicedText {
  const { voicings, voicingAt } = source;
  if (!voicings || !voicingAt) return PLAIN;
  let fellBack = false;
  const list: Voicing[] = [NEUTRAL_VOICING];
  const byKey = new Map<string, number>([[voicingKey(NEUTRAL_VOICING), 0]]);
  const applied = voicings.map((voicing) => {
    let effective = voicing;
    if (voicing.language !== undefined && (voicing.language === language || !speaks(voicing.language))) {
      if (voicing.language !== language) fellBack = true;
      const { language: _dropped, ...rest } = voicing;
      effective = rest;
    }
    const key = voicingKey(effective);
    let index = byKey.get(key);
    if (index === undefined) {
      index = list.length;
      list.push(effective);
      byKey.set(key, index);
    }
    return index;
  });
  return { list, at: voicingAt.map((index) => applied[index] as number), fellBack };
}

/** The voicing of source character `index`. */
export function voicingAt(voiced: VoicedText, index: number): Voicing {
  return voiced.list[voiced.at[index] ?? 0] as Voicing;
}

const SPEAKABLE = /[\p{L}\p{N}]/u;
const SPACE = /\s/u;

/** How the chunk [start, end) is spoken: the voicing of its first letter or digit (neutral when it has none). */
export function chunkVoicing(voiced: VoicedText, chars: readonly string[], start: number, end: number): Voicing {
  if (voiced.at.length === 0) return NEUTRAL_VOICING;
  for (let i = start; i < end; i++) if (SPEAKABLE.test(chars[i] as string)) return voicingAt(voiced, i);
  return NEUTRAL_VOICING;
}

/**
 * Where [start, end) must be cut so that no chunk mixes voicings: before the first letter or digit spoken otherwise
 * than the ones before it (with the opening marks of its element, `"` or `(`, that stand right before it). Spaces
 * and punctuation between two voicings stay with the first. A cut inside a reading the front end makes whole (an
 * amount across the boundary) moves to the reading's end: that reading is spoken as its start is.
 */
export function voicingCuts(voiced: VoicedText, chars: readonly string[], inside: Uint8Array, start: number, end: number): number[] {
  if (voiced.at.length === 0) return [];
  const cuts: number[] = [];
  let current: number | undefined;
  let last = start;
  for (let i = start; i < end; i++) {
    if (!SPEAKABLE.test(chars[i] as string)) continue;
    const voicing = voiced.at[i] as number;
    if (current === undefined || voicing === current) {
      current = voicing;
      continue;
    }
    current = voicing;
    let cut = i;
    while (cut > last + 1 && voiced.at[cut - 1] === voicing && !SPACE.test(chars[cut - 1] as string) && !SPEAKABLE.test(chars[cut - 1] as string)) cut--;
    while (cut < end && inside[cut]) cut++;
    if (cut <= last || cut >= end) continue;
    cuts.push(cut);
    last = cut;
  }
  return cuts;
}

/**
 * The front end's readings, each language's stretch of text read by its own rules (a Hindi span's numbers in Hindi);
 * without language spans, exactly `replacementsFor` over the whole text.
 */
export function replacementsByLanguage(source: SourceText, voiced: VoicedText, language: LanguageCode | undefined): Replacement[] {
  if (language === undefined || !voiced.list.some((voicing) => voicing.language !== undefined)) return replacementsFor(source, language);
  const languageOf = (index: number): LanguageCode => voicingAt(voiced, index).language ?? language;
  const replacements: Replacement[] = [];
  const slicer = new SourceSlicer(source);
  const length = source.chars.length;
  for (let start = 0; start < length; ) {
    const runLanguage = languageOf(start);
    let end = start + 1;
    while (end < length && languageOf(end) === runLanguage) end++;
    for (const replacement of replacementsFor(slicer.slice(start, end), runLanguage)) {
      replacements.push({ ...replacement, start: replacement.start + start, end: replacement.end + start });
    }
    start = end;
  }
  return replacements;
}

/** Consecutive slices of one source, its breaks and author spans shifted with them (each visited once). */
class SourceSlicer {
  readonly #breaks: readonly (readonly [number, number])[];
  readonly #forced: readonly ForcedSpan[];
  #nextBreak = 0;
  #nextForced = 0;

  constructor(private readonly source: SourceText) {
    this.#breaks = [...source.breaksMs].sort((a, b) => a[0] - b[0]);
    this.#forced = [...source.forced].sort((a, b) => a.start - b.start);
  }

  /** Characters [start, end); slices must come in order. An author span never crosses a language boundary. */
  slice(start: number, end: number): SourceText {
    const breaksMs = new Map<number, number>();
    while (this.#nextBreak < this.#breaks.length && (this.#breaks[this.#nextBreak] as [number, number])[0] < end) {
      const [index, ms] = this.#breaks[this.#nextBreak++] as [number, number];
      if (index >= start) breaksMs.set(index - start, ms);
    }
    const forced: ForcedSpan[] = [];
    while (this.#nextForced < this.#forced.length && (this.#forced[this.#nextForced] as ForcedSpan).start < end) {
      const span = this.#forced[this.#nextForced++] as ForcedSpan;
      if (span.start >= start && span.end <= end) forced.push({ ...span, start: span.start - start, end: span.end - start });
    }
    return { chars: this.source.chars.slice(start, end), weights: this.source.weights.slice(start, end), breaksMs, forced };
  }
}
