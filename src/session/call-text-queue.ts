// Texts waiting behind the running utterance of a phone call: an agent or an IVR sends sentences as they come and
// the caller hears no gap. Owned by the call (CallSession makes one and hands it to its SynthesisSession); the
// WebSocket session has none, so a text while speaking is refused there, as the spec says. A streamed text's segments
// wait here too, beyond the capacity (whose bound is the streamed utterance's own), and can be withdrawn.

import type { ClientEvent } from './session-messages.js';

export type QueuedText = Extract<ClientEvent, { type: 'text' }>;

export class CallTextQueue {
  readonly #texts: QueuedText[] = [];
  #wholeTexts = 0;
  #epoch = 0;

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.#texts.length;
  }

  /** False when `capacity` whole texts are already waiting (a streamed text's segments always get in). */
  offer(text: QueuedText): boolean {
    if (text.segment === undefined) {
      if (this.#wholeTexts >= this.capacity) return false;
      this.#wholeTexts++;
    }
    this.#texts.push(text);
    return true;
  }

  /** The text that starts next, left in place. */
  peek(): QueuedText | undefined {
    return this.#texts[0];
  }

  next(): QueuedText | undefined {
    return this.#counted(this.#texts.shift());
  }

  /** Every waiting text, removed (each still gets its own reply from the session). */
  drain(): QueuedText[] {
    this.#wholeTexts = 0;
    return this.#texts.splice(0);
  }

  /** The waiting texts `which` picks, removed: they get no reply from the session (their owner answers for them). */
  withdraw(which: (text: QueuedText) => boolean): QueuedText[] {
    const withdrawn = this.#texts.filter(which);
    if (withdrawn.length === 0) return withdrawn;
    const kept = this.#texts.filter((text) => !which(text));
    this.#texts.splice(0, this.#texts.length, ...kept);
    for (const text of withdrawn) this.#counted(text);
    return withdrawn;
  }

  /** Changes at every barge-in: a text whose admission was in flight when it changed never starts. */
  get epoch(): number {
    return this.#epoch;
  }

  #counted(text: QueuedText | undefined): QueuedText | undefined {
    if (text && text.segment === undefined) this.#wholeTexts--;
    return text;
  }

  /** A barge-in: the waiting texts are dropped and returned. */
  interrupt(): QueuedText[] {
    this.#epoch++;
    return this.drain();
  }
}
