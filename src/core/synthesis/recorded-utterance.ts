// What the prompt cache keeps of an utterance, and what a slower tier behind its memory (the disk) offers.

/** The counters of an utterance after a piece (or at its end): what billing, `duration_seconds` and marks read. */
export interface UtteranceCounters {
  readonly codePointsSpoken: number;
  readonly chunksDone: number;
  readonly durationMs: number;
}

/** A word boundary of an utterance: `atMs` into chunk `chunk`'s audio, the words before code point `textEnd` of its text were spoken. */
export interface ChunkWordBoundary {
  readonly chunk: number;
  readonly atMs: number;
  readonly textEnd: number;
}

/**
 * A chunk whose engine gave word timings (even none, for a one-word chunk), placed on the utterance's audio: its audio
 * starts at `startMs` (the chunks before it, pauses included) and lasts `audioMs` (its own pause after excluded).
 */
export interface TimedChunk {
  readonly chunk: number;
  readonly startMs: number;
  readonly audioMs: number;
}

export interface RecordedUtterance {
  readonly pieces: readonly { readonly bytes: Uint8Array; readonly after: UtteranceCounters }[];
  readonly end: UtteranceCounters;
  readonly sizeBytes: number;
  /** The utterance's word timings, so a replayed prompt tells a call what was heard as the engine's would. */
  readonly words: readonly ChunkWordBoundary[];
  /** Where those chunks lie in the audio (word_timings on the WebSocket); absent in recordings made before it. */
  readonly timedChunks?: readonly TimedChunk[];
}

export type DiskEvent = 'disk_hit' | 'disk_store' | 'disk_evict' | 'disk_error';

/** A tier behind the memory one (prompt-cache-disk.ts): bounded, survives restarts, never throws on read or write. */
export interface CacheTier {
  readonly bytes: number;
  read(key: string): Promise<RecordedUtterance | undefined>;
  /** Stores in the background; resolves when done. */
  write(key: string, recording: RecordedUtterance): Promise<void>;
  /** Resolves once every write so far is done. */
  idle(): Promise<void>;
}
