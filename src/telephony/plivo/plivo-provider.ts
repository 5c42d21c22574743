// Plivo (and Vobiz) as a stream provider: its codec, and hangup through Plivo's REST API (DELETE the call) when the
// account has its auth id and token, else by closing the stream (keepCallAlive: the call then ends, or the answer
// XML's next element runs). A transfer closes the stream: Plivo's answer XML after <Stream> decides what follows.

import type { CallControlPort } from '../../session/call-events.js';
import type { StreamProvider } from '../stream-provider.js';
import { PlivoCodec } from './plivo-codec.js';

export const PLIVO_API_BASE_URL = 'https://api.plivo.com';
const REST_TIMEOUT_MS = 5000;

export interface PlivoProviderOptions {
  /** Tests only: where api.plivo.com requests go instead. */
  readonly apiBaseUrl?: string | undefined;
}

export function plivoProvider(options: PlivoProviderOptions = {}): StreamProvider {
  const base = options.apiBaseUrl ?? PLIVO_API_BASE_URL;
  return {
    name: 'plivo',
    createCodec: () => new PlivoCodec(),
    callControl: ({ settings, start, closeStream }): CallControlPort => ({
      async hangup() {
        if (!settings?.plivoAuthId || !settings.plivoAuthToken) return closeStream('hangup');
        const url = `${base}/v1/Account/${encodeURIComponent(settings.plivoAuthId)}/Call/${encodeURIComponent(start.callId)}/`;
        const auth = Buffer.from(`${settings.plivoAuthId}:${settings.plivoAuthToken}`).toString('base64');
        const response = await fetch(url, { method: 'DELETE', headers: { authorization: `Basic ${auth}` }, signal: AbortSignal.timeout(REST_TIMEOUT_MS) });
        // 204: hung up; 404: the call is already over. Anything else: the call control fails and the stream closes.
        if (response.status !== 204 && response.status !== 404) throw new Error(`Plivo hangup answered ${response.status}`);
      },
      transfer: async () => closeStream('transfer'),
    }),
  };
}
