// The spec's client guidance as one pure decision: never retry a 429 at once; wait for Retry-After (or, for the
// rate limit, X-RateLimit-Reset), then back off exponentially with jitter; a concurrency 429 has no Retry-After
// and backs off; 503 and 500 are retried with backoff; any other 4xx is the caller's to fix and is not retried.

export interface RetryOptions {
  /** Retries after the first attempt (0 turns retrying off). */
  readonly maxRetries: number;
  /** Backoff before retry n (0-based) is up to baseDelayMs × 2^n, capped at maxDelayMs. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A server asking to wait longer than this is not waited for: the error is thrown instead. */
  readonly maxWaitMs: number;
  /** Injected so tests never sleep for real (a 60 s Retry-After becomes instant). */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random: () => number;
  /** Unix time in ms, for X-RateLimit-Reset. */
  readonly now: () => number;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxWaitMs: 120_000,
  sleep: abortableSleep,
  random: Math.random,
  now: Date.now,
};

/** What one failed attempt said about retrying. */
export interface FailedAttempt {
  readonly status: number;
  readonly code: string;
  /** Retry-After in seconds (HTTP) or retry_after_seconds (WebSocket). */
  readonly retryAfterSeconds: number | undefined;
  /** X-RateLimit-Reset: Unix seconds. */
  readonly rateLimitResetSeconds: number | undefined;
}

export type RetryDecision = { readonly retry: false } | { readonly retry: true; readonly delayMs: number };

/** `attempt` is the number of retries already made. */
export function retryDecision(failed: FailedAttempt, attempt: number, options: RetryOptions): RetryDecision {
  if (attempt >= options.maxRetries || !isRetryable(failed.status)) return { retry: false };
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  // "Equal jitter": at least half the backoff, so retries never bunch at zero; the rest spread them apart.
  const backoffMs = ceiling / 2 + options.random() * (ceiling / 2);
  const waitMs = serverWaitMs(failed, options.now());
  if (waitMs === undefined) return { retry: true, delayMs: backoffMs };
  if (waitMs > options.maxWaitMs) return { retry: false };
  // Wait what the server asked, then a jittered share of the backoff so clients told the same second do not collide.
  return { retry: true, delayMs: waitMs + options.random() * ceiling };
}

function isRetryable(status: number): boolean {
  return status === 429 || status === 503 || status === 500 || status === 502 || status === 504;
}

/** Retry-After wins; X-RateLimit-Reset only for the rate limit (a concurrency slot does not free on the window). */
function serverWaitMs(failed: FailedAttempt, nowMs: number): number | undefined {
  if (failed.retryAfterSeconds !== undefined) return Math.max(0, failed.retryAfterSeconds * 1000);
  if (failed.code === 'rate_limit_exceeded' && failed.rateLimitResetSeconds !== undefined) {
    return Math.max(0, failed.rateLimitResetSeconds * 1000 - nowMs);
  }
  return undefined;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
