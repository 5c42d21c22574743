// Exotel as a provider module: its codec; call control by closing the stream, because the Voicebot applet has no
// call-control API (the Exotel flow's next applet, Hangup or Connect to an agent number, runs); the applet URL's
// `user:secret` (sent as Basic auth) as its authenticator; and outbound calls through Connect Voice AI, whose stream
// opens on a URL Raaga made for the placed call.

import { basicAuthenticator } from '../basic-authenticator.js';
import { outboundPath, type ProviderModule } from '../provider-module.js';
import { streamEndingControl } from '../stream-provider.js';
import { ExotelCodec } from './exotel-codec.js';
import { exotelCredentials } from './exotel-credentials.js';
import { exotelDialer } from './exotel-dialer.js';

export const EXOTEL_MEDIA_PATH = '/v1/telephony/exotel/media';

export const exotelModule = {
  name: 'exotel',
  createCodec: () => new ExotelCodec(),
  callControl: ({ closeStream }) => streamEndingControl(closeStream),
  credentials: exotelCredentials,
  authenticate: basicAuthenticator(exotelCredentials, 'exotelCredentials'),
  mediaPaths: [
    { path: `${outboundPath('exotel')}/:accountId/:callId/:token`, proof: 'placed-call' },
    { path: `${EXOTEL_MEDIA_PATH}/:accountId`, proof: 'account' },
  ],
  dialer: exotelDialer,
  playground: { label: 'Exotel' },
} as const satisfies ProviderModule<'exotel'>;
