// Twilio as a stream provider: its Media Streams codec, and hangup/transfer through its REST API when the account
// has credentials (else by closing the stream, so the TwiML after <Connect> runs); a transfer's dial reports back to
// Raaga's dial action, so a failed one resumes the call.

import { providerRequestsAllowed } from '../provider-credentials.js';
import type { StreamProvider } from '../stream-provider.js';
import { dialActionUrl, twilioCallControl, twilioRestClient } from './twilio-call-control.js';
import { TwilioCodec } from './twilio-codec.js';

export function twilioProvider(): StreamProvider {
  return {
    name: 'twilio',
    createCodec: () => new TwilioCodec('twilio'),
    callControl: ({ settings, start, origin, closeStream }) =>
      twilioCallControl(
        twilioRestClient(settings),
        start.callId,
        closeStream,
        // Twilio's request to the action is checked like every Twilio request: only an account that takes them gets one.
        origin !== undefined && settings && providerRequestsAllowed('twilio', settings) ? dialActionUrl(origin, settings.accountId, start.parameters) : undefined,
      ),
  };
}
