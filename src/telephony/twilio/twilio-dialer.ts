// Twilio: `calls.create` (POST /2010-04-01/Accounts/{AC}/Calls.json) with `Url` = Raaga's voice webhook for this
// call, so the TwiML and its call token are made when the callee answers (the token is bound to the CallSid, which
// only exists once the call does, and a long ring cannot outlive it). Machine detection is Twilio's synchronous
// AMD: Twilio fetches the URL once it decided, with AnsweredBy (https://www.twilio.com/docs/voice/answering-machine-detection).
// Status: StatusCallback with the four StatusCallbackEvents; CallStatus queued | initiated | ringing | in-progress |
// completed | busy | no-answer | failed | canceled (https://www.twilio.com/docs/voice/api/call-resource#statuscallbackevent).

import type { NewOutboundCallEvent, OutboundCall } from '../../store/outbound-call.js';
import type { TelephonySettings } from '../../store/store.js';
import { twilioRestClient } from './twilio-call-control.js';
import { DialError, failureOfStatus, seconds, type DialFailure, type DialUrls, type ProviderDialer } from '../outbound/dialer.js';

/** Twilio error codes that name the number at fault (https://www.twilio.com/docs/api/errors). */
const TO_ERRORS = new Set([13223, 13224, 21211, 21214, 21215, 21216, 21217, 21401, 21407, 21421, 21612]);
const FROM_ERRORS = new Set([13214, 21210, 21212, 21213, 21219, 21606, 21608]);
const AUTH_ERRORS = new Set([20003, 20005]);

function failureOf(code: number | undefined, status: number): DialFailure {
  if (code !== undefined && TO_ERRORS.has(code)) return 'invalid_to';
  if (code !== undefined && FROM_ERRORS.has(code)) return 'invalid_from';
  if (code !== undefined && AUTH_ERRORS.has(code)) return 'auth_failed';
  return failureOfStatus(status);
}

export const twilioDialer: ProviderDialer = {
  // Twilio's account default.
  defaultCallsPerSecond: 1,
  signsStatusCallbacks: true,
  missingCredentials(settings) {
    return twilioRestClient(settings) ? undefined : 'the account has no Twilio REST credentials: raaga telephony set --twilio-account-sid AC… with --twilio-api-key/--twilio-api-secret or --twilio-auth-token';
  },

  async place(call: OutboundCall, settings: TelephonySettings, urls: DialUrls, timeoutMs: number): Promise<string> {
    const client = twilioRestClient(settings, timeoutMs);
    if (!client) throw new DialError('auth_failed', 'the account has no Twilio REST credentials');
    const amd = call.amd.mode === 'off' ? {} : { machineDetection: call.amd.mode === 'detect_message_end' ? 'DetectMessageEnd' : 'Enable' };
    try {
      const created = await client.calls.create({
        to: call.to,
        from: call.from,
        url: urls.answer,
        method: 'POST',
        statusCallback: urls.status,
        statusCallbackMethod: 'POST',
        statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
        timeout: call.ringTimeoutS,
        timeLimit: call.timeLimitS,
        ...amd,
      });
      return created.sid;
    } catch (error) {
      if (error instanceof DialError) throw error;
      const rest = error as { status?: number; code?: number; message?: string };
      if (typeof rest.status !== 'number') throw new DialError('unavailable', `Twilio's API could not be reached (${(error as Error).message}); retry later.`);
      throw new DialError(failureOf(rest.code, rest.status), `Twilio refused the call (${rest.status}${rest.code ? `, error ${rest.code}` : ''}): ${rest.message ?? 'no message'}`);
    }
  },

  readStatus(form, atMs): NewOutboundCallEvent | null {
    const base = { atMs, ...(form.CallSid ? { providerCallId: form.CallSid } : {}) };
    const duration = seconds(form.CallDuration);
    switch (form.CallStatus) {
      case 'initiated':
        return { ...base, status: 'initiated' };
      case 'ringing':
        return { ...base, status: 'ringing' };
      // `answered` is recorded by the voice webhook, which also knows who answered (AMD runs before it).
      case 'completed':
        return { ...base, status: 'completed', durationS: duration ?? 0, hangupCause: 'normal_clearing' };
      case 'busy':
        return { ...base, status: 'busy', hangupCause: 'busy' };
      case 'no-answer':
        return { ...base, status: 'no_answer', hangupCause: 'no_answer' };
      case 'canceled':
        return { ...base, status: 'failed', hangupCause: 'canceled' };
      case 'failed':
        return { ...base, status: 'failed', hangupCause: form.SipResponseCode ? `sip_${form.SipResponseCode}` : 'failed' };
      default:
        return null;
    }
  },
};
