// The provider-neutral parts of outbound calls that need no provider: the calling-hours window (time zones, windows
// past midnight), the do-not-call file, each provider's status callback read as Raaga's events, the webhook
// signature, and webhook delivery giving up after its attempts (time injected: no real waits).

import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutboundCall } from '../../../src/store/outbound-call.js';
import { callerIdRefusal, callingHoursRefusal, DoNotCallList, doNotCallRefusal } from '../../../src/telephony/outbound/compliance.js';
import { DestinationPolicy } from '../../../src/telephony/destination/destination-policy.js';
import { exotelDialer } from '../../../src/telephony/exotel/exotel-dialer.js';
import { plivoDialer } from '../../../src/telephony/plivo/plivo-dialer.js';
import { signWebhook, statusPayload, StatusWebhooks, WEBHOOK_ATTEMPTS } from '../../../src/telephony/outbound/status-webhooks.js';
import { twilioDialer } from '../../../src/telephony/twilio/twilio-dialer.js';

const settings = (extra: object) => ({ accountId: 'acct_1', updatedAtMs: 0, ...extra });
/** 2026-11-25 at hh:mm India time (UTC+5:30), as epoch ms. */
const ist = (hh: number, mm: number) => Date.UTC(2026, 10, 25, hh, mm) - 330 * 60_000;

describe('calling hours', () => {
  it('refuses outside the window with the seconds until it opens, and takes any time without one', () => {
    const window = settings({ callingHours: '09:00-21:00' });
    expect(callingHoursRefusal(window, ist(10, 0))).toBeUndefined();
    expect(callingHoursRefusal(window, ist(8, 59))).toMatchObject({ rule: 'calling_hours', retryAfterSeconds: 60 });
    expect(callingHoursRefusal(window, ist(21, 0))).toMatchObject({ rule: 'calling_hours', retryAfterSeconds: 12 * 3600 });
    expect(callingHoursRefusal(window, ist(21, 0))?.message).toContain('09:00 and 21:00 Asia/Kolkata');
    expect(callingHoursRefusal(settings({}), ist(3, 0))).toBeUndefined();
  });

  it('reads the window in its own time zone, and a window may run past midnight', () => {
    // 10:00 in India is 04:30 in London: outside London's 09:00-21:00.
    expect(callingHoursRefusal(settings({ callingHours: '09:00-21:00', callingTimeZone: 'Europe/London' }), ist(10, 0))).toMatchObject({ retryAfterSeconds: 270 * 60 });
    const night = settings({ callingHours: '22:00-02:00' });
    expect(callingHoursRefusal(night, ist(23, 30))).toBeUndefined();
    expect(callingHoursRefusal(night, ist(1, 59))).toBeUndefined();
    expect(callingHoursRefusal(night, ist(2, 0))).toMatchObject({ retryAfterSeconds: 20 * 3600 });
  });
});

describe('caller IDs and the do-not-call list', () => {
  it('allows only the listed caller IDs when there is a list', () => {
    expect(callerIdRefusal(settings({}), '+918000000001')).toBeUndefined();
    expect(callerIdRefusal(settings({ allowedCallerIds: '+918000000001,+918000000002' }), '+918000000002')).toBeUndefined();
    expect(callerIdRefusal(settings({ allowedCallerIds: '+918000000001' }), '+918000000009')).toMatchObject({ rule: 'caller_id' });
  });

  it('reads the file again when it changes, and refuses every call when it cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raaga-dnc-unit-'));
    const path = join(dir, 'dnc.txt');
    writeFileSync(path, '+919000000001  # asked on 2026-11-01\n\n');
    const list = new DoNotCallList(path);
    const dnc = { list, destinations: new DestinationPolicy(), now: () => 0, sleep: async () => undefined };
    const call = { to: '+919000000002', from: '+918000000001', referenceId: undefined };
    expect(list.has('+919000000001')).toBe(true);
    expect(await doNotCallRefusal(dnc, null, call)).toBeUndefined();
    writeFileSync(path, '+919000000002\n');
    // A changed file is seen at the next check (its modification time moved on).
    const { utimesSync } = await import('node:fs');
    utimesSync(path, new Date('2100-01-01'), new Date('2100-01-01'));
    expect(await doNotCallRefusal(dnc, null, call)).toMatchObject({ rule: 'do_not_call' });
    const { rmSync } = await import('node:fs');
    rmSync(path);
    expect(await doNotCallRefusal(dnc, null, call)).toMatchObject({ rule: 'dnc_unavailable' });
    expect(() => new DoNotCallList(join(dir, 'missing.txt'))).toThrow(/ENOENT/);
  });
});

