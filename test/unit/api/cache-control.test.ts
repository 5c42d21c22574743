// The prompt cache's opt-out header: no-store or no-cache, in any case, among other directives or repeated headers.

import { describe, expect, it } from 'vitest';
import { refusesCachedAudio } from '../../../src/api/cache-control.js';

describe('refusesCachedAudio', () => {
  it('no-store and no-cache opt out; other directives and no header do not', () => {
    expect(refusesCachedAudio('no-store')).toBe(true);
    expect(refusesCachedAudio('max-age=0, No-Cache')).toBe(true);
    expect(refusesCachedAudio(['private', 'no-store'])).toBe(true);
    expect(refusesCachedAudio('no-cache="set-cookie"')).toBe(true);
    expect(refusesCachedAudio('max-age=0')).toBe(false);
    expect(refusesCachedAudio('no-transform')).toBe(false);
    expect(refusesCachedAudio(undefined)).toBe(false);
    expect(refusesCachedAudio('')).toBe(false);
  });
});
