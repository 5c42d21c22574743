// How one catalog voice sounds on the embedded engine: the numbers an eSpeak NG variant is made from. The manifest
// holds them per voice (core/voice-catalog-schema.ts mirrors the bounds); only the eSpeak engine reads them.

export interface EmbeddedVoiceParams {
  /** Base pitch in Hz and its range (eSpeak variant `pitch <base> <max>`). */
  readonly pitchBaseHz: number;
  readonly pitchMaxHz: number;
  /** Formant multipliers in percent for F0..F5: frequency, strength. */
  readonly formants: ReadonlyArray<readonly [number, number]>;
  readonly breath: number;
  readonly roughness: number;
  /** Intonation range 0..100 passed to eSpeak's `range`. */
  readonly intonationRange: number;
  /** Words per minute at speed 1.0. */
  readonly wordsPerMinute: number;
}

/** A catalog voice's name with its eSpeak parameters. */
export interface EmbeddedVoice {
  readonly name: string;
  readonly params: EmbeddedVoiceParams;
}
