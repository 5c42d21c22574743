// Engine failures as the spec's 503s: a full queue is `tts_workers_busy`, no worker is `tts_workers_unconfigured`.

import { EngineBusyError, EngineUnavailableError } from '../engine/tts-engine.js';
import { ApiError } from '../errors.js';

export function engineErrorToApiError(error: unknown): unknown {
  if (error instanceof EngineBusyError) {
    return new ApiError('tts_workers_busy', 'Synthesis capacity is full; retry shortly with backoff.', { retryAfterSeconds: 1 });
  }
  if (error instanceof EngineUnavailableError) {
    return new ApiError('tts_workers_unconfigured', 'Synthesis is temporarily unavailable; retry shortly.', { retryAfterSeconds: 5 });
  }
  return error;
}
