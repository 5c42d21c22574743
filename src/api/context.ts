// What the HTTP and WebSocket routes need from the composition root, as one object.

import type { Admission } from '../core/admission.js';
import type { SynthesisService } from '../core/synthesis/synthesis-service.js';
import type { VoiceCatalog } from '../core/voice-catalog.js';
import type { VoiceResolver } from '../core/voice-resolver.js';
import type { Clock } from '../session/clock.js';
import type { SessionLimits } from '../session/session-limits.js';
import type { Store } from '../store/store.js';

/** WebSocket session settings; everything has a default (tests inject a fake clock and short limits). */
export interface WebSocketSettings {
  /** Largest client message accepted; bigger ones close the socket with 1009. */
  readonly maxPayloadBytes?: number;
  readonly clock?: Clock;
  readonly limits?: Partial<SessionLimits>;
}

export interface ApiContext {
  readonly store: Store;
  readonly admission: Admission;
  readonly catalog: VoiceCatalog;
  readonly voices: VoiceResolver;
  readonly synthesis: SynthesisService;
  /** Aborts every in-flight synthesis when the grace period of a shutdown runs out. */
  readonly shutdown: AbortSignal;
  readonly maxBodyBytes: number;
  readonly webSocket?: WebSocketSettings;
}
