// The error a single job rejects with when its worker reports a failure (bad input, eSpeak error).
// The worker survives such a failure; EngineUnavailableError is for a worker that died.

export class SynthesisFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SynthesisFailedError';
  }
}
