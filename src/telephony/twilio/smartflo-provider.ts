// Tata Tele Smartflo's bidirectional streaming is a dialect of Twilio Media Streams, so it lives beside Twilio's
// codec and reuses it (dialect 'smartflo'). Smartflo has no call-control API for a stream: hangup and transfer
// close the stream and the Smartflo flow goes on.

import { type StreamProvider, streamEndingControl } from '../stream-provider.js';
import { TwilioCodec } from './twilio-codec.js';

export const smartfloProvider: StreamProvider = {
  name: 'smartflo',
  createCodec: () => new TwilioCodec('smartflo'),
  callControl: ({ closeStream }) => streamEndingControl(closeStream),
};
