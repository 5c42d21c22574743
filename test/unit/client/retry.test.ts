// The spec's retry guidance as the client applies it: which failures are retried, how long each wait is.

import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_OPTIONS, retryDecision, type FailedAttempt, type RetryOptions } from '../../../src/client/retry.js';

const options: RetryOptions = { ...DEFAULT_RETRY_OPTIONS, baseDelayMs: 1000, maxDelayMs: 8000, random: () => 0.5, now: () => 1_000_000_000 };
const failed = (extra: Partial<FailedAttempt>): FailedAttempt => ({
  status: 429,
  code: 'rate_limit_exceeded',
  retryAfterSeconds: undefined,
  rateLimitResetSeconds: undefined,
  ...extra,
});

describe('retryDecision', () => {
  it('never retries other 4xx', () => {
    for (const [status, code] of [
      [400, 'invalid_json'],
      [401, 'invalid_api_key'],
      [402, 'insufficient_credits'],
      [403, 'custom_voice_forbidden'],
      [404, 'not_found'],
      [413, 'payload_too_large'],
      [422, 'validation_error'],
    ] as const) {
      expect(retryDecision(failed({ status, code }), 0, options)).toEqual({ retry: false });
    }
  });

  it('429 rate_limit_exceeded waits Retry-After, plus jitter up to the backoff', () => {
    expect(retryDecision(failed({ retryAfterSeconds: 60 }), 0, options)).toEqual({ retry: true, delayMs: 60_000 + 500 });
    expect(retryDecision(failed({ retryAfterSeconds: 60 }), 2, options)).toEqual({ retry: true, delayMs: 60_000 + 2000 });
  });

  it('without Retry-After, the rate limit waits until X-RateLimit-Reset', () => {
    const reset = 1_000_000_000 / 1000 + 42;
    expect(retryDecision(failed({ rateLimitResetSeconds: reset }), 0, options)).toEqual({ retry: true, delayMs: 42_000 + 500 });
  });

  it('concurrency 429 (no Retry-After) backs off exponentially with equal jitter, ignoring the window reset', () => {
    const concurrency = failed({ code: 'concurrency_limit_exceeded', rateLimitResetSeconds: 1_000_000 + 50 });
    expect(retryDecision(concurrency, 0, options)).toEqual({ retry: true, delayMs: 750 });
    expect(retryDecision(concurrency, 1, options)).toEqual({ retry: true, delayMs: 1500 });
    expect(retryDecision(concurrency, 2, options)).toEqual({ retry: true, delayMs: 3000 });
    // Capped at maxDelayMs.
    expect(retryDecision(concurrency, 3, { ...options, maxRetries: 10 })).toEqual({ retry: true, delayMs: 6000 });
    expect(retryDecision(concurrency, 6, { ...options, maxRetries: 10 })).toEqual({ retry: true, delayMs: 6000 });
    // The jitter spreads clients between half and all of the backoff.
    expect(retryDecision(concurrency, 0, { ...options, random: () => 0 })).toEqual({ retry: true, delayMs: 500 });
    expect(retryDecision(concurrency, 0, { ...options, random: () => 1 })).toEqual({ retry: true, delayMs: 1000 });
  });

  it('503 honours its Retry-After; 500 backs off', () => {
    expect(retryDecision(failed({ status: 503, code: 'tts_workers_busy', retryAfterSeconds: 1 }), 0, options)).toEqual({ retry: true, delayMs: 1500 });
    expect(retryDecision(failed({ status: 500, code: 'internal_error' }), 0, options)).toEqual({ retry: true, delayMs: 750 });
  });

  it('stops after maxRetries, and when the server asks for a wait longer than maxWaitMs', () => {
    expect(retryDecision(failed({ retryAfterSeconds: 1 }), 3, options)).toEqual({ retry: false });
    expect(retryDecision(failed({ retryAfterSeconds: 3600 }), 0, options)).toEqual({ retry: false });
    expect(retryDecision(failed({ retryAfterSeconds: 1 }), 0, { ...options, maxRetries: 0 })).toEqual({ retry: false });
  });
});
