// Exotel as a provider module: its codec; call control by closing the stream, because the Voicebot applet has no
// call-control API (the Exotel flow's next applet, Hangup or Connect to an agent number, runs); the applet URL's
// `user:secret` (sent as Basic auth) as its authenticator; and outbound calls through Connect Voice AI, whose stream
// opens on a URL Raaga made for the placed call.

import { basicAuthenticator } from '../basic-authenticator.js';
import type { ProviderCredentials } from '../provider-credentials.js';
import { outboundPath, type ProviderModule } from '../provider-module.js';
import { streamEndingControl } from '../stream-provider.js';
import { ExotelCodec } from './exotel-codec.js';
import { exotelDialer } from './exotel-dialer.js';

export const EXOTEL_MEDIA_PATH = '/v1/telephony/exotel/media';

const exotelCredentials: ProviderCredentials = {
  fields: [
    { field: 'exotelCredentials', option: 'exotel-credentials', value: '<u:s|->', secret: true, help: "the user:secret in the Voicebot applet's wss URL (sent as Basic auth)" },
    { field: 'exotelApiKey', option: 'exotel-api-key', value: '<k>', outbound: true, help: 'with --exotel-api-token and --exotel-account-sid: Exotel REST credentials\n(Calls/connect)' },
    { field: 'exotelApiToken', option: 'exotel-api-token', value: '<t|->', secret: true, outbound: true, help: "the API key's token" },
    { field: 'exotelAccountSid', option: 'exotel-account-sid', value: '<sid>', outbound: true, help: 'the Exotel account SID' },
    { field: 'exotelApiBaseUrl', option: 'exotel-api-base-url', value: '<url>', outbound: true, help: 'default https://api.exotel.com (https://api.in.exotel.com: Mumbai cluster)' },
  ],
  configured: (settings) => settings?.exotelCredentials !== undefined,
};

export const exotelModule = {
  name: 'exotel',
  createCodec: () => new ExotelCodec(),
  callControl: ({ closeStream }) => streamEndingControl(closeStream),
  credentials: exotelCredentials,
  authenticate: basicAuthenticator('exotelCredentials'),
  mediaPaths: [
    { path: `${outboundPath('exotel')}/:accountId/:callId/:token`, proof: 'placed-call' },
    { path: `${EXOTEL_MEDIA_PATH}/:accountId`, proof: 'account' },
  ],
  dialer: exotelDialer,
  playground: { label: 'Exotel' },
} as const satisfies ProviderModule<'exotel'>;
