// Exotel's stored credentials: the `user:secret` the operator puts in the Voicebot applet's wss URL (Exotel cannot
// sign; it sends them as Basic auth), and the REST credentials for placing calls (API key and token as Basic auth,
// the account SID in the path, the regional host).

import { z } from 'zod';
import { ApiBaseUrl, BasicCredentials, Secret } from '../credential-formats.js';
import { defineCredentials } from '../provider-credentials.js';

export const exotelCredentials = defineCredentials({
  fields: [
    { field: 'exotelCredentials', format: BasicCredentials, option: 'exotel-credentials', value: '<u:s|->', secret: true, help: "the user:secret in the Voicebot applet's wss URL (sent as Basic auth)" },
    {
      field: 'exotelApiKey',
      format: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8-128 letters, digits, - or _'),
      option: 'exotel-api-key',
      value: '<k>',
      outbound: true,
      help: 'with --exotel-api-token and --exotel-account-sid: Exotel REST credentials\n(Calls/connect)',
    },
    { field: 'exotelApiToken', format: Secret, option: 'exotel-api-token', value: '<t|->', secret: true, outbound: true, help: "the API key's token" },
    {
      field: 'exotelAccountSid',
      format: z.string().regex(/^[A-Za-z0-9_-]{2,64}$/, 'must be 2-64 letters, digits, - or _'),
      option: 'exotel-account-sid',
      value: '<sid>',
      outbound: true,
      help: 'the Exotel account SID',
    },
    { field: 'exotelApiBaseUrl', format: ApiBaseUrl, option: 'exotel-api-base-url', value: '<url>', outbound: true, help: 'default https://api.exotel.com (https://api.in.exotel.com: Mumbai cluster)' },
  ],
  together: [['exotelApiKey', 'exotelApiToken']],
  configured: (values) => values.exotelCredentials !== undefined,
});
