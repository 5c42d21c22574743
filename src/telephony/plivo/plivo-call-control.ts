// Plivo (and Vobiz) call control, through Plivo's REST API when the account has its auth id and token: hangup
// DELETEs the call; transfer points the call's A leg at Raaga's transfer XML, which dials the target
// (https://www.plivo.com/docs/voice/api/call/transfer-a-call). Without them both close the stream (keepCallAlive:
// the call then ends, or the answer XML's next element runs).

import type { CallControlPort } from '../../session/call-events.js';
import type { CallControlContext } from '../stream-provider.js';
import { plivoCredentials } from './plivo-credentials.js';

export const PLIVO_API_BASE_URL = 'https://api.plivo.com';
/** Where Plivo fetches a transferred call's XML: `${origin}${PLIVO_TRANSFER_PATH}/{account}?to=…`. */
export const PLIVO_TRANSFER_PATH = '/v1/telephony/plivo/transfer';
const REST_TIMEOUT_MS = 5000;

export function plivoCallControl({ settings, start, origin, closeStream }: CallControlContext): CallControlPort {
  const { plivoAuthId: authId, plivoAuthToken: authToken, plivoApiBaseUrl } = plivoCredentials.read(settings);
  // The account's own host when it set one (Vobiz, a proxy), else Plivo's.
  const base = plivoApiBaseUrl ?? PLIVO_API_BASE_URL;
  const call = async (method: 'DELETE' | 'POST', body?: URLSearchParams): Promise<Response> => {
    const url = `${base}/v1/Account/${encodeURIComponent(authId!)}/Call/${encodeURIComponent(start.callId)}/`;
    const headers: Record<string, string> = { authorization: `Basic ${Buffer.from(`${authId}:${authToken}`).toString('base64')}` };
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    return fetch(url, { method, headers, ...(body ? { body } : {}), signal: AbortSignal.timeout(REST_TIMEOUT_MS) });
  };
  return {
    async hangup() {
      if (!authId || !authToken) return closeStream('hangup');
      const response = await call('DELETE');
      // 204: hung up; 404: the call is already over. Anything else: the call control fails and the stream closes.
      if (response.status !== 204 && response.status !== 404) throw new Error(`Plivo hangup answered ${response.status}`);
    },
    async transfer(to, options = {}) {
      if (!authId || !authToken || origin === undefined) {
        closeStream('transfer');
        return 'stream-ended';
      }
      const query = new URLSearchParams({
        to,
        ...(options.callerId !== undefined ? { caller_id: options.callerId } : {}),
        ...(options.timeoutS !== undefined ? { timeout_s: String(options.timeoutS) } : {}),
      });
      const xmlUrl = `${origin}${PLIVO_TRANSFER_PATH}/${encodeURIComponent(settings!.accountId)}?${query}`;
      const response = await call('POST', new URLSearchParams({ legs: 'aleg', aleg_url: xmlUrl, aleg_method: 'GET' }));
      // 202: "call transferred"; the stream then ends as Plivo moves the call to the new XML.
      if (response.status !== 202) throw new Error(`Plivo transfer answered ${response.status}`);
      return 'redirected';
    },
  };
}
