// How a phone call takes a synthesis session's turns, the one seam between SynthesisSession and a call: texts wait
// in the call's queue behind the running one, and each turn's frames are paced and marked by the call. The WebSocket
// session has none of it (a text while speaking is refused; audio leaves as fast as the socket drains).

import type { ChunkWordBoundary } from '../core/synthesis/recorded-utterance.js';
import type { TextChunk } from '../core/text/split-utterance.js';
import type { CallTextQueue } from './call-text-queue.js';
import type { TurnPlayout } from './utterance-turn.js';

/** What a phone call needs to know about a turn when it starts, to mark its chunks and judge barge-in. */
export interface TurnInfo {
  /** 1, 2, 3… per session: names the turn's marks whatever id the client gave. */
  readonly seq: number;
  readonly utteranceId: string | undefined;
  readonly text: string;
  readonly chunks: readonly TextChunk[];
  /** Where the words of each chunk start in its audio (Utterance.wordBoundaries, growing as audio is made). */
  readonly words: readonly ChunkWordBoundary[];
  readonly interruptible: boolean;
}

export interface CallTurns {
  /** Texts that arrive while one speaks wait here (the call owns it, and reads its length). */
  readonly queue: CallTextQueue;
  /** Audio leaves in whole frames of this length. */
  readonly frameMs: number;
  /** A turn starts (its text admitted, nothing ahead of it): how its frames are paced and reported. */
  begin(info: TurnInfo): TurnPlayout;
  /** The turn `seq` is over: answered, or the session closed under it. */
  end(seq: number): void;
}
