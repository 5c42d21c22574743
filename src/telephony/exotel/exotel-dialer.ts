// Exotel: Connect Voice AI, POST {base}/v1/Accounts/{sid}/Calls/connect.json with HTTP Basic (API key : token): Exotel
// dials `From` (the callee) from `CallerId` (the account's ExoPhone) and, on answer, opens the bidirectional stream
// at `StreamUrl` (https://developer.exotel.com/docs/agentstream/connect-voice-ai). Raaga's StreamUrl carries a token
// for this call in its path (at most 600 characters, and its query is the flow's 3 custom parameters, so the call's
// settings stay in Raaga's record). Status: StatusCallback with EventType ringing | answered | terminal and Status
// completed | failed | busy | no-answer (https://developer.exotel.com/api/statuscallback). Exotel has no
// answering-machine detection on streamed calls.

import type { NewOutboundCallEvent, OutboundCall } from '../../store/outbound-call.js';
import type { TelephonySettings } from '../../store/store.js';
import { exotelCredentials } from './exotel-credentials.js';
import { basicAuthorization, DialError, failureOfStatus, providerRequest, seconds, type DialUrls, type ProviderDialer } from '../outbound/dialer.js';

export const EXOTEL_API_BASE_URL = 'https://api.exotel.com';
/** Exotel's limit on StreamUrl. */
export const EXOTEL_STREAM_URL_MAX = 600;

export const exotelDialer: ProviderDialer = {
  // Exotel's 200 calls a minute.
  defaultCallsPerSecond: 3,

  amdRefusal(amd) {
    return amd.mode === 'off' ? undefined : "Field 'amd': Exotel has no answering-machine detection on streamed calls; send amd.mode off.";
  },
  missingCredentials(settings) {
    const { exotelApiKey, exotelApiToken, exotelAccountSid } = exotelCredentials.read(settings);
    return exotelApiKey && exotelApiToken && exotelAccountSid
      ? undefined
      : 'the account has no Exotel REST credentials: raaga telephony set --exotel-api-key … --exotel-api-token … --exotel-account-sid …';
  },

  async place(call: OutboundCall, settings: TelephonySettings, urls: DialUrls, timeoutMs: number): Promise<string> {
    if (urls.stream.length > EXOTEL_STREAM_URL_MAX) throw new DialError('rejected', `the stream URL is ${urls.stream.length} characters, over Exotel's ${EXOTEL_STREAM_URL_MAX}: use a shorter PUBLIC_URL`);
    const { exotelApiKey, exotelApiToken, exotelAccountSid, exotelApiBaseUrl } = exotelCredentials.read(settings);
    const base = exotelApiBaseUrl ?? EXOTEL_API_BASE_URL;
    const form = new URLSearchParams({
      From: call.to,
      CallerId: call.from,
      StreamUrl: urls.stream,
      StreamType: 'bidirectional',
      CallType: 'trans',
      TimeLimit: String(call.timeLimitS),
      TimeOut: String(call.ringTimeoutS),
      StatusCallback: urls.status,
      CustomField: call.id,
    });
    for (const [i, event] of ['ringing', 'answered', 'terminal'].entries()) form.append(`StatusCallbackEvents[${i}]`, event);
    const url = `${base}/v1/Accounts/${encodeURIComponent(exotelAccountSid!)}/Calls/connect.json`;
    const { status, body } = await providerRequest('Exotel', url, { authorization: basicAuthorization(exotelApiKey!, exotelApiToken!), body: form, timeoutMs });
    const sid = (body as { Call?: { Sid?: unknown } } | null)?.Call?.Sid;
    if (status >= 200 && status < 300 && typeof sid === 'string') return sid;
    const exception = (body as { RestException?: { Message?: unknown } } | null)?.RestException;
    const message = typeof exception?.Message === 'string' ? exception.Message : typeof body === 'string' ? body.slice(0, 200) : 'no message';
    let failure = failureOfStatus(status);
    if (failure === 'rejected' && /\bcaller ?id\b|exophone/i.test(message)) failure = 'invalid_from';
    else if (failure === 'rejected' && /\bfrom\b|number/i.test(message)) failure = 'invalid_to';
    throw new DialError(failure, `Exotel refused the call (${status}): ${message}`);
  },

  readStatus(form, atMs): NewOutboundCallEvent | null {
    const base = { atMs, ...(form.CallSid ? { providerCallId: form.CallSid } : {}) };
    const event = form.EventType?.toLowerCase();
    if (event === 'ringing') return { ...base, status: 'ringing' };
    if (event === 'answered') return { ...base, status: 'answered', ...(form.CallSid ? { streamCallId: form.CallSid } : {}) };
    // `terminal`, or a callback without EventType (Exotel's default: the call is over).
    switch (form.Status) {
      case 'completed':
        return { ...base, status: 'completed', durationS: seconds(form.ConversationDuration) ?? 0, hangupCause: 'normal_clearing' };
      case 'busy':
        return { ...base, status: 'busy', hangupCause: 'busy' };
      case 'no-answer':
        return { ...base, status: 'no_answer', hangupCause: 'no_answer' };
      case 'failed':
        return { ...base, status: 'failed', hangupCause: 'failed' };
      default:
        return null;
    }
  },
};
