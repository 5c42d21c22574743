// Tata Tele Smartflo's bidirectional streaming is a dialect of Twilio Media Streams, so it lives beside Twilio's
// codec and reuses it (dialect 'smartflo'). Smartflo neither signs nor sends credentials: the account's secret path
// segment is the proof. It has no call-control API for a stream: hangup and transfer close the stream and the
// Smartflo flow goes on.

import type { TelephonySettings } from '../../store/store.js';
import { z } from 'zod';
import { constantTimeEqual, defineCredentials } from '../provider-credentials.js';
import type { ProviderModule } from '../provider-module.js';
import { ACCEPTED, type Authentication, type ProviderRequest } from '../provider-request.js';
import { streamEndingControl } from '../stream-provider.js';
import { TwilioCodec } from './twilio-codec.js';

export const SMARTFLO_MEDIA_PATH = '/v1/telephony/smartflo/media';

export const smartfloCredentials = defineCredentials({
  fields: [
    {
      field: 'smartfloToken',
      format: z.string().regex(/^[A-Za-z0-9_-]{24,128}$/, 'must be 24-128 letters, digits, - or _ (it is a URL path segment)'),
      option: 'smartflo-token',
      value: '<t|->',
      secret: true,
      help: 'the secret path segment of the Smartflo stream URL (24-128 of A-Z a-z 0-9 _ -)',
    },
  ],
  configured: (values) => values.smartfloToken !== undefined,
});

function authenticateSmartflo(request: ProviderRequest, settings: TelephonySettings | null): Authentication {
  const expected = smartfloCredentials.read(settings).smartfloToken;
  if (expected === undefined || constantTimeEqual(request.params.secret ?? '', expected)) return ACCEPTED;
  return { ok: false, status: 403, reason: 'wrong stream secret' };
}

export const smartfloModule = {
  name: 'smartflo',
  createCodec: () => new TwilioCodec('smartflo'),
  callControl: ({ closeStream }) => streamEndingControl(closeStream),
  credentials: smartfloCredentials,
  authenticate: authenticateSmartflo,
  mediaPaths: [{ path: `${SMARTFLO_MEDIA_PATH}/:accountId/:secret`, proof: 'account' }],
  playground: { label: 'Tata Smartflo' },
} as const satisfies ProviderModule<'smartflo'>;