describe("providers' status callbacks as Raaga's events", () => {
  it('Twilio: CallStatus values; in-progress is left to the answer URL', () => {
    expect(twilioDialer.readStatus({ CallSid: 'CA1', CallStatus: 'ringing' }, 5)).toEqual({ atMs: 5, providerCallId: 'CA1', status: 'ringing' });
    expect(twilioDialer.readStatus({ CallSid: 'CA1', CallStatus: 'in-progress' }, 5)).toBeNull();
    expect(twilioDialer.readStatus({ CallSid: 'CA1', CallStatus: 'completed', CallDuration: '42' }, 5)).toMatchObject({ status: 'completed', durationS: 42 });
    expect(twilioDialer.readStatus({ CallSid: 'CA1', CallStatus: 'no-answer' }, 5)).toMatchObject({ status: 'no_answer' });
    expect(twilioDialer.readStatus({ CallSid: 'CA1', CallStatus: 'failed', SipResponseCode: '404' }, 5)).toMatchObject({ status: 'failed', hangupCause: 'sip_404' });
    expect(twilioDialer.readStatus({ CallSid: 'CA1', CallStatus: 'canceled' }, 5)).toMatchObject({ status: 'failed', hangupCause: 'canceled' });
  });

  it('Exotel: EventType, then the terminal Status', () => {
    expect(exotelDialer.readStatus({ CallSid: 'e1', EventType: 'answered' }, 5)).toMatchObject({ status: 'answered', streamCallId: 'e1' });
    expect(exotelDialer.readStatus({ CallSid: 'e1', EventType: 'terminal', Status: 'completed', ConversationDuration: '7' }, 5)).toMatchObject({ status: 'completed', durationS: 7 });
    // Without EventType (the default subscription) the callback is the terminal one.
    expect(exotelDialer.readStatus({ CallSid: 'e1', Status: 'busy' }, 5)).toMatchObject({ status: 'busy' });
    expect(exotelDialer.readStatus({ CallSid: 'e1', Status: 'in-progress' }, 5)).toBeNull();
  });

  it('Plivo: ring and hangup callbacks, HangupCause normalised, timeout as no_answer', () => {
    expect(plivoDialer.readStatus({ RequestUUID: 'r', CallUUID: 'c', CallStatus: 'ringing' }, 5)).toEqual({ atMs: 5, providerCallId: 'r', streamCallId: 'c', status: 'ringing' });
    expect(plivoDialer.readStatus({ RequestUUID: 'r', CallStatus: 'completed', HangupCause: 'NORMAL_CLEARING', Duration: '9' }, 5)).toMatchObject({ status: 'completed', durationS: 9, hangupCause: 'normal_clearing' });
    expect(plivoDialer.readStatus({ RequestUUID: 'r', CallStatus: 'timeout' }, 5)).toMatchObject({ status: 'no_answer' });
    expect(plivoDialer.readStatus({ RequestUUID: 'r', CallStatus: 'cancel' }, 5)).toMatchObject({ status: 'failed', hangupCause: 'cancel' });
  });
});

describe('status webhooks', () => {
  const call: OutboundCall = {
    id: 'call_abcdefghijkl',
    accountId: 'acct_1',
    provider: 'plivo',
    to: '+919812345678',
    from: '+918035551234',
    settings: {},
    amd: { mode: 'off', onMachine: 'agent' },
    ringTimeoutS: 30,
    timeLimitS: 600,
    statusWebhook: undefined,
    idempotencyKey: undefined,
    requestHash: '0',
    referenceId: 'ref-1',
    createdAtMs: 0,
  };

  it('signs t.body with HMAC-SHA256 of the secret', () => {
    const body = '{"a":1}';
    expect(signWebhook('secret-secret-secret', body, 1_764_000_000)).toBe(`t=1764000000,v1=${createHmac('sha256', 'secret-secret-secret').update(`1764000000.${body}`).digest('hex')}`);
  });

  it(`gives up after ${WEBHOOK_ATTEMPTS} attempts with doubling waits; the call's next task runs after it`, async () => {
    const attempts: number[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const sequence = (JSON.parse(body) as { sequence: number }).sequence;
        attempts.push(sequence);
        res.writeHead(sequence === 1 ? 500 : 200).end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const waits: number[] = [];
    const gaveUp: [string, string][] = [];
    const webhooks = new StatusWebhooks({ retryBaseMs: 100, destinations: new DestinationPolicy(['127.0.0.1/32']), now: () => 0, sleep: async (ms) => void waits.push(ms), onGiveUp: (...args) => void gaveUp.push(args) });
    const results: boolean[] = [];
    for (const sequence of [1, 2]) {
      void webhooks.serially(call.id, async () => void results.push(await webhooks.post(url, 'secret-secret-secret', statusPayload(call, { status: sequence === 1 ? 'queued' : 'initiated', atMs: 0, sequence }))));
    }
    await webhooks.idle();
    expect(results).toEqual([false, true]);
    server.close();
    expect(attempts).toEqual([...Array<number>(WEBHOOK_ATTEMPTS).fill(1), 2]);
    expect(waits).toEqual([100, 200, 400, 800, 1600, 3200, 6400]);
    expect(gaveUp).toEqual([['call_abcdefghijkl.1', 'status 500']]);
  });
});
