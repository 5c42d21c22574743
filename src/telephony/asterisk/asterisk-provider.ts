// Asterisk chan_websocket as a stream provider: its codec, and call control through its own HANGUP command (the
// channel hangs up; the dialplan after Dial() decides what follows). A transfer hangs up the WebSocket leg too:
// put the transfer target in the dialplan after the Dial (docs/telephony.md, "Asterisk").

import { type StreamProvider, streamEndingControl } from '../stream-provider.js';
import { AsteriskCodec } from './asterisk-codec.js';

export const asteriskProvider: StreamProvider = {
  name: 'asterisk',
  createCodec: () => new AsteriskCodec(),
  callControl: ({ hangupStream }) => streamEndingControl(hangupStream),
};
