// Asterisk chan_websocket as a provider module: its codec; call control through its own HANGUP command (the channel
// hangs up; the dialplan after Dial() decides what follows; a transfer hangs up the WebSocket leg too: put the
// transfer target in the dialplan after the Dial, docs/telephony.md "Asterisk"); websocket_client.conf's
// `username:password` (sent as Basic auth) as its authenticator; call settings as the URI's parameters.

import { basicAuthenticator } from '../basic-authenticator.js';
import { BasicCredentials } from '../credential-formats.js';
import { defineCredentials } from '../provider-credentials.js';
import type { ProviderModule } from '../provider-module.js';
import { streamEndingControl } from '../stream-provider.js';
import { AsteriskCodec } from './asterisk-codec.js';

export const ASTERISK_MEDIA_PATH = '/v1/telephony/asterisk/media';

export const asteriskCredentials = defineCredentials({
  fields: [
    { field: 'asteriskCredentials', format: BasicCredentials, option: 'asterisk-credentials', value: '<u:s|->', secret: true, help: "websocket_client.conf's username:password (sent as Basic auth)" },
  ],
  configured: (values) => values.asteriskCredentials !== undefined,
});

export const asteriskModule = {
  name: 'asterisk',
  createCodec: () => new AsteriskCodec(),
  callControl: ({ hangupStream }) => streamEndingControl(hangupStream),
  credentials: asteriskCredentials,
  authenticate: basicAuthenticator(asteriskCredentials, 'asteriskCredentials'),
  mediaPaths: [{ path: `${ASTERISK_MEDIA_PATH}/:accountId`, proof: 'account' }],
  playground: { label: 'Asterisk (chan_websocket)' },
} as const satisfies ProviderModule<'asterisk'>;
