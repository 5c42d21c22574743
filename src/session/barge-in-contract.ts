// The contract between the phone-call bridge (src/telephony/twilio/) and voice activity detection:
// the bridge feeds the caller's inbound 20 ms mu-law frames in, and reacts to the events that come out.
// Implemented by src/session/barge-in-detector.ts on top of a speech-probability model (Silero VAD, in src/engine/vad/).

export type BargeInMode = 'speech' | 'dtmf' | 'any' | 'none';

export interface BargeInSettings {
  /** What may interrupt the bot: caller speech, a DTMF key, either, or nothing. */
  readonly mode: BargeInMode;
  /** Speech must last this long before it counts as a barge-in (fillers such as "hmm" are shorter). */
  readonly minSpeechMs: number;
  /** When true, speech only interrupts while bot audio is still outstanding (sent and not yet played). */
  readonly onlyWhileBotSpeaking: boolean;
}

export type VoiceActivityEvent =
  /** Speech onset confirmed (after minSpeechMs); `onsetMs` is when the first speech window began, on the call clock. */
  | { readonly type: 'speech_started'; readonly onsetMs: number; readonly atMs: number }
  | { readonly type: 'speech_stopped'; readonly atMs: number; readonly durationMs: number };

export interface VoiceActivityDetector {
  /**
   * One inbound frame (8 kHz mu-law, normally 160 bytes = 20 ms) received at `atMs` on the call clock. Its events
   * go to the listener given at creation: at once, or within the same turn of the event loop when the model
   * batches the windows of many calls (src/engine/vad/silero-batcher.ts).
   */
  pushMulaw(frame: Uint8Array, atMs: number): void;
  reset(): void;
  close(): void;
}

/** Creates one detector per call; the model session behind it is shared and loaded once. */
export interface VoiceActivityDetectorFactory {
  create(settings: { readonly minSpeechMs: number }, onEvent: (event: VoiceActivityEvent) => void): VoiceActivityDetector;
  /** Resolves when the model is loaded and warmed (readiness). */
  ready(): Promise<void>;
}
