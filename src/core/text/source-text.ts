// The text the front end reads, separated from how it was written: for plain input, the input itself; for
// SSML, the content without markup. Each character remembers how many input code points it stands for,
// so chunks of it still add up to the input's length (what is billed).

import type { Voicing } from './voicing.js';

/** `<say-as>` and `<sub>`: a span whose reading the author fixed. */
export type InterpretAs = 'digits' | 'characters' | 'cardinal' | 'ordinal' | 'telephone' | 'date' | 'time' | 'currency';

export interface ForcedSpan {
  /** Source character indices, end exclusive. */
  readonly start: number;
  readonly end: number;
  readonly interpretAs: InterpretAs | 'alias';
  /** Date field order for `date` (`dmy` when absent). */
  readonly format?: string;
  /** The replacement text of a `<sub alias>`. */
  readonly alias?: string;
}

export interface SourceText {
  /** Code points to read (markup removed, entities decoded). */
  readonly chars: readonly string[];
  /** Input code points each character accounts for; they sum to the input's length. */
  readonly weights: readonly number[];
  /** A `<break>` is a space character here; this maps its index to the silence it asks for. */
  readonly breaksMs: ReadonlyMap<number, number>;
  readonly forced: readonly ForcedSpan[];
  /**
   * SSML `<prosody>`, `<emphasis>` and `<lang>`: the distinct ways the text is spoken (the first is neutral) and, per
   * character, its index into them. Absent: every character is spoken as the request asks.
   */
  readonly voicings?: readonly Voicing[];
  readonly voicingAt?: readonly number[];
  /** SSML `<mark>`s, in order: each stands before character `index` (`chars.length`: at the end). */
  readonly marks?: readonly SourceMark[];
  /** Elements the markup used that were not applied (SSML's lenient mode), each named once, in order of appearance. */
  readonly ignored?: readonly string[];
}

export interface SourceMark {
  readonly name: string;
  readonly index: number;
}

export function plainSource(text: string): SourceText {
  const chars = [...text];
  return { chars, weights: chars.map(() => 1), breaksMs: new Map(), forced: [] };
}
