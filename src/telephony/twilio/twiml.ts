// TwiML that connects a call to Raaga's media endpoint, built with the twilio package's VoiceResponse:
// <Connect><Stream url=wss://…><Parameter …/></Stream></Connect>. Per-call settings travel as <Parameter>s
// (Twilio drops query strings on stream URLs); Twilio caps each name + value under 500 characters.

import twilio from 'twilio';
import type { TransferOptions } from '../../session/call-events.js';

export const MAX_PARAMETER_CHARS = 499;

export interface StreamTwiml {
  /** wss://host/v1/telephony/twilio/media[/accountId] (ws:// only for local simulators). */
  readonly streamUrl: string;
  /** Unique per call: Twilio rejects a second stream of the same name on one call. */
  readonly streamName?: string;
  readonly parameters: Readonly<Record<string, string>>;
  /** Absolute URL for stream-started/stopped/error callbacks. */
  readonly statusCallback?: string;
  /**
   * Absolute URL Twilio requests (POST) when <Connect> ends, for the TwiML that follows the stream: a transfer the
   * call asked for by ending its stream, or a hangup. Without it Twilio runs the next verb, if any.
   */
  readonly connectAction?: string;
}

export class TwimlParameterError extends Error {
  constructor(readonly parameter: string) {
    super(`parameter '${parameter}': name and value together must stay under 500 characters (a Twilio limit)`);
    this.name = 'TwimlParameterError';
  }
}

export function streamTwiml(spec: StreamTwiml): string {
  const response = new twilio.twiml.VoiceResponse();
  const stream = response.connect(spec.connectAction ? { action: spec.connectAction, method: 'POST' } : {}).stream({
    url: spec.streamUrl,
    name: spec.streamName ?? 'raaga',
    ...(spec.statusCallback ? { statusCallback: spec.statusCallback, statusCallbackMethod: 'POST' as const } : {}),
  });
  for (const [name, value] of Object.entries(spec.parameters)) {
    if (name.length + value.length > MAX_PARAMETER_CHARS) throw new TwimlParameterError(name);
    stream.parameter({ name, value });
  }
  return response.toString();
}

/**
 * A call this server cannot take now (its call limit, or shedding load): Twilio answers the caller busy and bills
 * nothing, since the call is never answered (https://www.twilio.com/docs/voice/twiml/reject).
 */
export function rejectBusyTwiml(): string {
  const response = new twilio.twiml.VoiceResponse();
  response.reject({ reason: 'busy' });
  return response.toString();
}

/** After the stream, with no transfer asked for: end the call. */
export function hangupTwiml(): string {
  const response = new twilio.twiml.VoiceResponse();
  response.hangup();
  return response.toString();
}

/**
 * The TwiML that dials a transfer target: what a REST transfer redirects the call to, or the <Connect action> answer.
 * With `action`, Twilio asks that URL once the dial is over (DialCallStatus), so a failed transfer comes back to
 * Raaga instead of hanging up in silence.
 */
export function dialTwiml(to: string, options: TransferOptions = {}, action?: string): string {
  const response = new twilio.twiml.VoiceResponse();
  const attributes = {
    ...(options.callerId !== undefined ? { callerId: options.callerId } : {}),
    ...(options.timeoutS !== undefined ? { timeout: options.timeoutS } : {}),
    ...(action !== undefined ? { action, method: 'POST' as const } : {}),
  };
  if (/^sips?:/i.test(to)) response.dial(attributes).sip(to);
  else response.dial(attributes, to);
  return response.toString();
}
