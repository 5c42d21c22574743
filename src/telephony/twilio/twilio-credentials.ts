// Twilio's stored credentials: the auth token that signs its requests (X-Twilio-Signature), and the REST credentials
// (account SID with an API key and secret, or the auth token) for hangup, transfer and placing calls.

import { z } from 'zod';
import { ApiBaseUrl, Secret } from '../credential-formats.js';
import { defineCredentials } from '../provider-credentials.js';

export const twilioCredentials = defineCredentials({
  fields: [
    { field: 'twilioAuthToken', format: Secret, option: 'twilio-auth-token', value: '<t|->', secret: true, help: 'X-Twilio-Signature on the voice webhook, status callbacks and the stream' },
    {
      field: 'twilioAccountSid',
      format: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'must be AC followed by 32 hex digits'),
      option: 'twilio-account-sid',
      value: 'AC…',
      help: 'with --twilio-api-key SK… --twilio-api-secret <s|-> (or the auth token):\nREST hangup and transfer',
    },
    {
      field: 'twilioApiKey',
      format: z.string().regex(/^SK[0-9a-fA-F]{32}$/, 'must be SK followed by 32 hex digits'),
      option: 'twilio-api-key',
      value: 'SK…',
      help: 'a Twilio API key (revocable; preferred over the auth token for REST)',
    },
    { field: 'twilioApiSecret', format: Secret, option: 'twilio-api-secret', value: '<s|->', secret: true, help: "the API key's secret" },
    {
      field: 'twilioApiBaseUrl',
      format: ApiBaseUrl,
      option: 'twilio-api-base-url',
      value: '<url>',
      help: 'where Twilio REST calls go (default https://api.twilio.com; e.g. a regional\nedge https://api.sydney.au1.twilio.com, or a proxy)',
    },
  ],
  together: [['twilioApiKey', 'twilioApiSecret']],
  configured: (values) => values.twilioAuthToken !== undefined,
});
