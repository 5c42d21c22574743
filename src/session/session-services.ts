// The services every synthesis session uses, the WebSocket's and a call's alike: built once by the composition root
// (deps.ts) and handed down as one object, so a new one is added here and in deps.ts, not at every hop between.

import type { Admission } from '../core/admission.js';
import type { SynthesisService } from '../core/synthesis/synthesis-service.js';
import type { VoiceResolver } from '../core/voice-resolver.js';

export interface SessionServices {
  /** The concurrency slot, the rate limit and each text's credits. */
  readonly admission: Pick<Admission, 'admit'>;
  readonly voices: Pick<VoiceResolver, 'resolve'>;
  /** Each text's lexicons (`lexicons`), then its utterance. */
  readonly synthesis: Pick<SynthesisService, 'lexicons' | 'utterance'>;
  /** Aborts when the server's shutdown grace runs out: every session closes at once, whatever its state. */
  readonly shutdown?: AbortSignal | undefined;
}
