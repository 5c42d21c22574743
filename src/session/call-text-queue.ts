// Texts waiting behind the running utterance of a phone call: an agent or an IVR sends sentences as they come and
// the caller hears no gap. Owned by the call (CallSession makes one and hands it to its SynthesisSession); the
// WebSocket session has none, so a text while speaking is refused there, as the spec says.

import type { ClientEvent } from './session-messages.js';

export type QueuedText = Extract<ClientEvent, { type: 'text' }>;

export class CallTextQueue {
  readonly #texts: QueuedText[] = [];
  #epoch = 0;

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.#texts.length;
  }

  /** False when `capacity` texts are already waiting. */
  offer(text: QueuedText): boolean {
    if (this.#texts.length >= this.capacity) return false;
    this.#texts.push(text);
    return true;
  }

  next(): QueuedText | undefined {
    return this.#texts.shift();
  }

  /** Every waiting text, removed (each still gets its own reply from the session). */
  drain(): QueuedText[] {
    return this.#texts.splice(0);
  }

  /** Changes at every barge-in: a text whose admission was in flight when it changed never starts. */
  get epoch(): number {
    return this.#epoch;
  }

  /** A barge-in: the waiting texts are dropped and returned. */
  interrupt(): QueuedText[] {
    this.#epoch++;
    return this.drain();
  }
}
