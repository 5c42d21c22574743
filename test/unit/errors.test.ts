// The error registry and docs/errors.md must list the same codes with the same statuses, both ways.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_CODES, errorEnvelope } from '../../src/errors.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const documented = new Map(
  [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1] as string, Number(m[2])]),
);

describe('error registry', () => {
  it('every registry code is documented with its status', () => {
    for (const [code, { status }] of Object.entries(ERROR_CODES)) expect([code, documented.get(code)]).toEqual([code, status]);
  });

  it('every documented code is in the registry', () => {
    for (const code of documented.keys()) expect(Object.keys(ERROR_CODES)).toContain(code);
  });

  it('the spec codes have the spec statuses', () => {
    expect(ERROR_CODES.invalid_api_key.status).toBe(401);
    expect(ERROR_CODES.insufficient_credits.status).toBe(402);
    for (const code of ['text_too_long', 'voice_language_not_found', 'invalid_model_id', 'validation_error'] as const) {
      expect(ERROR_CODES[code].status).toBe(422);
    }
    expect(ERROR_CODES.rate_limit_exceeded.status).toBe(429);
    expect(ERROR_CODES.concurrency_limit_exceeded.status).toBe(429);
    expect(ERROR_CODES.tts_workers_busy.status).toBe(503);
    expect(ERROR_CODES.tts_workers_unconfigured.status).toBe(503);
    expect(ERROR_CODES.internal_error.status).toBe(500);
  });

  it('builds the spec envelope', () => {
    expect(errorEnvelope(new ApiError('text_too_long', 'too long'))).toEqual({
      error: { status_code: 422, code: 'text_too_long', message: 'too long' },
    });
  });
});
