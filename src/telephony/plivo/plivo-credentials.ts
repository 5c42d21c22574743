// Plivo's (and Vobiz's) stored credentials: the auth id and token that sign its requests (X-Plivo-Signature-V3) and
// authenticate its REST calls (hangup, transfer, placing calls), and the REST host when it is not Plivo's own.

import { z } from 'zod';
import { ApiBaseUrl, Secret } from '../credential-formats.js';
import { defineCredentials } from '../provider-credentials.js';

export const plivoCredentials = defineCredentials({
  fields: [
    {
      field: 'plivoAuthId',
      format: z.string().regex(/^[A-Z0-9]{20}$/, 'must be 20 capital letters and digits (MA… or SA…)'),
      option: 'plivo-auth-id',
      value: 'MA…',
      help: 'with --plivo-auth-token <t|->: X-Plivo-Signature-V3 on the answer URL and\nthe stream; REST hangup, transfer and placing calls',
    },
    { field: 'plivoAuthToken', format: Secret, option: 'plivo-auth-token', value: '<t|->', secret: true, help: "the auth id's token" },
    {
      field: 'plivoApiBaseUrl',
      format: ApiBaseUrl,
      option: 'plivo-api-base-url',
      value: '<url>',
      help: "where Plivo REST calls go (default https://api.plivo.com; a Plivo-compatible\nhost such as Vobiz's)",
    },
  ],
  together: [['plivoAuthId', 'plivoAuthToken']],
  configured: (values) => values.plivoAuthToken !== undefined,
});
