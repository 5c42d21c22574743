// TwiML that connects a call to Raaga's media endpoint, built with the twilio package's VoiceResponse:
// <Connect><Stream url=wss://…><Parameter …/></Stream></Connect>. Per-call settings travel as <Parameter>s
// (Twilio drops query strings on stream URLs); Twilio caps each name + value under 500 characters.

import twilio from 'twilio';
import type { TransferOptions } from '../../session/call-events.js';

export const MAX_PARAMETER_CHARS = 499;

export interface StreamTwiml {
  /** wss://host/v1/telephony/twilio/media[/accountId] (ws:// only for local simulators). */
  readonly streamUrl: string;
  /** Unique per call (R12): Twilio rejects a second stream of the same name on one call. */
  readonly streamName?: string;
  readonly parameters: Readonly<Record<string, string>>;
  /** Absolute URL for stream-started/stopped/error callbacks. */
  readonly statusCallback?: string;
}

export class TwimlParameterError extends Error {
  constructor(readonly parameter: string) {
    super(`parameter '${parameter}': name and value together must stay under 500 characters (a Twilio limit)`);
    this.name = 'TwimlParameterError';
  }
}

export function streamTwiml(spec: StreamTwiml): string {
  const response = new twilio.twiml.VoiceResponse();
  const stream = response.connect().stream({
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

/** What a transfer without REST is not: the TwiML a REST transfer redirects the live call to. */
export function dialTwiml(to: string, options: TransferOptions = {}): string {
  const response = new twilio.twiml.VoiceResponse();
  const attributes = {
    ...(options.callerId !== undefined ? { callerId: options.callerId } : {}),
    ...(options.timeoutS !== undefined ? { timeout: options.timeoutS } : {}),
  };
  if (/^sips?:/i.test(to)) response.dial(attributes).sip(to);
  else response.dial(attributes, to);
  return response.toString();
}
