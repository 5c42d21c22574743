// Twilio as a stream provider: its Media Streams codec, and hangup/transfer through its REST API when the account
// has credentials (else by closing the stream, so the TwiML after <Connect> runs).

import type { StreamProvider } from '../stream-provider.js';
import { twilioCallControl, twilioRestClient } from './twilio-call-control.js';
import { TwilioCodec } from './twilio-codec.js';

export interface TwilioProviderOptions {
  /** Tests only: where api.twilio.com requests go instead. */
  readonly apiBaseUrl?: string | undefined;
}

export function twilioProvider(options: TwilioProviderOptions = {}): StreamProvider {
  return {
    name: 'twilio',
    createCodec: () => new TwilioCodec('twilio'),
    callControl: ({ settings, start, closeStream }) =>
      twilioCallControl(twilioRestClient(settings, { apiBaseUrl: options.apiBaseUrl }), start.callId, closeStream),
  };
}
