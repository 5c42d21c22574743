// Asterisk AudioSocket as a provider module: its codec, Raaga's own pacing (Asterisk has no playout buffer), and call
// control through the hangup packet (the dialplan after AudioSocket() decides what follows, a transfer too).
// AudioSocket is TCP, not HTTP: no media paths or webhooks; its listener (api/audiosocket-listener.ts, AUDIOSOCKET_*)
// admits by the peer's network, bills one account, and carries no credentials, so nothing is ever "unconfigured".

import { defineCredentials } from '../provider-credentials.js';
import type { ProviderModule } from '../provider-module.js';
import { ACCEPTED } from '../provider-request.js';
import { streamEndingControl } from '../stream-provider.js';
import { AudioSocketCodec } from './audiosocket-codec.js';

export const audioSocketModule = {
  name: 'audiosocket',
  playback: 'self-paced',
  createCodec: () => new AudioSocketCodec(),
  callControl: ({ hangupStream }) => streamEndingControl(hangupStream),
  credentials: defineCredentials({ fields: [], configured: () => true }),
  authenticate: () => ACCEPTED,
  mediaPaths: [],
} as const satisfies ProviderModule<'audiosocket'>;
