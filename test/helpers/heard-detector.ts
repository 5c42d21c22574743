// A barge-in detector with its events collected, so a test can ask which events a stretch of audio produced.
// With a model that answers at once (LoudnessModel, SileroVad's own streams) they are there when pushMulaw returns.

import type { VoiceActivityEvent } from '../../src/session/barge-in/barge-in-contract.js';
import type { BargeInDetector, BargeInDetectorFactory } from '../../src/session/barge-in/barge-in-detector.js';

export class HeardDetector {
  readonly events: VoiceActivityEvent[] = [];
  readonly detector: BargeInDetector;

  constructor(factory: BargeInDetectorFactory, minSpeechMs: number, longSpeechMs?: number) {
    this.detector = factory.create({ minSpeechMs, longSpeechMs }, (event) => this.events.push(event));
  }

  /** Pushes one frame; returns the events heard since the push began. */
  pushMulaw(frame: Uint8Array, atMs: number): VoiceActivityEvent[] {
    const before = this.events.length;
    this.detector.pushMulaw(frame, atMs);
    return this.events.slice(before);
  }

  get stats() {
    return this.detector.stats;
  }

  get speaking(): boolean {
    return this.detector.speaking;
  }

  reset(): void {
    this.detector.reset();
  }

  close(): void {
    this.detector.close();
  }
}
