// Tata Tele Smartflo's bidirectional streaming is a dialect of Twilio Media Streams, so it lives beside Twilio's
// codec and reuses it (dialect 'smartflo'). Smartflo has no call-control API for a stream: hangup and transfer
// close the stream and the Smartflo flow goes on.

import type { CallControlPort } from '../../session/call-events.js';
import type { StreamProvider } from '../stream-provider.js';
import { TwilioCodec } from './twilio-codec.js';

export const smartfloProvider: StreamProvider = {
  name: 'smartflo',
  createCodec: () => new TwilioCodec('smartflo'),
  callControl: ({ closeStream }): CallControlPort => ({
    hangup: async () => closeStream('hangup'),
    transfer: async () => closeStream('transfer'),
  }),
};
