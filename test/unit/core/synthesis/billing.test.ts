// The one billing rule: completed pays the whole text, cancelled the chunks handed over, truncated and failed nothing.

import { describe, expect, it } from 'vitest';
import { chargeFor } from '../../../../src/core/synthesis/billing.js';

const end = { totalCodePoints: 100, deliveredCodePoints: 40, audioMs: 1234.5678901, engine: 'espeak' } as const;

describe('chargeFor', () => {
  it.each([
    ['completed', 100],
    ['cancelled', 40],
    ['truncated', 0],
    ['failed', 0],
  ] as const)('%s bills %i', (outcome, used) => {
    expect(chargeFor({ ...end, outcome })).toEqual({ used, report: { engine: 'espeak', audioSeconds: 1.234568, outcome } });
  });

  it('never bills more than the text, and a client that got nothing pays nothing', () => {
    expect(chargeFor({ ...end, outcome: 'cancelled', deliveredCodePoints: 150 }).used).toBe(100);
    expect(chargeFor({ ...end, outcome: 'cancelled', deliveredCodePoints: 0 }).used).toBe(0);
  });

  it('a cancel pays its minimum (an HTTP request left early), delivered or not, never more than the text or on failure', () => {
    expect(chargeFor({ ...end, outcome: 'cancelled', deliveredCodePoints: 0, cancelledMinimumCodePoints: 25 }).used).toBe(25);
    expect(chargeFor({ ...end, outcome: 'cancelled', deliveredCodePoints: 60, cancelledMinimumCodePoints: 25 }).used).toBe(60);
    expect(chargeFor({ ...end, outcome: 'cancelled', deliveredCodePoints: 0, cancelledMinimumCodePoints: 400 }).used).toBe(100);
    expect(chargeFor({ ...end, outcome: 'failed', cancelledMinimumCodePoints: 25 }).used).toBe(0);
    expect(chargeFor({ ...end, outcome: 'truncated', cancelledMinimumCodePoints: 25 }).used).toBe(0);
  });
});
