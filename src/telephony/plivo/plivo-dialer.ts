// Plivo (and Vobiz): POST {base}/v1/Account/{auth_id}/Call/ (JSON, HTTP Basic auth id : token) with `answer_url` =
// Raaga's answer URL for this call, which returns the <Stream> XML on answer, and ring_url/hangup_url = the status
// URL (https://www.plivo.com/docs/voice/api/call/make-a-call). Numbers go without '+'. Answering-machine detection:
// `machine_detection=hangup` (Plivo ends a call a machine answered). Status: ring_url gets CallStatus=ringing;
// hangup_url gets CallStatus completed | busy | failed | timeout | no-answer | cancel, HangupCause, Duration.

import type { NewOutboundCallEvent, OutboundCall } from '../../store/outbound-call.js';
import type { TelephonySettings } from '../../store/store.js';
import { PLIVO_API_BASE_URL } from './plivo-call-control.js';
import { plivoCredentials } from './plivo-credentials.js';
import { basicAuthorization, DialError, failureOfStatus, providerRequest, seconds, type DialUrls, type ProviderDialer } from '../outbound/dialer.js';

const digits = (e164: string) => e164.replace(/^\+/, '');

export const plivoDialer: ProviderDialer = {
  // Plivo's default.
  defaultCallsPerSecond: 2,

  amdRefusal(amd) {
    return amd.mode !== 'off' && amd.onMachine !== 'hangup'
      ? "Field 'amd.on_machine': Plivo can only hang up on a machine (machine_detection=hangup); send on_machine hangup or amd.mode off."
      : undefined;
  },
  missingCredentials(settings) {
    const { plivoAuthId, plivoAuthToken } = plivoCredentials.read(settings);
    return plivoAuthId && plivoAuthToken ? undefined : 'the account has no Plivo credentials: raaga telephony set --plivo-auth-id … --plivo-auth-token …';
  },

  async place(call: OutboundCall, settings: TelephonySettings, urls: DialUrls, timeoutMs: number): Promise<string> {
    const { plivoAuthId, plivoAuthToken, plivoApiBaseUrl } = plivoCredentials.read(settings);
    const base = plivoApiBaseUrl ?? PLIVO_API_BASE_URL;
    const body = {
      from: digits(call.from),
      to: digits(call.to),
      answer_url: urls.answer,
      answer_method: 'POST',
      ring_url: urls.status,
      ring_method: 'POST',
      hangup_url: urls.status,
      hangup_method: 'POST',
      ring_timeout: call.ringTimeoutS,
      time_limit: call.timeLimitS,
      ...(call.amd.mode === 'off' ? {} : { machine_detection: 'hangup' }),
    };
    const url = `${base}/v1/Account/${encodeURIComponent(plivoAuthId!)}/Call/`;
    const { status, body: reply } = await providerRequest('Plivo', url, { authorization: basicAuthorization(plivoAuthId!, plivoAuthToken!), body: JSON.stringify(body), json: true, timeoutMs });
    const requestUuid = (reply as { request_uuid?: unknown } | null)?.request_uuid;
    if (status >= 200 && status < 300 && typeof requestUuid === 'string') return requestUuid;
    const error = (reply as { error?: unknown } | null)?.error;
    const message = typeof error === 'string' ? error : typeof reply === 'string' ? reply.slice(0, 200) : 'no message';
    let failure = failureOfStatus(status);
    if (failure === 'rejected' && /\bfrom\b|caller/i.test(message)) failure = 'invalid_from';
    else if (failure === 'rejected' && /\bto\b|destination|number/i.test(message)) failure = 'invalid_to';
    throw new DialError(failure, `Plivo refused the call (${status}): ${message}`);
  },

  readStatus(form, atMs): NewOutboundCallEvent | null {
    const base = { atMs, ...(form.RequestUUID ? { providerCallId: form.RequestUUID } : {}), ...(form.CallUUID ? { streamCallId: form.CallUUID } : {}) };
    const cause = form.HangupCause ? form.HangupCause.toLowerCase().replace(/[^a-z0-9]+/g, '_') : undefined;
    switch (form.CallStatus) {
      case 'ringing':
        return { ...base, status: 'ringing' };
      case 'completed':
        return { ...base, status: 'completed', durationS: seconds(form.Duration) ?? 0, hangupCause: cause ?? 'normal_clearing' };
      case 'busy':
        return { ...base, status: 'busy', hangupCause: cause ?? 'busy' };
      case 'no-answer':
      case 'timeout':
        return { ...base, status: 'no_answer', hangupCause: cause ?? 'no_answer' };
      case 'failed':
      case 'cancel':
        return { ...base, status: 'failed', hangupCause: cause ?? form.CallStatus };
      default:
        return null;
    }
  },
};
