// Collecting keys on an injected clock: each way a gather ends, when its clocks start, and that a result is told
// once and stays readable.

import { describe, expect, it } from 'vitest';
import { DtmfGather, GATHER_DEFAULTS, type GatherResult, type GatherSpec } from '../../../src/session/dtmf-gather.js';
import { FakeClock } from '../../helpers/fake-clock.js';

function setup() {
  const clock = new FakeClock(0);
  const told: GatherResult[] = [];
  const gather = new DtmfGather(clock, (result) => told.push(result));
  return { clock, told, gather };
}

const spec = (overrides: Partial<GatherSpec> = {}): GatherSpec => ({
  gatherId: 'g1',
  numDigits: undefined,
  finishOnKey: GATHER_DEFAULTS.finishOnKey,
  timeoutMs: 5000,
  interDigitTimeoutMs: 3000,
  ...overrides,
});

describe('DtmfGather', () => {
  it('ends on the finish key, which is not part of the digits', () => {
    const { told, gather } = setup();
    gather.start(spec(), undefined);
    for (const key of '1234#') expect(gather.key(key)).toBe('taken');
    expect(told).toEqual([{ gatherId: 'g1', digits: '1234', reason: 'finish_key' }]);
    expect(gather.active).toBeUndefined();
    // The next key is the call's again.
    expect(gather.key('5')).toBe('none');
  });

  it('ends at num_digits; with no finish key, # is a digit like any other', () => {
    const { told, gather } = setup();
    gather.start(spec({ numDigits: 4, finishOnKey: '' }), undefined);
    for (const key of '12#4') gather.key(key);
    expect(told).toEqual([{ gatherId: 'g1', digits: '12#4', reason: 'max_digits' }]);
  });

  it('times out waiting for the first key, then between keys, keeping what was typed', async () => {
    const { clock, told, gather } = setup();
    gather.start(spec(), undefined);
    await clock.advance(4999);
    expect(told).toEqual([]);
    await clock.advance(1);
    expect(told).toEqual([{ gatherId: 'g1', digits: '', reason: 'timeout' }]);

    gather.start(spec({ gatherId: 'g2' }), undefined);
    await clock.advance(1000);
    gather.key('7');
    await clock.advance(2999);
    gather.key('8');
    // Each key restarts the inter-digit clock.
    await clock.advance(2999);
    expect(told).toHaveLength(1);
    await clock.advance(1);
    expect(told.at(-1)).toEqual({ gatherId: 'g2', digits: '78', reason: 'timeout' });
    expect(clock.pendingTimers).toBe(0);
  });

  it('starts the first-key clock only when the prompt is over; a key during the prompt counts', async () => {
    const { clock, told, gather } = setup();
    gather.start(spec(), { interruptible: true });
    await clock.advance(60_000);
    expect(told).toEqual([]);
    expect(gather.prompting).toBe(true);
    gather.promptOver('other');
    expect(gather.prompting).toBe(true);
    gather.promptOver('g1');
    await clock.advance(5000);
    expect(told).toEqual([{ gatherId: 'g1', digits: '', reason: 'timeout' }]);

    gather.start(spec({ gatherId: 'g2' }), { interruptible: true });
    // The first key over an interruptible prompt cuts it; none after that does.
    expect(gather.key('4')).toBe('cut-prompt');
    expect(gather.prompting).toBe(false);
    // The prompt's end after a key changes nothing: the inter-digit clock already runs.
    gather.promptOver('g2');
    await clock.advance(3000);
    expect(told.at(-1)).toEqual({ gatherId: 'g2', digits: '4', reason: 'timeout' });

    // A prompt that may not be cut keeps playing: its keys are only taken.
    gather.start(spec({ gatherId: 'g3' }), { interruptible: false });
    expect(gather.key('1')).toBe('taken');
    expect(gather.key('2')).toBe('taken');
  });

  it('a new gather ends the running one; the call ending ends it too; each is told once', async () => {
    const { clock, told, gather } = setup();
    gather.start(spec(), undefined);
    gather.key('1');
    gather.start(spec({ gatherId: 'g2' }), undefined);
    gather.key('2');
    gather.callEnded();
    gather.callEnded();
    await clock.advance(10_000);
    expect(told).toEqual([
      { gatherId: 'g1', digits: '1', reason: 'replaced' },
      { gatherId: 'g2', digits: '2', reason: 'hangup' },
    ]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('results stay readable; a waiter is answered when the gather is decided', async () => {
    const { gather } = setup();
    expect(gather.result('g1')).toBeUndefined();
    expect(gather.whenDecided('g1')).toBeUndefined();
    gather.start(spec(), undefined);
    expect(gather.result('g1')).toBe('pending');
    const waiting = gather.whenDecided('g1');
    gather.key('9');
    gather.key('#');
    await expect(waiting).resolves.toEqual({ gatherId: 'g1', digits: '9', reason: 'finish_key' });
    expect(gather.result('g1')).toEqual({ gatherId: 'g1', digits: '9', reason: 'finish_key' });
    await expect(gather.whenDecided('g1')).resolves.toEqual({ gatherId: 'g1', digits: '9', reason: 'finish_key' });
    // Only the last 32 are kept.
    for (let i = 2; i <= 33; i++) {
      gather.start(spec({ gatherId: `g${i}` }), undefined);
      gather.key('#');
    }
    expect(gather.result('g1')).toBeUndefined();
    expect(gather.result('g2')).toEqual({ gatherId: 'g2', digits: '', reason: 'finish_key' });
  });
});
