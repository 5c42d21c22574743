// Asterisk AudioSocket as a stream provider: its codec, Raaga's own pacing (Asterisk has no playout buffer), and
// call control through the hangup packet (the dialplan after AudioSocket() decides what follows, a transfer too).

import { type StreamProvider, streamEndingControl } from '../stream-provider.js';
import { AudioSocketCodec } from './audiosocket-codec.js';

export const audioSocketProvider: StreamProvider = {
  name: 'audiosocket',
  playback: 'self-paced',
  createCodec: () => new AudioSocketCodec(),
  callControl: ({ hangupStream }) => streamEndingControl(hangupStream),
};
