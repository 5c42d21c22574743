// Exotel as a stream provider: its codec, and call control by closing the stream, because the Voicebot applet has
// no call-control API: the Exotel flow's next applet (Hangup, or Connect to an agent number for a transfer) runs.

import { type StreamProvider, streamEndingControl } from '../stream-provider.js';
import { ExotelCodec } from './exotel-codec.js';

export const exotelProvider: StreamProvider = {
  name: 'exotel',
  createCodec: () => new ExotelCodec(),
  callControl: ({ closeStream }) => streamEndingControl(closeStream),
};
