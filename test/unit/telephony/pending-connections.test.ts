// Connections not yet authenticated (H2): their budget in all and per source address, and CallAdmission's ticket that
// trades a pending place for a call slot only once the connection authenticated.

import { describe, expect, it } from 'vitest';
import type { CallAdmissionConfig } from '../../../src/config.js';
import { CallAdmission, type ConnectionTicket } from '../../../src/telephony/call-admission.js';
import { PendingConnections } from '../../../src/telephony/pending-connections.js';

function setup(config: CallAdmissionConfig) {
  const refusals: [string, string][] = [];
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const admission = new CallAdmission({
    config,
    lag: { p99Ms: () => 0 },
    now: () => 0,
    metrics: { callRefused: (provider, reason) => refusals.push([provider, reason]) },
    log: (_level, fields, message) => lines.push({ fields, message }),
  });
  return { admission, refusals, lines };
}

const ticket = (result: ReturnType<CallAdmission['admitConnection']>): ConnectionTicket => {
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result;
};

describe('PendingConnections', () => {
  it('holds at most maxPendingStreams in all and maxPendingPerSource per address; a place released twice frees one', () => {
    const pending = new PendingConnections({ maxPendingStreams: 4, maxPendingPerSource: 2 });
    const a1 = pending.hold('10.0.0.1');
    pending.hold('10.0.0.1');
    expect(pending.refusal('10.0.0.1')).toBe('pending_per_source');
    expect(pending.refusal('10.0.0.2')).toBeUndefined();
    pending.hold('10.0.0.2');
    pending.hold('10.0.0.3');
    expect(pending.refusal('10.0.0.4')).toBe('pending_streams');
    a1.release();
    a1.release();
    expect([pending.held, pending.heldBy('10.0.0.1'), pending.heldBy('10.0.0.2')]).toEqual([3, 1, 1]);
    expect(pending.refusal('10.0.0.1')).toBeUndefined();
  });

  it('maxPendingPerSource 0 caps only the total', () => {
    const pending = new PendingConnections({ maxPendingStreams: 3, maxPendingPerSource: 0 });
    for (let i = 0; i < 3; i++) {
      expect(pending.refusal('10.0.0.1')).toBeUndefined();
      pending.hold('10.0.0.1');
    }
    expect(pending.refusal('10.0.0.1')).toBe('pending_streams');
  });
});

describe('CallAdmission.admitConnection', () => {
  it('pending connections hold no call slot; admit trades the place for a slot; release frees whichever is held', () => {
    const { admission } = setup({ maxCalls: 1, shedLagMs: 40, maxPendingStreams: 3, maxPendingPerSource: 3 });
    const bare = [1, 2].map(() => ticket(admission.admitConnection('twilio', '10.0.0.9')));
    const real = ticket(admission.admitConnection('twilio', '10.0.0.1'));
    expect([admission.liveCalls, admission.pendingConnections, admission.saturated]).toEqual([0, 3, false]);
    expect(real.admit()).toBeUndefined();
    expect([admission.liveCalls, admission.pendingConnections, admission.saturated]).toEqual([1, 2, true]);
    // A second admit holds nothing more.
    expect(real.admit()).toBeUndefined();
    expect(admission.liveCalls).toBe(1);
    real.release();
    real.release();
    expect([admission.liveCalls, admission.pendingConnections]).toEqual([0, 2]);
    for (const connection of bare) connection.release();
    expect(admission.pendingConnections).toBe(0);
  });

  it('full of authenticated calls, a new connection is refused max_calls; one that authenticates into a full process gets the reason and gives its place back', () => {
    const { admission, refusals } = setup({ maxCalls: 1, shedLagMs: 40, maxPendingStreams: 4, maxPendingPerSource: 4 });
    const late = ticket(admission.admitConnection('exotel', '10.0.0.2'));
    const first = ticket(admission.admitConnection('exotel', '10.0.0.1'));
    expect(first.admit()).toBeUndefined();
    expect(admission.admitConnection('exotel', '10.0.0.3')).toEqual({ ok: false, reason: 'max_calls' });
    expect(late.admit()).toBe('max_calls');
    expect([admission.liveCalls, admission.pendingConnections]).toEqual([1, 0]);
    late.release();
    expect(admission.liveCalls).toBe(1);
    expect(refusals).toEqual([
      ['exotel', 'max_calls'],
      ['exotel', 'max_calls'],
    ]);
  });

  it('a full pending budget refuses with pending_streams, a full address with pending_per_source (logged with the address)', () => {
    const { admission, refusals, lines } = setup({ maxCalls: 2, shedLagMs: 40, maxPendingStreams: 3, maxPendingPerSource: 2 });
    ticket(admission.admitConnection('twilio', '10.0.0.1'));
    ticket(admission.admitConnection('twilio', '10.0.0.1'));
    expect(admission.admitConnection('twilio', '10.0.0.1')).toEqual({ ok: false, reason: 'pending_per_source' });
    ticket(admission.admitConnection('audiosocket', '10.0.0.2'));
    expect(admission.admitConnection('audiosocket', '10.0.0.3')).toEqual({ ok: false, reason: 'pending_streams' });
    expect(refusals).toEqual([
      ['twilio', 'pending_per_source'],
      ['audiosocket', 'pending_streams'],
    ]);
    expect(lines.map((line) => [line.fields.reason, line.fields.source])).toEqual([
      ['pending_per_source', '10.0.0.1'],
      ['pending_streams', undefined],
    ]);
    expect(admission.liveCalls).toBe(0);
  });

  it('without pending limits in its config, the budget is twice maxCalls with no cap per address', () => {
    const { admission } = setup({ maxCalls: 2, shedLagMs: 40 });
    for (let i = 0; i < 4; i++) ticket(admission.admitConnection('twilio', '10.0.0.1'));
    expect(admission.admitConnection('twilio', '10.0.0.2')).toEqual({ ok: false, reason: 'pending_streams' });
  });
});
