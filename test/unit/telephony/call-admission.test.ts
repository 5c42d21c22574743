// CallAdmission with an injected lag and clock: the per-process limit and its slots, shedding with hysteresis, the
// refusal counted per call and logged once per burst; and the lag window's median.

import { describe, expect, it } from 'vitest';
import { CallAdmission, REFUSAL_BURST_GAP_MS, serverBusyError, type CallAdmissionResult } from '../../../src/telephony/call-admission.js';
import { LagWindow } from '../../../src/util/event-loop-lag.js';

function setup(maxCalls: number, shedLagMs = 40) {
  const state = { lagMs: 0, nowMs: 1000 };
  const refusals: [string, string][] = [];
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const admission = new CallAdmission({
    config: { maxCalls, shedLagMs },
    lag: { p99Ms: () => state.lagMs },
    now: () => state.nowMs,
    metrics: { callRefused: (provider, reason) => refusals.push([provider, reason]) },
    log: (level, fields, message) => lines.push({ level, fields, message }),
  });
  return { admission, state, refusals, lines, refusalLines: () => lines.filter((line) => line.message.startsWith('new calls refused')) };
}

const slot = (result: CallAdmissionResult) => {
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result;
};

describe('CallAdmission', () => {
  it('draining refuses every new call (webhook checks, streams not answered before), but takes a stream already answered', () => {
    const { admission, refusals } = setup(4);
    const live = slot(admission.tryAdmit('twilio'));
    admission.beginDrain();
    expect(admission.check('twilio')).toBe('draining');
    expect(admission.tryAdmit('exotel')).toEqual({ ok: false, reason: 'draining' });
    // A media connection may still connect (it may carry a call answered before the drain)...
    const answered = admission.admitConnection('twilio', '203.0.113.9');
    const fresh = admission.admitConnection('exotel', '203.0.113.9');
    if (!answered.ok || !fresh.ok) throw new Error('a connection was refused before it could prove anything');
    // ...and only its authenticated start tells: a call token of our answer is taken, anything else refused.
    expect(answered.admit(true)).toBeUndefined();
    expect(fresh.admit(false)).toBe('draining');
    expect(admission.liveCalls).toBe(2);
    expect(refusals.map(([, reason]) => reason)).toEqual(['draining', 'draining', 'draining']);
    expect(serverBusyError('draining').message).toMatch(/shutting down and takes no new calls/);
    live.release();
    answered.release();
    expect(admission.liveCalls).toBe(0);
  });

  it('whenNoCalls resolves once the last call and the last connection waiting to authenticate are gone', async () => {
    const { admission } = setup(4);
    const order: string[] = [];
    const call = slot(admission.tryAdmit('twilio'));
    const waiting = admission.admitConnection('exotel', '198.51.100.7');
    if (!waiting.ok) throw new Error('refused');
    const done = admission.whenNoCalls(0).then(() => order.push('no calls'));
    call.release();
    await Promise.resolve();
    order.push('call released');
    waiting.release();
    await done;
    expect(order).toEqual(['call released', 'no calls']);
    // With nothing live it resolves at once.
    await admission.whenNoCalls(0);
  });

  it('whenNoCalls waits out the answer window after a webhook accepted a call (its stream is on the way)', async () => {
    const { admission, state } = setup(4);
    expect(admission.check('twilio')).toBeUndefined();
    state.nowMs += 40;
    const order: string[] = [];
    const done = admission.whenNoCalls(50).then(() => order.push('no calls'));
    // Whatever resolves without the window's end has resolved by the next turn of the loop.
    await new Promise(setImmediate);
    order.push('window over');
    state.nowMs += 10;
    await done;
    expect(order).toEqual(['window over', 'no calls']);
  });

  it('holds at most maxCalls slots; a released slot (released twice) frees exactly one', () => {
    const { admission, refusals } = setup(2);
    const first = slot(admission.tryAdmit('twilio'));
    slot(admission.tryAdmit('exotel'));
    expect(admission.liveCalls).toBe(2);
    expect(admission.tryAdmit('plivo')).toEqual({ ok: false, reason: 'max_calls' });
    expect(admission.check('twilio')).toBe('max_calls');
    first.release();
    first.release();
    expect(admission.liveCalls).toBe(1);
    expect(admission.check('twilio')).toBeUndefined();
    slot(admission.tryAdmit('asterisk'));
    expect(admission.liveCalls).toBe(2);
    expect(refusals).toEqual([
      ['plivo', 'max_calls'],
      ['twilio', 'max_calls'],
    ]);
  });

  it('check never takes a slot', () => {
    const { admission } = setup(1);
    for (let i = 0; i < 5; i++) expect(admission.check('twilio')).toBeUndefined();
    expect(admission.liveCalls).toBe(0);
  });

  it('sheds from the threshold and stops only under half of it (no flapping in between)', () => {
    const { admission, state, lines } = setup(10, 40);
    state.lagMs = 39;
    expect(admission.shedding).toBe(false);
    state.lagMs = 40;
    expect(admission.shedding).toBe(true);
    expect(admission.tryAdmit('twilio')).toEqual({ ok: false, reason: 'event_loop_lag' });
    expect(admission.liveCalls).toBe(0);
    // Between half and the threshold the state holds, whichever way the lag moves.
    for (const lagMs of [30, 20, 35]) {
      state.lagMs = lagMs;
      expect(admission.shedding).toBe(true);
    }
    state.lagMs = 19;
    expect(admission.shedding).toBe(false);
    slot(admission.tryAdmit('twilio'));
    state.lagMs = 25;
    expect(admission.shedding).toBe(false);
    expect(lines.filter((line) => line.message.startsWith('shedding load')).map((line) => line.fields)).toEqual([{ lagP99Ms: 40, shedLagMs: 40, liveCalls: 0 }]);
    expect(lines.filter((line) => line.message.startsWith('load shedding over'))).toHaveLength(1);
  });

  it('lag is reported before the limit, and a zero threshold never sheds', () => {
    const full = setup(0, 40);
    full.state.lagMs = 100;
    expect(full.admission.check('exotel')).toBe('event_loop_lag');
    const never = setup(1, 0);
    never.state.lagMs = 10_000;
    expect(never.admission.shedding).toBe(false);
    slot(never.admission.tryAdmit('exotel'));
  });

  it('logs a burst of refusals once; a new reason or a quiet gap starts a new burst, which says how many the last one had', () => {
    const { admission, state, refusals, refusalLines } = setup(0);
    for (let i = 0; i < 5; i++) {
      admission.check('twilio');
      state.nowMs += REFUSAL_BURST_GAP_MS - 1;
    }
    expect(refusals).toHaveLength(5);
    expect(refusalLines()).toHaveLength(1);
    expect(refusalLines()[0]!.fields).toMatchObject({ reason: 'max_calls', provider: 'twilio', liveCalls: 0, maxCalls: 0, previousBurstRefusals: 0 });
    state.nowMs += REFUSAL_BURST_GAP_MS;
    admission.tryAdmit('audiosocket');
    expect(refusalLines()).toHaveLength(2);
    expect(refusalLines()[1]!.fields).toMatchObject({ provider: 'audiosocket', previousBurstRefusals: 5 });
    state.lagMs = 100;
    admission.tryAdmit('audiosocket');
    expect(refusalLines().map((line) => line.fields.reason)).toEqual(['max_calls', 'max_calls', 'event_loop_lag']);
  });

  it('a refusal over HTTP is 503 server_busy with a Retry-After', () => {
    const error = serverBusyError('max_calls');
    expect(error).toMatchObject({ code: 'server_busy', status: 503 });
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(serverBusyError('event_loop_lag').message).toMatch(/lags/);
  });
});

describe('LagWindow', () => {
  it('reports the median of the last slices, so one bad second neither starts nor ends shedding', () => {
    const window = new LagWindow(3);
    expect(window.p99Ms()).toBeUndefined();
    window.push(2);
    window.push(90);
    // Fewer slices than the window: no verdict.
    expect(window.p99Ms()).toBeUndefined();
    window.push(3);
    expect(window.p99Ms()).toBe(3);
    window.push(80);
    window.push(70);
    expect(window.p99Ms()).toBe(70);
    window.push(1);
    expect(window.p99Ms()).toBe(70);
    window.push(1);
    expect(window.p99Ms()).toBe(1);
    window.clear();
    window.push(100);
    expect(window.p99Ms()).toBeUndefined();
  });
});
